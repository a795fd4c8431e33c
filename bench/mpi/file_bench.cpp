// SPDX-License-Identifier: BSL-1.0
// Collective checkpoint files on two ranks: bale::mpi::save_file and load_file against raw
// MPI-IO of as many bytes (MPI_File_write_at_all and MPI_File_write_at), one bale file per rank,
// and parallel HDF5 (a byte dataset and an offsets dataset), interleaved round by round. Writes
// are timed in two regimes, page cache (nothing synced) and durable (every variant ends with the
// file and its directory synced); reads after the file's pages were dropped from the cache.
// Rank 0 writes a Markdown report (the first argument) and prints it.
//   mpiexec -n 2 bale_mpi_file_bench results/mpi_file.md    (BALE_BENCH_MODE=tiny|quick|full,
//                                                            BALE_BENCH_FILE_LARGEST=bytes per
//                                                            rank)
// OMPI_MCA_io=romio321 or ompio picks Open MPI's MPI-IO component; the report names the one used.
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "bale/bale.hpp"
#include "bale/mpi.hpp"
#include "rounds.hpp"

namespace {

using namespace bale_bench;
namespace fs = std::filesystem;

struct particle {  // the small records: 40 bytes, trivially copyable
  std::int64_t id = 0;
  double x = 0, y = 0, z = 0;
  float mass = 0;
  std::int32_t kind = 0;
  bool operator==(const particle&) const = default;
};

struct mode {
  std::vector<std::size_t> rank_bytes;
  int rounds;
};
mode bench_mode() {
  const char* name = std::getenv("BALE_BENCH_MODE");
  const std::string m = name ? name : "quick";
  if (m == "tiny") return {{4096}, 1};
  const char* largest = std::getenv("BALE_BENCH_FILE_LARGEST");  // bytes per rank
  const std::size_t up_to = largest ? std::stoull(largest) : std::size_t{256} << 20;
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 4096; bytes <= up_to; bytes *= 4) sizes.push_back(bytes);
  return {sizes, m == "full" ? 11 : 5};
}

void fail(const char* what) {
  std::fprintf(stderr, "file bench: %s failed\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}
void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS) fail(what);
}
void check_h5(long long code, const char* what) {
  if (code < 0) fail(what);
}

void sync_path(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0 || ::fsync(fd) != 0) fail("fsync");
  ::close(fd);
}
// Rank 0 syncs the directory, so that the new name survives a crash (bale's sync does the same).
void sync_directory(const fs::path& file, int rank) {
  if (rank == 0) sync_path(file.parent_path());
}
// The file's pages leave the page cache (they must be clean first).
void drop_from_cache(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0 || ::fdatasync(fd) != 0) fail("fdatasync");
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

/// [first, first + size) of `total` bytes for this rank: the same volume bale writes, in two
/// equal shares.
struct share {
  std::uint64_t first = 0, size = 0;
};
share share_of(std::uint64_t total, int rank, int ranks) {
  const auto r = static_cast<std::uint64_t>(rank);
  const auto p = static_cast<std::uint64_t>(ranks);
  return {total * r / p, total * (r + 1) / p - total * r / p};
}

struct bench {
  bale::mpi::communicator comm{MPI_COMM_WORLD};
  int rank = comm.rank();
  int ranks = comm.size();
  fs::path dir;
  std::ostringstream out;

  bench() {
    long id = rank == 0 ? static_cast<long>(::getpid()) : 0;
    comm.broadcast(id, 0);
    dir = fs::temp_directory_path() / ("bale_file_bench_" + std::to_string(id));
    if (rank == 0) fs::create_directories(dir);
    comm.barrier();
  }
  ~bench() {
    comm.barrier();
    if (rank == 0) fs::remove_all(dir);
  }
  fs::path file(const std::string& name) const { return dir / name; }
  fs::path own_file(const std::string& name) const {
    return dir / (name + "." + std::to_string(rank));
  }

