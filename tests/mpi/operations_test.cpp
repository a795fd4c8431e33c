// SPDX-License-Identifier: BSL-1.0
// MPI's own reductions on arithmetic values and arrays, the same operations on any other type,
// request pools, and communicators split from a communicator.
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;

struct money {
  std::int64_t cents = 0;
  std::string currency = "EUR";
  money operator+(const money& other) const { return {cents + other.cents, currency}; }
  bool operator==(const money&) const = default;
};

TEST(MpiOperations, ArithmeticValuesAndArraysReduceInPlace) {
  communicator comm(MPI_COMM_WORLD);
  const int n = comm.size();
  const int r = comm.rank();
  EXPECT_EQ(comm.all_reduce(r + 1, bale::mpi::plus{}), n * (n + 1) / 2);
  EXPECT_EQ(comm.all_reduce(static_cast<double>(r), bale::mpi::max{}), n - 1.0);
  EXPECT_EQ(comm.all_reduce(r == 0, bale::mpi::logical_or{}), true);
  EXPECT_EQ(comm.all_reduce(std::uint32_t{1} << r, bale::mpi::bit_or{}),
            (std::uint32_t{1} << n) - 1);
  const double on_root = comm.reduce(2.0, bale::mpi::multiplies{}, n - 1);
  EXPECT_EQ(on_root, r == n - 1 ? static_cast<double>(1 << n) : 0.0);

  const std::vector<double> mine = doubles(100000, r);
  const std::vector<double> sums = comm.all_reduce(mine, bale::mpi::plus{});
  ASSERT_EQ(sums.size(), mine.size());
  for (std::size_t i = 0; i < sums.size(); i += 999)
    EXPECT_DOUBLE_EQ(sums[i], static_cast<double>(i) * 0.5 * n + n * (n - 1) / 2.0);
  const std::array<int, 3> lows = comm.all_reduce(std::array<int, 3>{r, -r, 7}, bale::mpi::min{});
  EXPECT_EQ(lows, (std::array<int, 3>{0, -(n - 1), 7}));
  EXPECT_TRUE(comm.all_reduce(std::vector<float>{}, bale::mpi::plus{}).empty());
}

