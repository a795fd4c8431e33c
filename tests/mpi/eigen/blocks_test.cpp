// SPDX-License-Identifier: BSL-1.0
// Eigen blocks between ranks: a block of a column-major matrix travels column by column from the
// matrix's memory into a block of the peer's matrix, of either storage order.
#include <gtest/gtest.h>

#include <bale/arrays/eigen.hpp>

#include "bale/mpi.hpp"
#include "mpi/measured_exchange.hpp"

namespace {

using bale::mpi::communicator;
using row_major = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::MatrixXd counting(Eigen::Index side, int seed) {
  Eigen::MatrixXd m(side, side);
  for (Eigen::Index j = 0; j < side; ++j)
    for (Eigen::Index i = 0; i < side; ++i)
      m(i, j) = seed * 1e7 + static_cast<double>(side * i + j);
  return m;
}

TEST(MpiEigen, ABlockGoesFromItsMatrixIntoABlockOfThePeers) {
  communicator comm(MPI_COMM_WORLD);
  const mpi_test::ring r(comm);
  const Eigen::MatrixXd mine = counting(1024, comm.rank());
  const auto sent = mine.block(100, 200, 512, 300);  // 1.2 MB, 300 runs of 4 KiB
  Eigen::MatrixXd theirs = Eigen::MatrixXd::Zero(1024, 1024);
  row_major other = row_major::Zero(600, 600);
  auto into = theirs.block(10, 20, 512, 300);
  auto other_into = other.block(50, 60, 512, 300);
  const mpi_test::exchange_heap used = mpi_test::measured_exchange(comm, 1, sent, into);
  comm.sendrecv(r.right, 2, sent, r.left, 2, other_into);
  EXPECT_LT(used.sending.peak_bytes, 64u << 10);
  EXPECT_LT(used.receiving.peak_bytes, 64u << 10);
  const Eigen::MatrixXd left = counting(1024, r.left);
  EXPECT_TRUE(into == left.block(100, 200, 512, 300));
  EXPECT_TRUE(other_into == left.block(100, 200, 512, 300));
  EXPECT_EQ(theirs.sum(), into.sum());  // nothing else was written
  // A receiver of other extents decodes the message and refuses it; its block is unchanged.
  auto smaller = theirs.block(0, 0, 10, 10);
  auto refused = comm.isend(r.right, 3, sent);
  EXPECT_THROW(comm.recv(r.left, 3, smaller), bale::mpi::error);
  refused.wait();
  EXPECT_EQ(smaller.sum(), 0.0);
}

}  // namespace
