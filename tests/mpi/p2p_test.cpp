// SPDX-License-Identifier: BSL-1.0
// Point to point: every type family at sizes around the thresholds, wildcards, nonblocking
// requests completed out of order, and messages cut into small chunks.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;

// Element counts of double arrays: empty, one, around the default zero-copy threshold (2 KiB),
// around 64 KiB, around the largest array sent as one message (1 MiB with its length), 16 MiB.
const std::vector<std::size_t> array_counts = {0,    1,    255,           256,     257,     8191,
                                               8192, 8193, (1 << 17) - 1, 1 << 17, 2u << 20};

template <class T, class Make>
void round_trip_around_ring(communicator& comm, Make make) {
  const ring r(comm);
  T received = comm.sendrecv<T>(r.right, 7, make(comm.rank()), r.left, 7);
  EXPECT_EQ(received, make(r.left));
}

TEST(MpiPointToPoint, ArraysOfEverySizeAroundTheRing) {
  communicator comm(MPI_COMM_WORLD);
  for (const std::size_t count : array_counts)
    round_trip_around_ring<std::vector<double>>(comm,
                                                [&](int seed) { return doubles(count, seed); });
}

TEST(MpiPointToPoint, EveryTypeFamilyAroundTheRing) {
  communicator comm(MPI_COMM_WORLD);
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{65535},
                                  std::size_t{65536}, std::size_t{65537}, std::size_t{16} << 20})
    round_trip_around_ring<std::string>(
        comm, [&](int seed) { return std::string(bytes, char('a' + seed)); });
  round_trip_around_ring<std::vector<cell>>(comm, [](int seed) { return cells(50, seed); });
  round_trip_around_ring<cell>(comm, [](int seed) { return make_cell(seed); });
  round_trip_around_ring<std::map<int, std::string>>(comm, [](int seed) {
    return std::map<int, std::string>{{seed, "one"}, {seed + 1, std::string(70000, 'z')}};
  });
}

TEST(MpiPointToPoint, RecvReusesTheObject) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  std::vector<double> into;
  for (const std::size_t count : {std::size_t{100000}, std::size_t{10}, std::size_t{100000}}) {
    bale::mpi::send_request sent = comm.isend(r.right, 3, doubles(count, comm.rank()));
    const bale::mpi::status from = comm.recv(r.left, 3, into);
    sent.wait();
    EXPECT_EQ(from.source, r.left);
    EXPECT_EQ(into, doubles(count, r.left));
  }
}

TEST(MpiPointToPoint, AnySourceWithEveryRankSendingAtOnce) {
  communicator comm(MPI_COMM_WORLD);
  if (comm.rank() != 0) {
    comm.send(0, 10 + comm.rank(), cells(20, comm.rank()));
    return;
  }
  std::vector<bool> seen(static_cast<std::size_t>(comm.size()), false);
  for (int i = 1; i < comm.size(); ++i) {
    std::vector<cell> got;
    const bale::mpi::status from = comm.recv(bale::mpi::any_source, bale::mpi::any_tag, got);
    EXPECT_EQ(from.tag, 10 + from.source);
    EXPECT_EQ(got, cells(20, from.source));
    seen[static_cast<std::size_t>(from.source)] = true;
  }
  for (int i = 1; i < comm.size(); ++i) EXPECT_TRUE(seen[static_cast<std::size_t>(i)]);
}

TEST(MpiPointToPoint, ProbeSaysWhereTheNextMessageComesFrom) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  bale::mpi::send_request sent = comm.isend(r.right, 21, std::string("probe me"));
  const bale::mpi::status next = comm.probe(bale::mpi::any_source, bale::mpi::any_tag);
  EXPECT_EQ(next.source, r.left);
  EXPECT_EQ(next.tag, 21);
  EXPECT_EQ(comm.recv<std::string>(next.source, next.tag), "probe me");
  sent.wait();
  EXPECT_FALSE(comm.iprobe(bale::mpi::any_source, 21).has_value());
}

TEST(MpiPointToPoint, NonblockingRequestsCompleteOutOfOrder) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  auto small = comm.irecv<std::vector<double>>(r.left, 1, 1 << 20);  // posted MPI_Irecv
  auto large = comm.irecv<std::vector<double>>(r.left, 2);           // matched on test/wait
  auto text = comm.irecv<std::vector<cell>>(r.left, 3);
  const std::vector<cell> sent_cells = cells(30, comm.rank());
  auto s3 = comm.isend(r.right, 3, sent_cells);  // an lvalue: copied into the request
  auto s2 = comm.isend(r.right, 2, doubles(3 << 20, comm.rank()));
  auto s1 = comm.isend(r.right, 1, doubles(100, comm.rank()));
  EXPECT_EQ(text.wait(), cells(30, r.left));
  EXPECT_EQ(large.wait(), doubles(3 << 20, r.left));
  while (!small.test()) {
  }
  EXPECT_EQ(small.wait(), doubles(100, r.left));
  EXPECT_EQ(small.source().source, r.left);
  bale::mpi::wait_all(s1, s2, s3);
}