TEST(MpiOperations, ArraysOfOtherLengthsAreAnErrorOnEveryRank) {
  communicator comm(MPI_COMM_WORLD);
  if (comm.size() < 2) GTEST_SKIP() << "needs two ranks";
  const std::vector<double> mine(comm.rank() == 1 ? 5 : 4, 1.0);
  try {
    (void)comm.all_reduce(mine, bale::mpi::plus{});
    ADD_FAILURE() << "no error";
  } catch (const bale::mpi::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    EXPECT_NE(std::string(e.what()).find("4 to 5 elements"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)comm.reduce(mine, bale::mpi::plus{}, 0), bale::mpi::error);
  comm.barrier();  // still in step
}

TEST(MpiOperations, OtherTypesReduceAsSerializedValues) {
  communicator comm(MPI_COMM_WORLD);
  const money total = comm.all_reduce(money{comm.rank() + 1}, bale::mpi::plus{});
  EXPECT_EQ(total, (money{comm.size() * (comm.size() + 1) / 2, "EUR"}));
  const std::string longest = comm.all_reduce(
      std::string(static_cast<std::size_t>(comm.rank()) + 1, 'a'), bale::mpi::max{});
  EXPECT_EQ(longest, std::string(static_cast<std::size_t>(comm.size()), 'a'));
}

TEST(MpiOperations, ScansInRankOrder) {
  communicator comm(MPI_COMM_WORLD);
  const int r = comm.rank();
  EXPECT_EQ(comm.scan(r + 1, bale::mpi::plus{}), (r + 1) * (r + 2) / 2);
  EXPECT_EQ(comm.exscan(r + 1, bale::mpi::plus{}), r * (r + 1) / 2);
  const std::vector<std::int64_t> counts =
      comm.exscan(std::vector<std::int64_t>{1, r}, bale::mpi::plus{});
  EXPECT_EQ(counts, r == 0 ? std::vector<std::int64_t>{}  // T{} on rank 0
                           : (std::vector<std::int64_t>{r, std::int64_t{r} * (r - 1) / 2}));
  // Not commutative: the ranks' letters in rank order.
  const auto concat = [](const std::string& a, const std::string& b) { return a + b; };
  const std::string mine(1, static_cast<char>('a' + r % 26));
  std::string expected;
  for (int i = 0; i <= r; ++i) expected += static_cast<char>('a' + i % 26);
  EXPECT_EQ(comm.scan(mine, concat), expected);
  expected.pop_back();
  EXPECT_EQ(comm.exscan(mine, concat), expected);
  // An operation that throws on one rank fails that rank and every later one.
  const auto fails_on_one = [&](const std::string& a, const std::string& b) {
    if (r == 1) throw std::runtime_error("no");
    return a + b;
  };
  if (comm.size() > 1) {
    bool threw = false;
    try {
      (void)comm.scan(mine, fails_on_one);
    } catch (const std::exception&) {
      threw = true;
    }
    EXPECT_EQ(threw, r >= 1);
  }
  comm.barrier();
}

TEST(MpiRequests, PoolsAndMixesCompleteInAnyOrder) {
  communicator comm(MPI_COMM_WORLD);
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  std::vector<bale::mpi::recv_request<bale::binary, std::vector<double>>> pool;
  for (int tag = 0; tag < 4; ++tag) pool.push_back(comm.irecv<std::vector<double>>(left, tag));
  std::vector<bale::mpi::send_request> sent;
  for (int tag = 3; tag >= 0; --tag) sent.push_back(comm.isend(right, tag, doubles(1000, tag)));
  std::vector<bool> seen(pool.size(), false);
  for (std::size_t done = 0; done < pool.size();) {
    for (const std::size_t i : bale::mpi::wait_some(pool)) {
      if (seen[i]) continue;
      seen[i] = true;
      ++done;
      EXPECT_EQ(pool[i].wait(), doubles(1000, static_cast<int>(i)));
    }
  }
  EXPECT_TRUE(bale::mpi::test_all(pool));
  bale::mpi::wait_all(sent);

  // A send and a receive together: whichever completes first, then the other.
  auto receiving = comm.irecv<std::string>(left, 9);
  auto sending = comm.isend(right, 9, std::string("mixed"));
  const std::size_t first = bale::mpi::wait_any(receiving, sending);
  EXPECT_LT(first, 2u);
  bale::mpi::wait_all(receiving, sending);
  EXPECT_EQ(receiving.wait(), "mixed");
  EXPECT_TRUE(bale::mpi::test_all(receiving, sending));
  // Both completed before: no request is active, as MPI_Waitany's MPI_UNDEFINED.
  EXPECT_EQ(bale::mpi::test_any(receiving, sending), std::optional(bale::mpi::undefined));
  EXPECT_EQ(bale::mpi::wait_any(receiving, sending), bale::mpi::undefined);
  std::vector<bale::mpi::send_request> none;
  EXPECT_THROW((void)bale::mpi::wait_any(none), std::invalid_argument);
}

// One rank's invalid colour fails every rank alike, and the communicator stays usable.
TEST(MpiCommunicators, AnInvalidColourOnOneRankFailsEveryRank) {
  communicator comm(MPI_COMM_WORLD);
  const int bad = comm.size() - 1;
  try {
    (void)comm.split(comm.rank() == bad ? -5 : 0, comm.rank());
    ADD_FAILURE() << "an invalid colour was taken";
  } catch (const bale::mpi::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(bad)), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(comm.split(0, comm.rank()).has_value());
}

// The loop MPI programs write around MPI_Waitany: each request is handed out once.
TEST(MpiRequests, AWaitAnyLoopHandlesEachRequestOnce) {
  communicator comm(MPI_COMM_WORLD);
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  std::vector<bale::mpi::recv_request<bale::binary, std::vector<double>>> pool;
  for (int tag = 20; tag < 25; ++tag) pool.push_back(comm.irecv<std::vector<double>>(left, tag));
  std::vector<bale::mpi::send_request> sent;
  for (int tag = 20; tag < 25; ++tag) sent.push_back(comm.isend(right, tag, doubles(10, tag)));
  std::vector<int> handled(pool.size(), 0);
  for (std::size_t n = 0; n < pool.size(); ++n) {
    const std::size_t i = bale::mpi::wait_any(pool);
    ASSERT_LT(i, pool.size());
    ++handled[i];
    EXPECT_EQ(pool[i].wait(), doubles(10, 20 + static_cast<int>(i)));  // the value stays
  }
  EXPECT_EQ(handled, std::vector<int>(pool.size(), 1));
  EXPECT_EQ(bale::mpi::wait_any(pool), bale::mpi::undefined);
  EXPECT_TRUE(bale::mpi::wait_some(pool).empty());
  EXPECT_TRUE(bale::mpi::test_some(pool).empty());
  for (std::size_t n = 0; n < sent.size(); ++n) EXPECT_LT(bale::mpi::wait_any(sent), sent.size());
  EXPECT_EQ(bale::mpi::wait_any(sent), bale::mpi::undefined);
}

TEST(MpiCommunicators, SplitAndDupMakeCommunicatorsOfTheirOwn) {
  communicator comm(MPI_COMM_WORLD);
  const int r = comm.rank();
  // Even and odd ranks, each ordered backwards.
  std::optional<communicator> half = comm.split(r % 2, -r);
  ASSERT_TRUE(half.has_value());
  const int members = (comm.size() + (r % 2 == 0 ? 1 : 0)) / 2;
  EXPECT_EQ(half->size(), members);
  const std::vector<int> ranks = half->all_gather(r);
  for (std::size_t i = 1; i < ranks.size(); ++i) EXPECT_GT(ranks[i - 1], ranks[i]);
  EXPECT_EQ(ranks[static_cast<std::size_t>(half->rank())], r);
  // A rank that gives MPI_UNDEFINED is in none.
  EXPECT_EQ(comm.split(r == 0 ? MPI_UNDEFINED : 1, 0).has_value(), r != 0);
  communicator copy = comm.dup();
  EXPECT_EQ(copy.rank(), r);
  EXPECT_EQ(copy.all_reduce(1, bale::mpi::plus{}), comm.size());
}

}  // namespace
