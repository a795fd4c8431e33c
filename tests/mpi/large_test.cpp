// SPDX-License-Identifier: BSL-1.0
// Messages over INT_MAX bytes, point to point and broadcast, at the default chunk size. Run only
// with BALE_MPI_LARGE=1 (ctest -L mpi_large, configured with -DBALE_MPI_LARGE_TESTS=ON).
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "bale/mpi.hpp"

namespace {

constexpr std::size_t large = (std::size_t{5} << 29) + 3;  // 2.5 GiB and 3 bytes

TEST(MpiLarge, PointToPointAndBroadcastPastTwoGibibytes) {
  if (std::getenv("BALE_MPI_LARGE") == nullptr) GTEST_SKIP() << "set BALE_MPI_LARGE=1";
  bale::mpi::options roomy;
  roomy.limits.max_allocation = std::size_t{4} << 30;
  bale::mpi::communicator comm(MPI_COMM_WORLD, roomy);
  if (comm.size() < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<char> bytes;
  if (comm.rank() == 0) {
    bytes.assign(large, 'a');
    bytes.back() = 'z';
    comm.send(1, 1, bytes);
    comm.send(1, 2, std::string(large, 's'));  // serialized, then chunked
  } else if (comm.rank() == 1) {
    comm.recv(0, 1, bytes);
    ASSERT_EQ(bytes.size(), large);
    EXPECT_EQ(bytes.front(), 'a');
    EXPECT_EQ(bytes.back(), 'z');
    const std::string text = comm.recv<std::string>(0, 2);
    EXPECT_EQ(text.size(), large);
    EXPECT_EQ(text.back(), 's');
    bytes.assign(large, 'b');
  }
  if (comm.rank() > 1) bytes.clear();
  comm.broadcast(bytes, 1);
  ASSERT_EQ(bytes.size(), large);
  EXPECT_EQ(bytes[large / 2], 'b');
}

}  // namespace
