// SPDX-License-Identifier: BSL-1.0
// A collective save whose writer processes are killed (SIGKILL) while they write: the file it
// was replacing must read as before. One program in three roles:
//   killed_writer drive MPIEXEC DIR   the test: no MPI of its own; runs the two below, kills the
//                                     ranks once the temporary file has bytes, checks the file
//   killed_writer save DIR previous   under mpiexec: writes the file the kill must not harm
//   killed_writer save DIR large MIB  under mpiexec: each rank notes its pid, then saves MIB
//                                     mebibytes of records over the previous file
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "bale/bale.hpp"
#include "bale/mpi.hpp"

namespace {

namespace fs = std::filesystem;

struct block {
  int generation = 0;
  std::vector<double> values;
};

constexpr int previous_generation = 1;
constexpr int large_generation = 2;
constexpr std::size_t previous_records = 5;  // per rank, of two

fs::path target_in(const fs::path& dir) {
  return dir / "state.bales";
}
fs::path pid_file(const fs::path& dir, int rank) {
  return dir / ("pid." + std::to_string(rank));
}

int save(const fs::path& dir, const std::string& what, std::size_t mebibytes) {
  MPI_Init(nullptr, nullptr);
  {
    bale::mpi::communicator comm(MPI_COMM_WORLD);
    std::vector<block> records;
    if (what == "previous") {
      records.assign(previous_records, block{previous_generation, std::vector<double>(100, 1.0)});
    } else {
      std::ofstream(pid_file(dir, comm.rank())) << ::getpid() << '\n';
      const std::size_t per_record = std::size_t{1} << 20;  // doubles: 8 MiB
      records.assign(mebibytes / 8, block{large_generation, std::vector<double>(per_record, 2.0)});
    }
    bale::mpi::save_file(comm, target_in(dir), records);
  }
  MPI_Finalize();
  return 0;
}

// The generation every record of the file has, or -1 if the file is not whole.
int generation_of(const fs::path& target) {
  try {
    bale::record_reader<block> in(target);
    int generation = 0;
    for (const block& b : in.read(0, in.size())) {
      if (generation != 0 && b.generation != generation) return -1;
      generation = b.generation;
    }
    if (generation == previous_generation && in.size() != 2 * previous_records) return -1;
    return generation;
  } catch (const bale::error& e) {
    std::fprintf(stderr, "the file does not read: %s\n", e.what());
    return -1;
  }
}

// A temporary file of the save next to the target, with bytes written into it.
bool temporary_has_bytes(const fs::path& dir) {
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(dir, ignored))
    if (entry.path().filename().string().starts_with(".state.bales.tmp-") &&
        entry.file_size(ignored) > 0)
      return true;
  return false;
}

pid_t launch(const std::string& mpiexec, const std::vector<std::string>& args) {
  const pid_t child = ::fork();
  if (child != 0) return child;
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(mpiexec.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::perror("exec mpiexec");
  ::_exit(127);
}

// Waits for `child` at most `seconds`; its exit status, or -1 (then it was killed).
int wait_for(pid_t child, int seconds) {
  int status = 0;
  for (int waited = 0; waited < seconds * 100; ++waited) {
    if (::waitpid(child, &status, WNOHANG) == child) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, &status, 0);
  return -1;
}

void kill_ranks(const fs::path& dir) {
  for (int rank = 0; rank < 2; ++rank) {
    long pid = 0;
    std::ifstream(pid_file(dir, rank)) >> pid;
    if (pid > 0) ::kill(static_cast<pid_t>(pid), SIGKILL);
  }
}

// One attempt with `mebibytes` per rank: 1 if the ranks died mid-write and the file survived,
// 0 if the save finished before the kill (try larger), -1 on a failure.
int attempt(const std::string& mpiexec, const std::string& self, const fs::path& dir,
            std::size_t mebibytes) {
  const pid_t job =
      launch(mpiexec, {"-n", "2", self, "save", dir.string(), "large", std::to_string(mebibytes)});
  bool killed = false;
  int status = 0;
  for (int polls = 0; polls < 120'000; ++polls) {  // two minutes at most
    if (::waitpid(job, &status, WNOHANG) == job) break;
    if (temporary_has_bytes(dir)) {
      kill_ranks(dir);
      killed = true;
      status = wait_for(job, 60);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const int generation = generation_of(target_in(dir));
  if (generation == large_generation) return 0;  // renamed before the ranks were killed
  if (!killed) {
    std::fprintf(stderr, "the save neither finished nor started writing (status %d)\n", status);
    return -1;
  }
  if (generation != previous_generation) {
    std::fprintf(stderr, "killed mid-write, the previous file did not survive (%d)\n", generation);
    return -1;
  }
  std::printf("ranks killed mid-write at %zu MiB per rank: the previous file reads whole\n",
              mebibytes);
  return 1;
}

int drive(const std::string& mpiexec, const std::string& self, const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto run = [&](std::vector<std::string> args) {
    return wait_for(launch(mpiexec, args), 120);
  };
  if (run({"-n", "2", self, "save", dir.string(), "previous"}) != 0 ||
      generation_of(target_in(dir)) != previous_generation) {
    std::fprintf(stderr, "the previous file was not written\n");
    return 1;
  }
  int result = 0;
  for (std::size_t mebibytes = 256; mebibytes <= 2048 && result == 0; mebibytes *= 2)
    result = attempt(mpiexec, self, dir, mebibytes);
  if (result != 1) {
    if (result == 0) std::fprintf(stderr, "every save finished before its ranks were killed\n");
    return 1;
  }
  // The dead save's temporary file stays; the next save is not hindered by it.
  if (run({"-n", "2", self, "save", dir.string(), "previous"}) != 0 ||
      generation_of(target_in(dir)) != previous_generation) {
    std::fprintf(stderr, "a save after the killed one failed\n");
    return 1;
  }
  fs::remove_all(dir);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  if (argc == 4 && args[1] == "drive")
    return drive(args[2], fs::read_symlink("/proc/self/exe").string(), args[3]);
  if (argc >= 4 && args[1] == "save")
    return save(args[2], args[3], argc > 4 ? std::stoul(args[4]) : 0);
  std::fprintf(stderr, "usage: killed_writer drive MPIEXEC DIR\n");
  return 2;
}
