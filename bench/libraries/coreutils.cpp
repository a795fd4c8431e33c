// SPDX-License-Identifier: BSL-1.0
// Case 9's whole-process rows: coreutils' base64 tool, and bale's codec in a process doing the same
// job (bale_base64_tool, built beside this benchmark). coreutils on an empty file measures its
// start-up; the report subtracts it to estimate coreutils' codec alone.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/base64_cases.hpp"
#include "common/files.hpp"

extern char** environ;

namespace {

// Runs argv with standard output to `output` (a path), and waits; throws unless it exits with 0.
void run(const std::vector<std::string>& args, const char* output) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = 0;
  const int failed = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) throw std::runtime_error("cannot run " + args[0] + ": " + std::strerror(failed));
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(args[0] + " failed on " + args.back());
}

// bale_base64_tool sits in the same directory as this benchmark binary.
std::string bale_tool() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "bale_base64_tool")
      .string();
}

struct tool {
  const char* name;
  std::vector<std::string> encode;  // the command before the file name
  std::vector<std::string> decode;
};

void process_cases(const tool& t, bool empty_input) {
  for (const auto& size : bench::base64_sizes) {
    const std::size_t n = size.bytes;
    for (const bool encode : {true, false}) {
      const std::string name =
          std::string(size.case_name) + "/" + t.name + (encode ? "/encode" : "/decode");
      bench::add(name, [t, n, encode, empty_input](benchmark::State& state) {
        const auto& raw = bench::base64_input(n);
        const auto& text = bench::base64_text(n);
        const auto input = bench::scratch_file(std::string(t.name) + (encode ? ".raw" : ".b64") +
                                               std::to_string(n));
        const auto output = bench::scratch_file(std::string(t.name) + ".out");
        if (empty_input)
          bench::write_whole_file(input, "", 0);
        else if (encode)
          bench::write_whole_file(input, raw.data(), raw.size());
        else
          bench::write_whole_file(input, text.data(), text.size());
        auto args = encode ? t.encode : t.decode;
        args.push_back(input.string());
        // Once to a file, checked; then timed with the output discarded.
        run(args, output.c_str());
        bench::mapped_file out(output);
        std::string got(out.bytes().data(), out.bytes().size());
        if (!got.empty() && got.back() == '\n') got.pop_back();
        const std::string want =
            empty_input ? ""
            : encode    ? text
                        : std::string(reinterpret_cast<const char*>(raw.data()), raw.size());
        if (!bench::require(state, got == want, "the tool's output differs")) return;
        for (auto _ : state) run(args, "/dev/null");
        bench::report(state, raw.size(), encode ? text.size() : raw.size());
      });
    }
  }
}

const bench::library_registration registration([] {
  const tool coreutils{"coreutils", {"base64", "-w", "0"}, {"base64", "-d"}};
  process_cases(coreutils, false);
  process_cases({"coreutils_startup", coreutils.encode, coreutils.decode}, true);
  process_cases({"bale_process", {bale_tool(), "encode"}, {bale_tool(), "decode"}}, false);
});

}  // namespace
