// SPDX-License-Identifier: BSL-1.0
// Arrays of any rank (bale/arrays/) between ranks: contiguous ones are sent from and received
// into their own memory whatever their layout (strided ones: strided_test.cpp); every size around
// the thresholds; point to point, nonblocking and broadcast (which moves them with no copy too).
#include <gtest/gtest.h>

#include <array>
#include <bale/arrays/multi_array.hpp>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "hardening/counting_allocator.hpp"
#include "mpi/measured_exchange.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using cube = boost::multi_array<double, 3>;
using range = boost::multi_array_types::index_range;
using mpi_test::ring;

cube make_cube(std::size_t n0, std::size_t n1, std::size_t n2, int seed,
               const boost::general_storage_order<3>& order = boost::c_storage_order()) {
  cube c(boost::extents[n0][n1][n2], order);
  std::iota(c.data(), c.data() + c.num_elements(), static_cast<double>(seed) * 1000.0);
  return c;
}

// Element counts around the zero-copy threshold (2 KiB), the one-message limit (1 MiB) and past it.
TEST(MpiArrays, EverySizeAndLayoutAroundTheRing) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  for (const std::size_t planes : {0, 1, 2, 3, 64, 2048}) {
    for (const bool fortran : {false, true}) {
      const boost::general_storage_order<3> order =
          fortran ? boost::general_storage_order<3>(boost::fortran_storage_order())
                  : boost::general_storage_order<3>(boost::c_storage_order());
      const cube mine = make_cube(planes, 8, 16, comm.rank(), order);
      const cube theirs = comm.sendrecv<cube>(r.right, 3, mine, r.left, 3);
      // Equal index by index, whatever the storage order.
      EXPECT_TRUE(theirs == make_cube(planes, 8, 16, r.left, order))
          << planes << (fortran ? " F" : " C");
    }
  }
}

TEST(MpiArrays, AContiguousArrayIsSentFromAndReceivedIntoItsMemory) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  const cube mine = make_cube(64, 64, 256, comm.rank());  // 8 MiB
  cube theirs = make_cube(64, 64, 256, -1);
  const double* const place = theirs.data();
  const mpi_test::exchange_heap used = mpi_test::measured_exchange(comm, 4, mine, theirs);
  EXPECT_LT(used.sending.peak_bytes, 64u << 10);
  EXPECT_LT(used.receiving.peak_bytes, 64u << 10);
  EXPECT_EQ(theirs.data(), place);
  EXPECT_TRUE(theirs == make_cube(64, 64, 256, r.left));
}

TEST(MpiArrays, AStridedViewArrivesAsAnArray) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  const cube whole = make_cube(8, 16, 32, comm.rank());
  const auto every_other = whole[boost::indices[range(0, 8, 2)][range()][range(1, 32, 2)]];
  const cube got = comm.sendrecv<cube>(r.right, 5, every_other, r.left, 5);
  const cube theirs = make_cube(8, 16, 32, r.left);
  EXPECT_TRUE(got == (theirs[boost::indices[range(0, 8, 2)][range()][range(1, 32, 2)]]));
}

// The root's array goes from its memory, and every other rank's array of those extents takes
// its elements in place; an empty one is sized from the head first. Either storage order.
TEST(MpiArrays, ABroadcastArrayMovesFromAndIntoItsMemory) {
  communicator comm(MPI_COMM_WORLD);
  for (const bool fortran : {false, true}) {
    const boost::general_storage_order<3> order =
        fortran ? boost::general_storage_order<3>(boost::fortran_storage_order())
                : boost::general_storage_order<3>(boost::c_storage_order());
    const cube sent = make_cube(64, 64, 256, 11, order);  // 8 MiB
    cube value = comm.rank() == 0 ? sent : make_cube(64, 64, 256, -1, order);
    const double* const place = value.data();
    const hardening::heap_use in_place = hardening::measure_heap([&] { comm.broadcast(value, 0); });
    EXPECT_LT(in_place.peak_bytes, 64u << 10) << fortran;
    EXPECT_EQ(value.data(), place);
    EXPECT_TRUE(value == sent) << fortran;

    cube empty = comm.rank() == 0 ? sent : cube(boost::extents[0][0][0], order);
    const hardening::heap_use sized = hardening::measure_heap([&] { comm.broadcast(empty, 0); });
    EXPECT_LT(sized.peak_bytes, sent.num_elements() * sizeof(double) + (64u << 10)) << fortran;
    EXPECT_TRUE(empty == sent) << fortran;
  }
}

// A receiver of the other storage order takes the elements through a buffer and transposes.
TEST(MpiArrays, ABroadcastArrayOfTheOtherOrderIsTransposed) {
  communicator comm(MPI_COMM_WORLD);
  const cube sent = make_cube(16, 32, 64, 5);
  cube value = comm.rank() == 0
                   ? sent
                   : cube(boost::extents[16][32][64],
                          boost::general_storage_order<3>(boost::fortran_storage_order()));
  comm.broadcast(value, 0);
  EXPECT_TRUE(value == sent);
}

// The head's split of a large payload is the root's word: one past the head is refused.
TEST(MpiArrays, ABroadcastHeadSplitPastItselfIsRefused) {
  namespace detail = bale::mpi::detail;
  std::array<std::byte, detail::header_size + detail::broadcast_inline> head{};
  const bale::mpi::status from{0, 0};
  bale::detail::put_u64(head.data() + 16, 100);
  EXPECT_EQ(detail::split_received(head, from), 100u);  // small: the whole payload
  bale::detail::put_u64(head.data() + 16, 1u << 20);
  for (const std::uint64_t split :
       {std::uint64_t{8}, std::uint64_t{33}, std::uint64_t{detail::broadcast_split_at}}) {
    bale::detail::put_u64(head.data() + detail::header_size + detail::broadcast_split_at, split);
    EXPECT_EQ(detail::split_received(head, from), split);
  }
  // An earlier release's root left the split 0 and held a vector's 8-byte length in the head.
  bale::detail::put_u64(head.data() + detail::header_size + detail::broadcast_split_at, 0);
  EXPECT_EQ(detail::split_received(head, from), 8u);
  for (const std::uint64_t split :
       {std::uint64_t{detail::broadcast_split_at + 1}, ~std::uint64_t{0}}) {
    bale::detail::put_u64(head.data() + detail::header_size + detail::broadcast_split_at, split);
    try {
      (void)detail::split_received(head, from);
      ADD_FAILURE() << split;
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::invalid_value);
      EXPECT_NE(std::string(e.what()).find("past the head"), std::string::npos) << e.what();
    }
  }
}

TEST(MpiArrays, BroadcastAndNonblockingTakeArrays) {
  communicator comm(MPI_COMM_WORLD);
  cube value = comm.rank() == 0 ? make_cube(32, 32, 32, 7) : cube();
  comm.broadcast(value, 0);
  EXPECT_TRUE(value == make_cube(32, 32, 32, 7));
  const ring r(comm);
  auto request = comm.irecv<cube>(r.left, 6);
  auto sent = comm.isend(r.right, 6, make_cube(5, 300, 3, comm.rank()));
  EXPECT_TRUE(request.wait() == make_cube(5, 300, 3, r.left));
  sent.wait();
}

}  // namespace
