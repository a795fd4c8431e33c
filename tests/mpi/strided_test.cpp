// SPDX-License-Identifier: BSL-1.0
// Strided arrays (a view, a block, a slice) between ranks: sent from their own memory and received
// into it through derived datatypes, chunk by chunk, with the bytes of the gathered array on the
// wire.
#include <gtest/gtest.h>

#include <bale/arrays/multi_array.hpp>
#include <cstdint>
#include <numeric>
#include <vector>

#include "bale/mpi.hpp"
#include "hardening/counting_allocator.hpp"
#include "mpi/measured_exchange.hpp"
#include "mpi/values.hpp"

namespace {

namespace detail = bale::mpi::detail;
using bale::mpi::communicator;
using cube = boost::multi_array<double, 3>;
using range = boost::multi_array_types::index_range;
using mpi_test::ring;

// Every range of whole elements of a strided array, as one datatype, moves the elements of a
// gather in that order: sent to this rank itself and received as bytes.
TEST(MpiStrided, EveryRangeOfEveryShapeIsTheGatheredElements) {
  std::vector<std::int32_t> memory(4 * 5 * 6 * 3);
  std::iota(memory.begin(), memory.end(), 0);
  struct shape {
    std::ptrdiff_t start;
    std::vector<detail::travel_index> indices;  // strides in elements here
  };
  const std::vector<shape> shapes = {
      {0, {{3, 30}, {4, 6}, {5, 1}}},         // rows of a block
      {1, {{4, 90}, {5, 18}, {2, 3}}},        // every third element
      {200, {{4, -30}, {3, 1}}},              // reversed rows
      {0, {{1, 7}, {6, 1}, {1, 2}, {5, 6}}},  // indices of extent 1, joined neighbours
      {359, {{6, -1}}},                       // reversed, one index
      {0, {{2, 180}, {3, 1}, {4, 30}}},       // column order of a block
      {0, {{5, 1}}},                          // contiguous
      {0, {{0, 6}, {5, 1}}},                  // empty
  };
  for (const shape& s : shapes) {
    std::vector<detail::travel_index> bytes = s.indices;
    std::vector<std::int32_t> gathered;
    std::vector<std::size_t> index(bytes.size());
    std::size_t count = 1;
    for (auto& i : bytes) {
      count *= i.extent;
      i.stride *= static_cast<std::ptrdiff_t>(sizeof(std::int32_t));
    }
    for (std::size_t n = 0; n < count; ++n) {  // a row-major walk, the last index fastest
      std::ptrdiff_t at = s.start;
      for (std::size_t k = 0; k < index.size(); ++k)
        at += static_cast<std::ptrdiff_t>(index[k]) * s.indices[k].stride;
      gathered.push_back(memory[static_cast<std::size_t>(at)]);
      for (std::size_t k = index.size(); k-- > 0;) {
        if (++index[k] < s.indices[k].extent) break;
        index[k] = 0;
      }
    }
    const auto elements = detail::element_memory::strided(memory.data() + s.start, 4, bytes);
    ASSERT_EQ(elements.size(), count * 4);
    for (std::size_t first = 0; first < count; ++first) {
      for (std::size_t n = 1; first + n <= count; ++n) {
        const detail::memory_piece piece = detail::piece_of(elements, first * 4, n * 4);
        std::vector<std::int32_t> got(n, -1);
        MPI_Sendrecv(piece.buffer, piece.count, piece.type, 0, 0, got.data(),
                     static_cast<int>(n * 4), MPI_BYTE, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        const std::vector<std::int32_t> wanted(
            gathered.begin() + static_cast<std::ptrdiff_t>(first),
            gathered.begin() + static_cast<std::ptrdiff_t>(first + n));
        ASSERT_EQ(got, wanted) << "shape " << (&s - shapes.data()) << " from " << first << " n "
                               << n;
      }
    }
  }
}

cube make_cube(std::size_t n0, std::size_t n1, std::size_t n2, int seed,
               const boost::general_storage_order<3>& order = boost::c_storage_order()) {
  cube c(boost::extents[n0][n1][n2], order);
  std::iota(c.data(), c.data() + c.num_elements(), static_cast<double>(seed) * 1e6);
  return c;
}
boost::general_storage_order<3> order_of(bool fortran) {
  return fortran ? boost::general_storage_order<3>(boost::fortran_storage_order())
                 : boost::general_storage_order<3>(boost::c_storage_order());
}

// A view of every other plane and column of a cube goes from the cube's memory into a view of
// another cube, in place, whatever the storage order of either side: 2 MiB of elements in one
// chunk and in chunks that end within rows; 4 KiB (gathered, as its runs are single elements) in
// chunks of one element.
TEST(MpiStrided, AViewIsSentFromAndReceivedIntoItsCubeInChunks) {
  const ring r(communicator(MPI_COMM_WORLD));
  struct run {
    std::size_t chunk;
    std::size_t n0, n1, n2;
  };
  for (const run& run :
       {run{std::size_t{1} << 30, 64, 128, 256}, run{100'003, 64, 128, 256}, run{8, 8, 16, 32}}) {
    bale::mpi::options settings;
    settings.chunk_bytes = run.chunk;
    communicator comm(MPI_COMM_WORLD, settings);
    const auto n0 = static_cast<long>(run.n0), n1 = static_cast<long>(run.n1),
               n2 = static_cast<long>(run.n2);
    const auto sent_part =
        boost::indices[range(0, n0, 2)][range(n1 / 16, n1 / 16 + n1 / 2)][range(1, n2, 2)];
    const auto received_part = boost::indices[range(1, n0, 2)][range(0, n1 / 2)][range(0, n2 / 2)];
    const auto untouched_part = boost::indices[range(0, n0, 2)][range()][range()];
    for (const bool fortran_sent : {false, true}) {
      for (const bool fortran_received : {false, true}) {
        const cube mine = make_cube(run.n0, run.n1, run.n2, comm.rank(), order_of(fortran_sent));
        const auto sent = mine[sent_part];
        cube theirs = make_cube(run.n0, run.n1, run.n2, -1, order_of(fortran_received));
        auto into = theirs[received_part];
        const mpi_test::exchange_heap used = mpi_test::measured_exchange(comm, 7, sent, into);
        const std::string where = std::to_string(run.chunk) + (fortran_sent ? " F" : " C") +
                                  (fortran_received ? " F" : " C");
        if (run.chunk > 8) {  // pieces of one element need a request each
          EXPECT_LT(used.sending.peak_bytes, 64u << 10) << where;
          EXPECT_LT(used.receiving.peak_bytes, 64u << 10) << where;
        }
        const cube left = make_cube(run.n0, run.n1, run.n2, r.left, order_of(fortran_sent));
        EXPECT_TRUE(into == left[sent_part]) << where;
        const cube before = make_cube(run.n0, run.n1, run.n2, -1, order_of(fortran_received));
        EXPECT_TRUE(theirs[untouched_part] == before[untouched_part]) << where;
      }
    }
  }
}

// The bytes a strided view sends are those of the gathered array: a cube of either order takes
// them, and so does a decoder (a receiver whose pieces are not whole elements).
TEST(MpiStrided, AViewArrivesAsTheArrayItShows) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  const cube mine = make_cube(32, 32, 32, comm.rank());
  const auto sent = mine[boost::indices[range(3, 29)][range(0, 32, 3)][range(31, -1, -1)]];
  const cube left = make_cube(32, 32, 32, r.left);
  const auto wanted = left[boost::indices[range(3, 29)][range(0, 32, 3)][range(31, -1, -1)]];
  // Under 4 KiB a view is gathered as it is encoded; the receiver cannot tell.
  const auto small = boost::indices[range(0, 4)][range(0, 4)][range(0, 4, 2)];
  EXPECT_TRUE(comm.sendrecv<cube>(r.right, 8, mine[small], r.left, 8) == left[small]);
  for (const bool fortran : {false, true}) {
    const cube got = comm.sendrecv<cube>(r.right, 8, sent, r.left, 8);
    cube other(boost::extents[26][11][32], order_of(fortran));
    comm.sendrecv(r.right, 9, sent, r.left, 9, other);
    EXPECT_TRUE(got == wanted);
    EXPECT_TRUE(other == wanted) << fortran;
  }
  // A contiguous sender in chunks of 4,100 bytes: a strided receiver decodes the payload.
  bale::mpi::options odd;
  odd.chunk_bytes = 4'100;
  communicator odd_comm(MPI_COMM_WORLD, odd);
  cube target = make_cube(32, 32, 32, -1);
  auto into = target[boost::indices[range(0, 32, 2)][range()][range()]];
  const cube whole = make_cube(16, 32, 32, comm.rank());
  odd_comm.sendrecv(r.right, 10, whole, r.left, 10, into);
  EXPECT_TRUE(into == make_cube(16, 32, 32, r.left));
}

// Runs of one element move faster gathered up to 1 MiB; longer runs go from memory from 4 KiB.
TEST(MpiStrided, AViewOfShortRunsIsGatheredUpTo1MiB) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  const cube mine = make_cube(32, 32, 32, comm.rank());
  const cube left = make_cube(32, 32, 32, r.left);
  const auto single_elements = boost::indices[range()][range()][range(0, 32, 2)];  // 128 KiB
  const auto whole_rows = boost::indices[range(0, 32, 2)][range()][range()];       // 128 KiB
  cube target = make_cube(32, 32, 32, -1);
  auto into = target[single_elements];
  const mpi_test::exchange_heap gathered =
      mpi_test::measured_exchange(comm, 12, mine[single_elements], into);
  EXPECT_GE(gathered.sending.peak_bytes, 128u << 10);
  EXPECT_TRUE(into == left[single_elements]);
  auto rows_into = target[whole_rows];
  const mpi_test::exchange_heap from_memory =
      mpi_test::measured_exchange(comm, 13, mine[whole_rows], rows_into);
  EXPECT_LT(from_memory.sending.peak_bytes, 64u << 10);
  EXPECT_LT(from_memory.receiving.peak_bytes, 64u << 10);
  EXPECT_TRUE(rows_into == left[whole_rows]);
}

// A broadcast moves a strided view from the root's memory into a view on every rank.
TEST(MpiStrided, ABroadcastMovesAViewFromAndIntoMemory) {
  communicator comm(MPI_COMM_WORLD);
  const cube source = make_cube(64, 64, 256, 3);
  cube value = comm.rank() == 0 ? source : make_cube(64, 64, 256, -1);
  auto view = value[boost::indices[range(0, 64, 2)][range()][range(0, 256, 2)]];
  const hardening::heap_use use = hardening::measure_heap([&] { comm.broadcast(view, 0); });
  EXPECT_LT(use.peak_bytes, 64u << 10);
  EXPECT_TRUE(view == (source[boost::indices[range(0, 64, 2)][range()][range(0, 256, 2)]]));
  EXPECT_TRUE(
      (value[boost::indices[range(1, 64, 2)][range()][range()]]) ==
      (make_cube(64, 64, 256,
                 comm.rank() == 0 ? 3 : -1)[boost::indices[range(1, 64, 2)][range()][range()]]));
}

// A peer whose chunk has another size than its header announced: the strided receiver gets an
// error, and the next message from that peer and tag arrives intact.
TEST(MpiStrided, AChunkOfTheWrongSizeIntoAViewIsAnError) {
  bale::mpi::options settings;
  settings.chunk_bytes = 4096;
  communicator comm(MPI_COMM_WORLD, settings);
  if (comm.size() < 2 || comm.rank() > 1) return;
  const auto part = boost::indices[range(0, 8, 2)][range()][range(0, 32, 2)];  // 4 x 16 x 16
  const int tag = 11;
  if (comm.rank() == 0) {
    std::vector<std::byte> head(32 + 1 + 3 * 8 + 8);
    const std::size_t elements = 4 * 16 * 16;
    detail::write_header(
        head.data(), {bale::binary::id, detail::flag_fingerprint,
                      detail::message_fingerprint<cube>(), head.size() - 32 + elements * 8, 4096});
    std::size_t at = 33;
    for (const std::uint64_t extent : {4, 16, 16}) {
      bale::detail::put_u64(head.data() + at, extent);
      at += 8;
    }
    bale::detail::put_u64(head.data() + at, elements);
    MPI_Send(head.data(), static_cast<int>(head.size()), MPI_BYTE, 1, tag, comm.native());
    // Two chunks as announced, the first short.
    const std::vector<std::byte> chunk(4096);
    MPI_Send(chunk.data(), 4000, MPI_BYTE, 1, tag, comm.native_chunks());
    MPI_Send(chunk.data(), 4096, MPI_BYTE, 1, tag, comm.native_chunks());
    const cube good = make_cube(8, 16, 32, 4);
    comm.send(1, tag, good[part]);
  } else {
    cube target = make_cube(8, 16, 32, -1);
    auto into = target[part];
    try {
      comm.recv(0, tag, into);
      ADD_FAILURE() << "a short chunk was taken";
    } catch (const bale::mpi::error& e) {
      EXPECT_EQ(e.code(), bale::errc::end_of_input) << e.what();
    }
    comm.recv(0, tag, into);
    EXPECT_TRUE(into == make_cube(8, 16, 32, 4)[part]);
  }
}

}  // namespace