// irecv, isend and sendrecv of every kind of T: a struct, a scalar, a container, a pointer graph.
template <class T, class Make, class Same>
void nonblocking_round_trip(communicator& comm, int tag, Make make, Same same) {
  const ring r(comm);
  auto in = comm.irecv<T>(r.left, tag);
  const T mine = make(comm.rank());
  auto out = comm.isend(r.right, tag, mine);
  EXPECT_TRUE(same(in.wait(), make(r.left)));
  out.wait();
  EXPECT_TRUE(same(comm.sendrecv<T>(r.right, tag + 1, mine, r.left, tag + 1), make(r.left)));
}

TEST(MpiPointToPoint, NonblockingCallsTakeEveryKindOfType) {
  communicator comm(MPI_COMM_WORLD);
  const auto equal = [](const auto& a, const auto& b) { return a == b; };
  nonblocking_round_trip<cell>(comm, 30, make_cell, equal);
  nonblocking_round_trip<double>(
      comm, 32, [](int seed) { return seed * 0.25; }, equal);
  nonblocking_round_trip<std::int32_t>(
      comm, 34, [](int seed) { return -seed; }, equal);
  nonblocking_round_trip<std::vector<cell>>(
      comm, 36, [](int seed) { return cells(3, seed); }, equal);
  using graph = std::vector<std::shared_ptr<point>>;
  const auto make_graph = [](int seed) {
    auto shared = std::make_shared<point>(point{seed * 1.0, 2.0});
    return graph{shared, nullptr, shared};
  };
  nonblocking_round_trip<graph>(comm, 38, make_graph, [](const graph& a, const graph& b) {
    return a.size() == 3 && a[0] == a[2] && !a[1] && *a[0] == *b[0];
  });
}

TEST(MpiPointToPoint, IrecvWithAMaximumRefusesALargerMessage) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  auto bounded = comm.irecv<std::vector<double>>(r.left, 4, 1000);
  comm.isend(r.right, 4, doubles(1000, 0)).wait();
  try {
    bounded.wait();
    ADD_FAILURE() << "no error";
  } catch (const bale::mpi::error& e) {
    EXPECT_EQ(e.peer(), r.left) << e.what();
  }
}

TEST(MpiPointToPoint, SmallChunksCarryEverySizeAcrossTheirBoundaries) {
  bale::mpi::options small_chunks;
  small_chunks.chunk_bytes = 1000;
  small_chunks.zero_copy_bytes = 64;
  communicator comm(MPI_COMM_WORLD, small_chunks);
  for (const std::size_t bytes : {992, 999, 1000, 1001, 1992, 2000, 2008, 100000}) {
    round_trip_around_ring<std::vector<double>>(comm,
                                                [&](int seed) { return doubles(bytes / 8, seed); });
    round_trip_around_ring<std::string>(
        comm, [&](int seed) { return std::string(bytes, char('a' + seed)); });
  }
  round_trip_around_ring<std::vector<cell>>(comm, [](int seed) { return cells(200, seed); });
}

// A large array is one MPI message: its header, then its elements from the sender's memory.
TEST(MpiPointToPoint, AnArrayBelowTheChunkSizeIsOneMessage) {
  communicator comm(MPI_COMM_WORLD);
  if (comm.size() < 2) GTEST_SKIP() << "needs two ranks";
  const std::vector<double> sent = doubles(8192, 2);
  if (comm.rank() == 0) comm.send(1, 6, sent);
  if (comm.rank() == 1) {
    MPI_Message message;
    MPI_Status status;
    ASSERT_EQ(MPI_Mprobe(0, 6, comm.native(), &message, &status), MPI_SUCCESS);
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    ASSERT_EQ(count, 40 + 65536);
    std::vector<std::byte> bytes(static_cast<std::size_t>(count));
    MPI_Mrecv(bytes.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
    EXPECT_EQ(bale::mpi::detail::read_header(bytes).payload_size, 8u + 65536u);
    EXPECT_EQ(bale::deserialize<std::vector<double>>(std::span(bytes).subspan(32)), sent);
    int more = 0;
    MPI_Iprobe(0, MPI_ANY_TAG, comm.native_chunks(), &more, MPI_STATUS_IGNORE);
    EXPECT_EQ(more, 0);
  }
  comm.barrier();
}

TEST(MpiPointToPoint, ASpanIsSentFromItsMemoryAndReceivedAsAVector) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  const std::vector<double> mine = doubles(50000, comm.rank());
  auto sent = comm.isend(r.right, 5, std::span<const double>(mine));
  EXPECT_EQ(comm.recv<std::vector<double>>(r.left, 5), doubles(50000, r.left));
  sent.wait();
}

}  // namespace
