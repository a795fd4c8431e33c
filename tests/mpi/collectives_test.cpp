// SPDX-License-Identifier: BSL-1.0
// Collectives over every type family, every root, in small chunks too, and a rank that cannot
// encode its value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;

bale::mpi::options small_chunks() {
  bale::mpi::options settings;
  settings.chunk_bytes = 1000;
  settings.zero_copy_bytes = 64;
  return settings;
}

class MpiCollectives : public testing::TestWithParam<bool> {
 protected:
  communicator comm{MPI_COMM_WORLD, GetParam() ? small_chunks() : bale::mpi::options{}};
};

TEST_P(MpiCollectives, BroadcastFromEveryRoot) {
  for (int root = 0; root < comm.size(); ++root) {
    // 16 MiB at the default chunk size; in 1000-byte chunks, 160 KB (160 broadcasts) is enough.
    // 127 and 128 elements are the last payload inside the head and the first one past it.
    const std::size_t largest = GetParam() ? 20000 : std::size_t{2} << 20;
    for (const std::size_t count :
         {std::size_t{0}, std::size_t{1}, std::size_t{10}, std::size_t{127}, std::size_t{128},
          std::size_t{8192}, largest}) {
      std::vector<double> values = comm.rank() == root ? doubles(count, root) : doubles(3, -1);
      comm.broadcast(values, root);
      EXPECT_EQ(values, doubles(count, root));
    }
    std::vector<cell> structured = comm.rank() == root ? cells(40, root) : std::vector<cell>{};
    comm.broadcast(structured, root);
    EXPECT_EQ(structured, cells(40, root));
    for (const std::size_t length : {std::size_t{1016}, std::size_t{1017}}) {
      std::string text = comm.rank() == root ? std::string(length, 't') : "";
      comm.broadcast(text, root);
      EXPECT_EQ(text, std::string(length, 't'));
    }
    std::string empty = comm.rank() == root ? "" : "not yet";
    comm.broadcast(empty, root);
    EXPECT_EQ(empty, "");
  }
}

