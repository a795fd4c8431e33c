// SPDX-License-Identifier: BSL-1.0
// Cartesian grids (coordinates, shifts, halo exchanges through open edges) and communicators of
// a group of ranks.
#include <gtest/gtest.h>

#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;

TEST(MpiCartesian, EveryRankHasCoordinatesAndNeighbours) {
  communicator comm(MPI_COMM_WORLD);
  std::optional<bale::mpi::cartesian> grid = bale::mpi::cartesian_grid(comm, {0, 0}, {true, false});
  ASSERT_TRUE(grid.has_value());
  const std::vector<int> dims = grid->dimensions();
  ASSERT_EQ(dims.size(), 2u);
  EXPECT_EQ(dims[0] * dims[1], comm.size());
  EXPECT_EQ(grid->rank(), comm.rank());  // not reordered
  for (int r = 0; r < grid->size(); ++r) EXPECT_EQ(grid->rank_at(grid->coordinates(r)), r);

  const std::vector<int> here = grid->coordinates();
  const bale::mpi::neighbours around = grid->shift(0, 1);  // periodic: always a neighbour
  EXPECT_EQ(around.dest, grid->rank_at(std::vector<int>{here[0] + 1, here[1]}));
  EXPECT_EQ(around.source, grid->rank_at(std::vector<int>{here[0] - 1, here[1]}));
  const bale::mpi::neighbours open = grid->shift(1, 1);  // open: none past the edges
  EXPECT_EQ(open.source == MPI_PROC_NULL, here[1] == 0);
  EXPECT_EQ(open.dest == MPI_PROC_NULL, here[1] == dims[1] - 1);
  EXPECT_EQ(grid->rank_at(std::vector<int>{here[0], dims[1]}), MPI_PROC_NULL);
  EXPECT_EQ(grid->rank_at(std::vector<int>{here[0] + dims[0], here[1]}), grid->rank());
}

// A halo exchange along the open dimension: the same code on every rank, the edges included.
TEST(MpiCartesian, HaloExchangesNeedNoCaseAtTheEdges) {
  communicator comm(MPI_COMM_WORLD);
  auto grid = bale::mpi::cartesian_grid(comm, {1, 0}, {false, false});
  ASSERT_TRUE(grid.has_value());
  const bale::mpi::neighbours up = grid->shift(1, 1);
  const int r = grid->rank();

  std::vector<double> halo = {-1.0};
  grid->sendrecv(up.dest, 1, doubles(5000, r), up.source, 1, halo);
  EXPECT_EQ(halo,
            up.source == MPI_PROC_NULL ? std::vector<double>{-1.0} : doubles(5000, up.source));

  cell edge = make_cell(100);
  const bale::mpi::status from = grid->sendrecv(up.dest, 2, make_cell(r), up.source, 2, edge);
  EXPECT_EQ(from.source, up.source);
  EXPECT_EQ(edge, make_cell(up.source == MPI_PROC_NULL ? 100 : up.source));

  auto pending = grid->irecv<std::string>(up.source, 3);
  grid->send(up.dest, 3, std::to_string(r));
  EXPECT_EQ(pending.wait(), up.source == MPI_PROC_NULL ? "" : std::to_string(up.source));
  EXPECT_EQ(grid->recv<int>(MPI_PROC_NULL, 4), 0);
  EXPECT_EQ(grid->all_reduce(1, bale::mpi::plus{}), comm.size());  // a communicator like any
}

TEST(MpiCartesian, AGridSmallerThanTheCommunicatorLeavesRanksOut) {
  communicator comm(MPI_COMM_WORLD);
  const auto line = bale::mpi::cartesian_grid(comm, {1}, {false});
  EXPECT_EQ(line.has_value(), comm.rank() == 0);
}

void expect_grid_refused(const communicator& comm, std::vector<int> dims,
                         std::vector<bool> periodic) {
  try {
    (void)bale::mpi::cartesian_grid(comm, dims, periodic);
    FAIL() << "a grid of " << dims.size() << " dimensions was made";
  } catch (const bale::mpi::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("cartesian_grid"), std::string::npos) << e.what();
  }
}

TEST(MpiCartesian, AnImpossibleGridIsAnErrorOnEveryRank) {
  communicator comm(MPI_COMM_WORLD);
  expect_grid_refused(comm, {}, {});
  expect_grid_refused(comm, {-1}, {false});
  expect_grid_refused(comm, {0, 0}, {true});
  expect_grid_refused(comm, {comm.size() + 1}, {false});
  if (comm.size() % 2 != 0) expect_grid_refused(comm, {2, 0}, {false, false});
  comm.barrier();  // nothing is left half made
}

TEST(MpiGroup, TheListedRanksGetACommunicatorInTheirOrder) {
  communicator comm(MPI_COMM_WORLD);
  std::vector<int> evens;
  for (int r = comm.size() - 1; r >= 0; --r)
    if (r % 2 == 0) evens.push_back(r);
  if (comm.rank() % 2 == 0) {
    communicator part = comm.group(evens);
    EXPECT_EQ(part.size(), static_cast<int>(evens.size()));
    EXPECT_EQ(part.all_gather(comm.rank()), evens);
    EXPECT_EQ(part.all_gather(make_cell(comm.rank())).size(), evens.size());
  }
  comm.barrier();
}

TEST(MpiGroup, AListWithoutTheCallerOrWithABadRankIsRefused) {
  communicator comm(MPI_COMM_WORLD);
  const int r = comm.rank();
  const auto refused = [&](std::vector<int> ranks) {
    try {
      (void)comm.group(ranks);
      ADD_FAILURE() << "a group was made";
    } catch (const bale::mpi::error& e) {
      EXPECT_EQ(e.code(), bale::errc::invalid_value);
    }
  };
  refused({r, comm.size()});
  refused({r, -1});
  refused({r, r});
  if (comm.size() > 1) refused({(r + 1) % comm.size()});
}

}  // namespace
