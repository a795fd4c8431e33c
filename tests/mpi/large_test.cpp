// SPDX-License-Identifier: BSL-1.0
// Messages over INT_MAX bytes, point to point and broadcast, at the default chunk size, and a
// collective file with more than INT_MAX bytes from one rank. Run only
// with BALE_MPI_LARGE=1 (ctest -L mpi_large, configured with -DBALE_MPI_LARGE_TESTS=ON).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "bale/mpi/file.hpp"

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

// Rank 0 writes three records of 0.9 GiB (three 1 GiB pieces of MPI_File_write_at_all), rank 1
// two small ones; both read back what they wrote, then rank 1 reads rank 0's last record.
TEST(MpiLarge, ACollectiveFileWithMoreThanTwoGibibytesFromOneRank) {
  if (std::getenv("BALE_MPI_LARGE") == nullptr) GTEST_SKIP() << "set BALE_MPI_LARGE=1";
  bale::mpi::communicator comm(MPI_COMM_WORLD);
  if (comm.size() != 2) GTEST_SKIP() << "needs two ranks";
  long id = comm.rank() == 0 ? static_cast<long>(::getpid()) : 0;
  comm.broadcast(id, 0);
  const auto path =
      std::filesystem::temp_directory_path() / ("bale_mpi_large_" + std::to_string(id) + ".bales");
  constexpr std::size_t big = std::size_t{900} << 20;
  std::vector<std::string> records;
  if (comm.rank() == 0) {
    for (char c : {'x', 'y', 'z'}) records.emplace_back(big, c);
    records[2].back() = '!';
  } else {
    records = {"small", "tail"};
  }
  bale::mpi::collective_file_options roomy;
  roomy.limits.max_allocation = std::size_t{4} << 30;
  bale::mpi::save_file(comm, path, records, roomy);
  if (comm.rank() == 0) {
    EXPECT_GT(std::filesystem::file_size(path), std::size_t{5} << 29);
  }
  const auto back =
      bale::mpi::load_file<std::string>(comm, path, bale::mpi::record_split::as_written(), roomy);
  EXPECT_EQ(back, records);
  records.clear();
  const auto last = bale::mpi::load_file<std::string>(
      comm, path, bale::mpi::record_split::range(comm.rank() == 1 ? 2 : 0, comm.rank()), roomy);
  if (comm.rank() == 1) {
    ASSERT_EQ(last.size(), 1u);
    EXPECT_EQ(last[0].size(), big);
    EXPECT_EQ(last[0].back(), '!');
  }
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove(path);
}

}  // namespace