  // Raw MPI-IO: `bytes` at this rank's share of a new file, collective or independent.
  void raw_write(const fs::path& path, const std::vector<std::byte>& bytes, std::uint64_t at,
                 bool collective, bool durable) {
    MPI_File f;
    check_mpi(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &f),
              "MPI_File_open");
    const auto n = static_cast<int>(bytes.size());
    const auto offset = static_cast<MPI_Offset>(at);
    check_mpi(collective
                  ? MPI_File_write_at_all(f, offset, bytes.data(), n, MPI_BYTE, MPI_STATUS_IGNORE)
                  : MPI_File_write_at(f, offset, bytes.data(), n, MPI_BYTE, MPI_STATUS_IGNORE),
              "MPI_File_write_at");
    if (durable) check_mpi(MPI_File_sync(f), "MPI_File_sync");
    check_mpi(MPI_File_close(&f), "MPI_File_close");
    if (durable) sync_directory(path, rank);
  }
  void raw_read(const fs::path& path, std::vector<std::byte>& bytes, std::uint64_t at,
                bool collective) {
    MPI_File f;
    check_mpi(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &f),
              "MPI_File_open");
    const auto n = static_cast<int>(bytes.size());
    const auto offset = static_cast<MPI_Offset>(at);
    check_mpi(collective
                  ? MPI_File_read_at_all(f, offset, bytes.data(), n, MPI_BYTE, MPI_STATUS_IGNORE)
                  : MPI_File_read_at(f, offset, bytes.data(), n, MPI_BYTE, MPI_STATUS_IGNORE),
              "MPI_File_read_at");
    check_mpi(MPI_File_close(&f), "MPI_File_close");
  }

  // Parallel HDF5 tuned as its manual advises for collective writes: collective transfers and
  // metadata, fill values never written.
  hid_t h5_access() const {
    const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    check_h5(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL), "H5Pset_fapl_mpio");
    check_h5(H5Pset_all_coll_metadata_ops(fapl, true), "H5Pset_all_coll_metadata_ops");
    check_h5(H5Pset_coll_metadata_write(fapl, true), "H5Pset_coll_metadata_write");
    return fapl;
  }
  // One dataset of `total` elements, this rank's slice [first, first + count).
  struct h5_slice {
    hid_t file_space, memory_space;
  };
  static h5_slice slice_of(hid_t dataset, hsize_t first, hsize_t count) {
    const hid_t file_space = H5Dget_space(dataset);
    if (count == 0)
      check_h5(H5Sselect_none(file_space), "H5Sselect_none");
    else
      check_h5(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &first, nullptr, &count, nullptr),
               "H5Sselect_hyperslab");
    const hid_t memory_space = H5Screate_simple(1, &count, nullptr);
    if (count == 0) check_h5(H5Sselect_none(memory_space), "H5Sselect_none");
    return {file_space, memory_space};
  }
  // Moves this rank's slice of `dataset` in one collective transfer: move(transfer, memory
  // space, file space).
  template <class Move>
  static void collective_slice(hid_t dataset, hsize_t first, hsize_t count, Move&& move) {
    const h5_slice s = slice_of(dataset, first, count);
    const hid_t transfer = H5Pcreate(H5P_DATASET_XFER);
    check_h5(H5Pset_dxpl_mpio(transfer, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
    move(transfer, s.memory_space, s.file_space);
    H5Pclose(transfer);
    H5Sclose(s.memory_space);
    H5Sclose(s.file_space);
  }
  void h5_write_dataset(hid_t file, const char* name, hid_t type, hsize_t total, hsize_t first,
                        hsize_t count, const void* data) {
    const hid_t space = H5Screate_simple(1, &total, nullptr);
    const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
    check_h5(H5Pset_fill_time(create, H5D_FILL_TIME_NEVER), "H5Pset_fill_time");
    const hid_t dataset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, create, H5P_DEFAULT);
    check_h5(dataset, "H5Dcreate2");
    collective_slice(dataset, first, count, [&](hid_t transfer, hid_t memory, hid_t in_file) {
      check_h5(H5Dwrite(dataset, type, memory, in_file, transfer, data), "H5Dwrite");
    });
    H5Dclose(dataset);
    H5Pclose(create);
    H5Sclose(space);
  }
  void h5_read_dataset(hid_t file, const char* name, hid_t type, hsize_t first, hsize_t count,
                       void* data) {
    const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
    check_h5(dataset, "H5Dopen2");
    collective_slice(dataset, first, count, [&](hid_t transfer, hid_t memory, hid_t in_file) {
      check_h5(H5Dread(dataset, type, memory, in_file, transfer, data), "H5Dread");
    });
    H5Dclose(dataset);
  }

  // What HDF5 stores: the records' bytes and one offset per record, each rank its slice.
  struct h5_layout {
    share bytes;
    std::uint64_t total_bytes = 0, first_record = 0, records = 0, total_records = 0;
  };
  void h5_write(const fs::path& path, const h5_layout& l, const std::vector<std::byte>& bytes,
                const std::vector<std::uint64_t>& offsets, bool durable) {
    const hid_t fapl = h5_access();
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    check_h5(file, "H5Fcreate");
    h5_write_dataset(file, "bytes", H5T_NATIVE_UINT8, l.total_bytes, l.bytes.first, l.bytes.size,
                     bytes.data());
    h5_write_dataset(file, "offsets", H5T_NATIVE_UINT64, l.total_records, l.first_record, l.records,
                     offsets.data());
    if (durable) check_h5(H5Fflush(file, H5F_SCOPE_GLOBAL), "H5Fflush");  // MPI_File_sync
    H5Fclose(file);
    H5Pclose(fapl);
    if (durable) sync_directory(path, rank);
  }
  void h5_read(const fs::path& path, const h5_layout& l, std::vector<std::byte>& bytes,
               std::vector<std::uint64_t>& offsets) {
    const hid_t fapl = h5_access();
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl);
    check_h5(file, "H5Fopen");
    h5_read_dataset(file, "bytes", H5T_NATIVE_UINT8, l.bytes.first, l.bytes.size, bytes.data());
    h5_read_dataset(file, "offsets", H5T_NATIVE_UINT64, l.first_record, l.records, offsets.data());
    H5Fclose(file);
    H5Pclose(fapl);
  }

  /// Each round runs every variant once, in alternating order; `prepare` runs before each
  /// variant, untimed (removing the last file, dropping a file from the cache).
  timings rounds_of(int rounds, const std::function<void(std::size_t)>& prepare,
                    const std::vector<std::function<void()>>& variants) {
    timings t;
    t.rounds.resize(variants.size());
    for (int round = -1; round < rounds; ++round) {  // round -1 warms up, untimed
      for (std::size_t k = 0; k < variants.size(); ++k) {
        const std::size_t i = round % 2 == 0 ? k : variants.size() - 1 - k;
        prepare(i);
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        variants[i]();
        double seconds = MPI_Wtime() - start;
        MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (round >= 0) t.rounds[i].push_back(seconds);
      }
    }
    return t;
  }

  template <class T>
  void run(const std::string& kind, const std::vector<std::size_t>& sizes, int rounds,
           const std::function<std::vector<T>(std::size_t)>& make) {
    for (const bool durable : {false, true}) {
      out << "\n### Writing " << kind << ", " << (durable ? "durable" : "page cache") << "\n\n"
          << "| per rank | file | raw write_at_all | bale | bale GB/s | bale / raw | "
             "bale, a file per rank / raw | HDF5 / raw | bale / HDF5 |\n"
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
      for (const std::size_t bytes : sizes) write_row<T>(make(bytes), bytes, durable, rounds);
    }
    out << "\n### Reading " << kind << " (the file's pages dropped from the cache first)\n\n"
        << "| per rank | raw read_at_all | bale | bale / raw | bale, a file per rank / raw | "
           "HDF5 / raw |\n|---:|---:|---:|---:|---:|---:|\n";
    for (const std::size_t bytes : sizes) read_row<T>(make(bytes), bytes, rounds);
  }

  // The same volume for every variant: the bytes of bale's file, in two equal shares.
  template <class T>
  std::uint64_t bale_file_size(const std::vector<T>& records) {
    bale::mpi::save_file(comm, file("probe.bales"), records, {.sync = false});
    std::uint64_t size = rank == 0 ? fs::file_size(file("probe.bales")) : 0;
    comm.broadcast(size, 0);
    comm.barrier();
    if (rank == 0) fs::remove(file("probe.bales"));
    return size;
  }
  h5_layout h5_layout_of(std::uint64_t total, std::uint64_t records) const {
    const std::uint64_t offsets_bytes = 8 * records * static_cast<std::uint64_t>(ranks);
    const std::uint64_t payload = total > offsets_bytes ? total - offsets_bytes : 0;
    return {share_of(payload, rank, ranks), payload, records * static_cast<std::uint64_t>(rank),
            records, records * static_cast<std::uint64_t>(ranks)};
  }

  template <class T>
  void write_row(const std::vector<T>& records, std::size_t bytes, bool durable, int rounds) {
    const std::uint64_t total = bale_file_size(records);
    const share mine = share_of(total, rank, ranks);
    const std::vector<std::byte> raw(mine.size, std::byte{7});
    const h5_layout layout = h5_layout_of(total, records.size());
    const std::vector<std::byte> h5_bytes(layout.bytes.size, std::byte{7});
    const std::vector<std::uint64_t> h5_offsets(records.size(), 1);
    const fs::path paths[] = {file("raw_all"), file("raw"), file("bale.bales"), own_file("bale"),
                              file("h5")};
    const auto t =
        rounds_of(rounds,
                  [&](std::size_t i) {  // no dirty pages left by the variant before
                    comm.barrier();
                    if (rank == 0 || i == 3) fs::remove(paths[i]);
                    if (rank == 0) ::sync();
                  },
                  {[&] { raw_write(paths[0], raw, mine.first, true, durable); },
                   [&] { raw_write(paths[1], raw, mine.first, false, durable); },
                   [&] { bale::mpi::save_file(comm, paths[2], records, {.sync = durable}); },
                   [&] { bale::save_file(paths[3], records, {.sync = durable}); },
                   [&] { h5_write(paths[4], layout, h5_bytes, h5_offsets, durable); }});
    // The faster raw variant of this size is the baseline.
    const std::size_t raw_best = t.median(0) <= t.median(1) ? 0 : 1;
    out << "| " << human(bytes) << " | " << human(total) << " | "
        << fixed(t.median(raw_best) * 1e3, 2) << " ms" << (raw_best == 1 ? " (write_at)" : "")
        << " | " << fixed(t.median(2) * 1e3, 2) << " ms | "
        << fixed(static_cast<double>(total) / t.median(2) / 1e9, 2) << " | "
        << ratio_cell(t.ratio(raw_best, 2)) << " | " << ratio_cell(t.ratio(raw_best, 3)) << " | "
        << ratio_cell(t.ratio(raw_best, 4)) << " | " << ratio_cell(t.ratio(4, 2)) << " |\n";
    std::fflush(stdout);
  }

  template <class T>
  void read_row(const std::vector<T>& records, std::size_t bytes, int rounds) {
    const fs::path paths[] = {file("raw_all"), file("bale.bales"), own_file("bale"), file("h5")};
    bale::mpi::save_file(comm, paths[1], records);
    bale::save_file(paths[2], records);
    const std::uint64_t total = rank == 0 ? fs::file_size(paths[1]) : 0;
    std::uint64_t size = total;
    comm.broadcast(size, 0);
    const share mine = share_of(size, rank, ranks);
    std::vector<std::byte> raw(mine.size, std::byte{7});
    raw_write(paths[0], raw, mine.first, true, true);
    const h5_layout layout = h5_layout_of(size, records.size());
    std::vector<std::byte> h5_bytes(layout.bytes.size, std::byte{7});
    std::vector<std::uint64_t> h5_offsets(records.size(), 1);
    h5_write(paths[3], layout, h5_bytes, h5_offsets, true);
    std::vector<T> back;
    const auto t = rounds_of(rounds,
                             [&](std::size_t i) {
                               comm.barrier();
                               if (rank == 0 || i == 2) drop_from_cache(paths[i]);
                               back.clear();
                             },
                             {[&] { raw_read(paths[0], raw, mine.first, true); },
                              [&] {
                                back = bale::mpi::load_file<T>(
                                    comm, paths[1], bale::mpi::record_split::as_written());
                              },
                              [&] { back = bale::load_file<std::vector<T>>(paths[2]); },
                              [&] { h5_read(paths[3], layout, h5_bytes, h5_offsets); }});
    back = bale::mpi::load_file<T>(comm, paths[1], bale::mpi::record_split::as_written());
    if (back != records) fail("reading back");
    out << "| " << human(bytes) << " | " << fixed(t.median(0) * 1e3, 2) << " ms | "
        << fixed(t.median(1) * 1e3, 2) << " ms | " << ratio_cell(t.ratio(0, 1)) << " | "
        << ratio_cell(t.ratio(0, 2)) << " | " << ratio_cell(t.ratio(0, 3)) << " |\n";
    comm.barrier();
    if (rank == 0) fs::remove(paths[0]), fs::remove(paths[1]), fs::remove(paths[3]);
    fs::remove(paths[2]);
  }
};

