// SPDX-License-Identifier: BSL-1.0
// Ping-pong and broadcast between two ranks: bale::mpi against raw MPI of the same bytes and
// against Boost.MPI, interleaved round by round so that all three see the same machine state.
// Rank 0 writes a Markdown report (the path given as the only argument) and prints it.
//   mpiexec -n 2 bale_mpi_bench results/mpi.md      (BALE_BENCH_MODE=tiny|quick|full)
#include <mpi.h>

#include <algorithm>
#include <array>
#include <boost/mpi.hpp>
#include <boost/multi_array.hpp>
#include <boost/serialization/array.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "bale/arrays/multi_array.hpp"
#include "bale/mpi.hpp"
#include "rounds.hpp"

namespace {

using namespace bale_bench;

struct record {  // a vector of these is the structured case
  std::int64_t id = 0;
  std::string name;
  std::array<double, 4> values{};
  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& id& name& values;
  }
  bool operator==(const record&) const = default;
};
BALE_REFLECT(record, id, name, values)

std::vector<record> records(std::size_t count) {
  std::vector<record> out(count);
  for (std::size_t i = 0; i < count; ++i)
    out[i] = {static_cast<std::int64_t>(i),
              "record number " + std::to_string(i * 7919),
              {1.0 * i, 2.0, 3.0, 4.0}};
  return out;
}

struct mode {
  std::vector<std::size_t> array_bytes;
  std::vector<long> block_sides;
  std::vector<std::size_t> record_counts;
  int rounds;
  double round_seconds;
};
mode bench_mode() {
  const char* name = std::getenv("BALE_BENCH_MODE");
  const std::string m = name ? name : "quick";
  std::vector<std::size_t> sizes;
  const std::size_t largest = m == "tiny" ? (std::size_t{1} << 20) : (std::size_t{256} << 20);
  for (std::size_t bytes = 1024; bytes <= largest; bytes *= 4) sizes.push_back(bytes);
  if (m == "tiny") return {sizes, {128}, {10, 1000}, 3, 0.0};
  const std::vector<long> sides = {128, 1024, 2048};
  if (m == "full") return {sizes, sides, {10, 100, 1000, 10000, 100000}, 31, 0.1};
  return {sizes, sides, {10, 100, 1000, 10000, 100000}, 15, 0.03};
}

bale::mpi::options roomy() {  // room for the 2.5 GiB row
  bale::mpi::options settings;
  settings.limits.max_allocation = std::size_t{4} << 30;
  return settings;
}

struct bench {
  bale::mpi::communicator comm{MPI_COMM_WORLD, roomy()};
  boost::mpi::communicator world;
  int rank = comm.rank();
  int peer = 1 - comm.rank();
  std::ostringstream out;

  // Rank 0 sends first and receives the answer; rank 1 receives and sends it back.
  template <class Send, class Receive>
  void ping_pong(Send send, Receive receive) {
    if (rank == 0) {
      send();
      receive();
    } else {
      receive();
      send();
    }
  }
  template <class T>
  void ping_pong_bale(T& value) {
    ping_pong([&] { comm.send(peer, 1, value); }, [&] { comm.recv(peer, 1, value); });
  }
  template <class T>
  void ping_pong_boost(T& value) {
    ping_pong([&] { world.send(peer, 2, value); }, [&] { world.recv(peer, 2, value); });
  }
  void ping_pong_raw(void* bytes, int count, MPI_Datatype type) {
    ping_pong([&] { MPI_Send(bytes, count, type, peer, 3, MPI_COMM_WORLD); },
              [&] { MPI_Recv(bytes, count, type, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); });
  }
  void ping_pong_raw(std::vector<std::byte>& bytes) {
    ping_pong_raw(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE);
  }