TEST_P(MpiCollectives, GatherAndAllGather) {
  const int root = comm.size() - 1;
  const std::vector<cell> gathered = comm.gather(make_cell(comm.rank()), root);
  if (comm.rank() == root) {
    ASSERT_EQ(gathered.size(), static_cast<std::size_t>(comm.size()));
    for (int r = 0; r < comm.size(); ++r)
      EXPECT_EQ(gathered[static_cast<std::size_t>(r)], make_cell(r));
  } else {
    EXPECT_TRUE(gathered.empty());
  }
  const auto everyone = comm.all_gather(doubles(5000, comm.rank()));
  ASSERT_EQ(everyone.size(), static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    EXPECT_EQ(everyone[static_cast<std::size_t>(r)], doubles(5000, r));
}

TEST_P(MpiCollectives, ScatterAndAllToAll) {
  std::vector<std::string> parts;
  for (int r = 0; r < comm.size(); ++r)
    parts.push_back(std::string(static_cast<std::size_t>(r) * 900, 'a' + char(r)));
  const std::string mine = comm.scatter(comm.rank() == 0 ? parts : std::vector<std::string>{}, 0);
  EXPECT_EQ(mine, parts[static_cast<std::size_t>(comm.rank())]);

  std::vector<std::vector<cell>> outgoing;
  for (int r = 0; r < comm.size(); ++r)
    outgoing.push_back(cells(static_cast<std::size_t>(r + 1), comm.rank() * 100 + r));
  const auto incoming = comm.all_to_all(outgoing);
  ASSERT_EQ(incoming.size(), static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    EXPECT_EQ(incoming[static_cast<std::size_t>(r)],
              cells(static_cast<std::size_t>(comm.rank() + 1), r * 100 + comm.rank()));
}

TEST_P(MpiCollectives, ReduceKeepsRankOrderForAnOperationThatIsNotCommutative) {
  const auto concatenate = [](std::string a, const std::string& b) { return a + b; };
  std::string expected;
  for (int r = 0; r < comm.size(); ++r) expected += std::to_string(r) + ",";
  for (int root = 0; root < comm.size(); ++root) {
    const std::string result = comm.reduce(std::to_string(comm.rank()) + ",", concatenate, root);
    if (comm.rank() == root) {
      EXPECT_EQ(result, expected);
    }
  }
  EXPECT_EQ(comm.all_reduce(std::to_string(comm.rank()) + ",", concatenate), expected);
  const auto sum = comm.all_reduce(doubles(1000, comm.rank()),
                                   [](std::vector<double> a, const std::vector<double>& b) {
                                     for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
                                     return a;
                                   });
  double expected_first = 0;
  for (int r = 0; r < comm.size(); ++r) expected_first += r;
  EXPECT_EQ(sum.at(0), expected_first);
}

TEST_P(MpiCollectives, ScatterWithTheWrongNumberOfValuesFailsOnEveryRank) {
  bool failed = false;
  try {
    (void)comm.scatter(std::vector<int>(static_cast<std::size_t>(comm.size()) + 1, 7), 0);
  } catch (const bale::error& e) {
    failed = true;
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
  }
  EXPECT_EQ(failed, comm.rank() == 0 || comm.size() > 1);
  comm.barrier();
}

TEST_P(MpiCollectives, AnOperationThatThrowsFailsTheReduceWithoutAHang) {
  bool failed = false;
  try {
    (void)comm.all_reduce(comm.rank(), [](int, int) -> int { throw std::runtime_error("no"); });
  } catch (const std::exception&) {
    failed = true;
  }
  EXPECT_EQ(failed, comm.size() > 1);
  comm.barrier();
}

// An operation that throws on one rank only: every rank of reduce and all_reduce fails, the
// thrower with its own exception, the others naming it and what failed there; a value that
// cannot be encoded likewise. Every rank that can combine is tried as the thrower.
struct refuses_to_save {
  int v = 0;
  bool poisoned = false;  // refuses to be saved, and so does every sum it takes part in
  template <class Archive>
  void save(Archive& ar) const {
    if (poisoned) throw std::runtime_error("cannot save");
    ar(v);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(v);
  }
};

template <class Reduce>
void expect_every_rank_fails(communicator& comm, int thrower, const std::string& what,
                             Reduce reduce) {
  try {
    reduce();
    ADD_FAILURE() << "rank " << comm.rank() << " returned without an error";
  } catch (const bale::mpi::error& e) {
    EXPECT_NE(comm.rank(), thrower) << e.what();
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    EXPECT_EQ(e.failed_rank(), thrower) << e.what();
    EXPECT_EQ(e.peer(), thrower) << e.what();
    EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(thrower) + " failed"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(comm.rank(), thrower) << e.what();
  }
}

TEST_P(MpiCollectives, AFailureOnOneRankFailsEveryRankOfAReduceNamingIt) {
  if (comm.size() < 2) GTEST_SKIP() << "needs two ranks";
  for (int thrower = 0; thrower < comm.size(); ++thrower) {
    SCOPED_TRACE(thrower);
    const int r = comm.rank();
    // A rank combines when it receives its right neighbour's part: every even rank below the last.
    const auto throws_here = [&](int a, int b) {
      if (r == thrower) throw std::runtime_error("no");
      return a + b;
    };
    const bool combines = thrower % 2 == 0 && thrower + 1 < comm.size();
    if (combines) {
      for (int root = 0; root < comm.size(); ++root)
        expect_every_rank_fails(comm, thrower, "the operation threw",
                                [&] { (void)comm.reduce(r, throws_here, root); });
      expect_every_rank_fails(comm, thrower, "the operation threw",
                              [&] { (void)comm.all_reduce(r, throws_here); });
    }
    const auto add = [](refuses_to_save a, const refuses_to_save& b) {
      a.v += b.v;
      a.poisoned = a.poisoned || b.poisoned;
      return a;
    };
    const refuses_to_save mine{r, r == thrower};
    if (thrower != 0) {  // rank 0 keeps its value: it never encodes it on the way to root 0
      expect_every_rank_fails(comm, thrower, "its value could not be encoded",
                              [&] { (void)comm.reduce(mine, add, 0); });
      expect_every_rank_fails(comm, thrower, "its value could not be encoded",
                              [&] { (void)comm.all_reduce(mine, add); });
    }
  }
  comm.barrier();
}

INSTANTIATE_TEST_SUITE_P(Chunks, MpiCollectives, testing::Values(false, true),
                         [](const auto& info) { return info.param ? "small" : "default"; });

}  // namespace