std::string io_component() {
  const char* chosen = std::getenv("OMPI_MCA_io");
  return chosen != nullptr ? chosen : "Open MPI's default (ompio)";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    std::fprintf(stderr, "run with two ranks: mpiexec -n 2 %s report.md\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  const mode m = bench_mode();
  std::string report;
  int rank = 0;
  {
    bench b;
    rank = b.rank;
    b.out << "## Collective files: two ranks, MPI-IO component " << io_component() << "\n\n"
          << "Medians over " << m.rounds
          << " rounds; every variant writes as many bytes as bale's file holds. A ratio is the "
             "median of the rounds' ratios of speed (above 1: the first named is faster), with "
             "their quartiles; \"~\" marks quartiles more than 10 % apart.\n";
    b.run<std::vector<double>>(
        "one std::vector<double> per rank", m.rank_bytes, m.rounds, [](std::size_t bytes) {
          return std::vector<std::vector<double>>{std::vector<double>(bytes / 8, 1.5)};
        });
    b.run<particle>("particles (40-byte records)", m.rank_bytes, m.rounds, [](std::size_t bytes) {
      std::vector<particle> out(bytes / sizeof(particle));
      for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = {static_cast<std::int64_t>(i), 1.0 * i, 2.0, 3.0, 1.5f, 7};
      return out;
    });
    report = b.out.str();
  }
  MPI_Finalize();
  if (rank == 0) {
    std::printf("%s", report.c_str());
    if (argc > 1) std::ofstream(argv[1]) << report;
  }
  return 0;
}