  void arrays(const mode& m) {
    out << "### Ping-pong of std::vector<double>\n\nRound-trip time (median over " << m.rounds
        << " rounds) and bandwidth (bytes moved each way per second); raw MPI moves the same "
           "bytes between preallocated buffers. The receiver keeps its vector between "
           "messages. A ratio is the median of the rounds' ratios, with their quartiles; "
           "\"best\" compares each side's fastest round; \"~\" marks quartiles more than 10 % "
           "apart. \"Same memory\" is raw MPI moving the bytes of bale's own vector: the speed "
           "of a copy between processes depends on the pages it reads and writes, and two "
           "buffers of the same size can differ by a fifth.\n\n| size | raw MPI | bale | "
           "Boost.MPI | bale GB/s | bale / raw bandwidth | best | bale / raw, same memory | "
           "Boost / raw |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const std::size_t bytes : m.array_bytes) {
      std::vector<double> a(bytes / 8, 1.5);
      std::vector<double> b = a;
      std::vector<std::byte> raw(bytes);
      const auto t = interleaved(
          m.rounds, m.round_seconds,
          {[&] { ping_pong_raw(raw); }, [&] { ping_pong_bale(a); }, [&] { ping_pong_boost(b); },
           [&] { ping_pong_raw(a.data(), static_cast<int>(bytes), MPI_BYTE); }});
      if (a.size() != bytes / 8 || b.size() != bytes / 8) std::abort();
      out << "| " << human(bytes) << " | " << fixed(t.median(0) * 1e6, 1) << " µs | "
          << fixed(t.median(1) * 1e6, 1) << " µs | " << fixed(t.median(2) * 1e6, 1) << " µs | "
          << fixed(2.0 * bytes / t.median(1) / 1e9, 2) << " | " << ratio_cell(t.ratio(0, 1))
          << " | " << fixed(t.fastest(0) / t.fastest(1), 2) << " | " << ratio_cell(t.ratio(3, 1))
          << " | " << ratio_cell(t.ratio(0, 2)) << " |\n";
    }
  }

  // Past INT_MAX bytes (BALE_BENCH_MPI_LARGE=1: about 10 GB of memory): raw MPI sends the bytes
  // as 1 MiB blocks of a contiguous datatype; Boost.MPI's int counts cannot.
  void large_arrays(const mode& m) {
    const std::size_t bytes = std::size_t{5} << 29;  // 2.5 GiB
    std::vector<double> a(bytes / 8, 1.5);
    std::vector<std::byte> raw(bytes);
    MPI_Datatype mebibyte;
    MPI_Type_contiguous(1 << 20, MPI_BYTE, &mebibyte);
    MPI_Type_commit(&mebibyte);
    const int blocks = static_cast<int>(bytes >> 20);
    const auto raw_ping_pong = [&] { ping_pong_raw(raw.data(), blocks, mebibyte); };
    mode once = m;
    once.rounds = 3;
    const auto t =
        interleaved(once.rounds, once.round_seconds, {raw_ping_pong, [&] { ping_pong_bale(a); }});
    MPI_Type_free(&mebibyte);
    out << "| 2.5 GiB | " << fixed(t.median(0) * 1e6, 1) << " µs | " << fixed(t.median(1) * 1e6, 1)
        << " µs | (int counts) | " << fixed(2.0 * bytes / t.median(1) / 1e9, 2) << " | "
        << ratio_cell(t.ratio(0, 1)) << " | " << fixed(t.fastest(0) / t.fastest(1), 2) << " | |\n";
  }

  void structured(const mode& m) {
    out << "\n### Ping-pong of std::vector<record> (an id, a string of 16-22 characters, "
           "four doubles)\n\nRaw MPI moves as many bytes as bale's encoding, with nothing to "
           "encode or decode.\n\n| records | bytes (bale) | raw MPI | bale | Boost.MPI | "
           "Boost / bale time |\n|---|---:|---:|---:|---:|---:|\n";
    for (const std::size_t count : m.record_counts) {
      const std::vector<record> original = records(count);
      std::vector<record> a = original;
      std::vector<record> b = original;
      std::vector<std::byte> raw(bale::serialized_size(original));
      const auto t = interleaved(
          m.rounds, m.round_seconds,
          {[&] { ping_pong_raw(raw); }, [&] { ping_pong_bale(a); }, [&] { ping_pong_boost(b); }});
      if (a != original || b != original) std::abort();
      out << "| " << count << " | " << raw.size() << " | " << fixed(t.median(0) * 1e6, 1)
          << " µs | " << fixed(t.median(1) * 1e6, 1) << " µs | " << fixed(t.median(2) * 1e6, 1)
          << " µs | " << ratio_cell(t.ratio(2, 1)) << " |\n";
    }
  }

  // A block of a 4096 x 4096 matrix of doubles, and every other column of one, from the matrix
  // into the same place of the peer's matrix: bale (a multi_array view), raw MPI with the same
  // datatype (MPI_Type_create_subarray, one message), and packing first (rows copied into a
  // buffer, sent, copied out).
  void strided(const mode& m) {
    out << "\n### Ping-pong of a block of a 4096 x 4096 matrix of doubles\n\nEach rank "
           "sends the block from its matrix and receives it into the same block of its own. Raw "
           "MPI sends it with the same datatype (`MPI_Type_create_subarray`) in one message; "
           "\"packed\" copies the rows into a buffer, sends it and copies them out. \"Every "
           "other column\" takes n x n elements from n x 2n, so every element is a run of its "
           "own (bale gathers such an array up to 1 MiB).\n\n| block | bytes | raw MPI | bale | "
           "packed | bale / raw bandwidth | best | "
           "bale / packed |\n|---|---:|---:|---:|---:|---:|---:|---:|\n";
    using matrix = boost::multi_array<double, 2>;
    using range = boost::multi_array_types::index_range;
    constexpr long side = 4096;
    matrix whole(boost::extents[side][side]);
    std::fill_n(whole.data(), whole.num_elements(), 0.5 + rank);
    for (const bool every_other : {false, true}) {
      for (const long n : m.block_sides) {
        const long step = every_other ? 2 : 1;
        if (64 + step * n > side) continue;
        auto block = whole[boost::indices[range(64, 64 + n)][range(64, 64 + step * n, step)]];
        MPI_Datatype subarray = subarray_type(side, n, step);
        const std::size_t bytes = static_cast<std::size_t>(n * n) * sizeof(double);
        std::vector<double> packed(static_cast<std::size_t>(n * n));
        const auto t =
            interleaved(m.rounds, m.round_seconds,
                        {[&] { ping_pong_raw(whole.data(), 1, subarray); },
                         [&] { ping_pong_bale(block); }, [&] { ping_pong_packed(block, packed); }});
        MPI_Type_free(&subarray);
        out << "| " << (every_other ? "every other column, " : "") << n << " x " << n << " | "
            << human(bytes) << " | " << fixed(t.median(0) * 1e6, 1) << " µs | "
            << fixed(t.median(1) * 1e6, 1) << " µs | " << fixed(t.median(2) * 1e6, 1) << " µs | "
            << ratio_cell(t.ratio(0, 1)) << " | " << fixed(t.fastest(0) / t.fastest(1), 2) << " | "
            << ratio_cell(t.ratio(2, 1)) << " |\n";
      }
    }
  }
  // The block at (64, 64) of n rows and n columns, `step` apart, as MPI describes it: every
  // other column is a subarray of pairs, of which the first double is taken.
  static MPI_Datatype subarray_type(long side, long n, long step) {
    MPI_Datatype element = MPI_DOUBLE;
    if (step != 1) {
      MPI_Datatype pair;
      MPI_Type_create_resized(MPI_DOUBLE, 0, static_cast<MPI_Aint>(step * sizeof(double)), &pair);
      element = pair;
    }
    const std::array<int, 2> sizes = {static_cast<int>(side), static_cast<int>(side / step)};
    const std::array<int, 2> subsizes = {static_cast<int>(n), static_cast<int>(n)};
    const std::array<int, 2> starts = {64, static_cast<int>(64 / step)};
    MPI_Datatype type;
    MPI_Type_create_subarray(2, sizes.data(), subsizes.data(), starts.data(), MPI_ORDER_C, element,
                             &type);
    MPI_Type_commit(&type);
    if (step != 1) MPI_Type_free(&element);
    return type;
  }
  // Packing by hand: a row at a time, one memcpy each where the row is contiguous.
  template <class Block>
  void ping_pong_packed(Block& block, std::vector<double>& packed) {
    const std::size_t rows = block.shape()[0], cols = block.shape()[1];
    const std::ptrdiff_t row_step = block.strides()[0], step = block.strides()[1];
    double* const first = &block[0][0];
    const auto each_row = [&](auto&& move_row) {
      for (std::size_t i = 0; i < rows; ++i)
        move_row(first + static_cast<std::ptrdiff_t>(i) * row_step, packed.data() + i * cols);
    };
    const auto pack = [&] {
      each_row([&](const double* from, double* to) {
        if (step == 1) return static_cast<void>(std::memcpy(to, from, cols * sizeof(double)));
        for (std::size_t j = 0; j < cols; ++j) to[j] = from[static_cast<std::ptrdiff_t>(j) * step];
      });
    };
    const auto unpack = [&] {
      each_row([&](double* to, const double* from) {
        if (step == 1) return static_cast<void>(std::memcpy(to, from, cols * sizeof(double)));
        for (std::size_t j = 0; j < cols; ++j) to[static_cast<std::ptrdiff_t>(j) * step] = from[j];
      });
    };
    const int count = static_cast<int>(packed.size() * sizeof(double));
    ping_pong(
        [&] {
          pack();
          MPI_Send(packed.data(), count, MPI_BYTE, peer, 4, MPI_COMM_WORLD);
        },
        [&] {
          MPI_Recv(packed.data(), count, MPI_BYTE, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          unpack();
        });
  }

  void broadcasts(const mode& m) {
    out << "\n### Broadcast of std::vector<double> from rank 0\n\n| size | raw MPI_Bcast | "
           "bale | Boost.MPI | bale / raw bandwidth | best | bale / raw, same memory | "
           "Boost / raw |\n|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const std::size_t bytes : m.array_bytes) {
      std::vector<double> a(bytes / 8, 2.5);
      std::vector<double> b = a;
      std::vector<std::byte> raw(bytes);
      const auto t = interleaved(
          m.rounds, m.round_seconds,
          {[&] { MPI_Bcast(raw.data(), static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD); },
           [&] { comm.broadcast(a, 0); }, [&] { boost::mpi::broadcast(world, b, 0); },
           [&] { MPI_Bcast(a.data(), static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD); }});
      if (a.size() != bytes / 8 || b.size() != bytes / 8) std::abort();
      out << "| " << human(bytes) << " | " << fixed(t.median(0) * 1e6, 1) << " µs | "
          << fixed(t.median(1) * 1e6, 1) << " µs | " << fixed(t.median(2) * 1e6, 1) << " µs | "
          << ratio_cell(t.ratio(0, 1)) << " | " << fixed(t.fastest(0) / t.fastest(1), 2) << " | "
          << ratio_cell(t.ratio(3, 1)) << " | " << ratio_cell(t.ratio(0, 2)) << " |\n";
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  boost::mpi::environment environment(argc, argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    std::fprintf(stderr, "run with two ranks: mpiexec -n 2 %s report.md\n", argv[0]);
    return 2;
  }
  const mode m = bench_mode();
  bench b;
  b.out << "## MPI: two ranks on one machine (Open MPI " << OMPI_MAJOR_VERSION << '.'
        << OMPI_MINOR_VERSION << ", shared memory)\n\n";
  b.arrays(m);
  if (std::getenv("BALE_BENCH_MPI_LARGE") != nullptr) b.large_arrays(m);
  b.structured(m);
  b.strided(m);
  b.broadcasts(m);
  if (b.rank == 0) {
    std::printf("%s", b.out.str().c_str());
    if (argc > 1) std::ofstream(argv[1]) << b.out.str();
  }
  return 0;
}
