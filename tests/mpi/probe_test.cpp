// SPDX-License-Identifier: BSL-1.0
// Matched probes (size and type known before the receive), and cancelled receive requests.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bale/mpi.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;

template <class T>
void probe_then_receive(communicator& comm, const T& sent, const T& expected_from_left) {
  const ring r(comm);
  bale::mpi::send_request sending = comm.isend(r.right, 11, sent);
  bale::mpi::probed_message message = comm.mprobe(r.left, 11);
  EXPECT_EQ(message.from().source, r.left);
  EXPECT_EQ(message.from().tag, 11);
  EXPECT_EQ(message.payload_bytes(), bale::serialize<bale::binary>(expected_from_left).size());
  EXPECT_TRUE(message.holds<T>());
  EXPECT_FALSE(message.holds<std::vector<cell>>());
  T received{};
  message.recv(received);
  sending.wait();
  EXPECT_EQ(received, expected_from_left);
  EXPECT_THROW(message.recv(received), bale::mpi::error);  // a message is received once
}

TEST(MpiProbe, MprobeSaysTheSizeAndTypeOfEveryKindOfValue) {
  communicator comm(MPI_COMM_WORLD);
  const int left = ring(comm).left;
  probe_then_receive(comm, 42 + comm.rank(), 42 + left);
  probe_then_receive(comm, make_cell(comm.rank()), make_cell(left));
  for (const std::size_t count : {std::size_t{0}, std::size_t{300}, std::size_t{200000},
                                  std::size_t{2} << 20})  // copied, whole, array memory
    probe_then_receive(comm, doubles(count, comm.rank()), doubles(count, left));
  const auto graph = [](int seed) {
    auto shared = std::make_shared<point>(point{1.0 * seed, 2.0});
    return std::vector<std::shared_ptr<point>>{shared, shared, nullptr};
  };
  const ring r(comm);
  bale::mpi::send_request sending = comm.isend(r.right, 12, graph(comm.rank()));
  auto message = comm.mprobe(bale::mpi::any_source, 12);
  EXPECT_TRUE(message.holds<std::vector<std::shared_ptr<point>>>());
  const auto received = message.recv<std::vector<std::shared_ptr<point>>>();
  sending.wait();
  ASSERT_EQ(received.size(), 3u);
  EXPECT_EQ(received[0], received[1]);  // identity kept
  EXPECT_EQ(*received[0], *graph(r.left)[0]);
}

// The use Boost.MPI users know: one receiver, messages of two types from any rank, the type
// chosen from the probed message.
TEST(MpiProbe, TheReceiverChoosesTheTypeFromTheProbedMessage) {
  communicator comm(MPI_COMM_WORLD);
  const int r = comm.rank();
  bale::mpi::send_request sending =
      r % 2 == 0 ? comm.isend(0, 13, std::string(static_cast<std::size_t>(r) + 1, 'e'))
                 : comm.isend(0, 13, doubles(static_cast<std::size_t>(r) * 1000, r));
  if (r == 0) {
    for (int k = 0; k < comm.size(); ++k) {
      auto message = comm.mprobe(bale::mpi::any_source, 13);
      const int from = message.from().source;
      if (message.holds<std::string>()) {
        EXPECT_EQ(from % 2, 0);
        EXPECT_EQ(message.recv<std::string>(),
                  std::string(static_cast<std::size_t>(from) + 1, 'e'));
      } else {
        ASSERT_TRUE(message.holds<std::vector<double>>());
        EXPECT_EQ(message.payload_bytes(), 8u + 8u * 1000u * static_cast<std::size_t>(from));
        EXPECT_EQ(message.recv<std::vector<double>>(),
                  doubles(static_cast<std::size_t>(from) * 1000, from));
      }
    }
  }
  sending.wait();
  comm.barrier();
}

TEST(MpiProbe, AProbedMessageNotReceivedIsSkipped) {
  bale::mpi::options small_chunks;
  small_chunks.chunk_bytes = 1000;  // the first message comes in 80 chunks
  communicator comm(MPI_COMM_WORLD, small_chunks);
  const ring r(comm);
  bale::mpi::send_request first = comm.isend(r.right, 14, std::string(80000, 'a'));
  bale::mpi::send_request second = comm.isend(r.right, 14, std::string(3000, 'b'));
  {
    auto dropped = comm.mprobe(r.left, 14);
    EXPECT_EQ(dropped.payload_bytes(), 8u + 80000u);
  }
  EXPECT_EQ(comm.recv<std::string>(r.left, 14), std::string(3000, 'b'));
  bale::mpi::wait_all(first, second);
}

TEST(MpiProbe, ImprobeAndATimedMprobeGiveNoneWhenNothingCame) {
  communicator comm(MPI_COMM_WORLD);
  EXPECT_FALSE(comm.improbe(bale::mpi::any_source, 15).has_value());
  EXPECT_FALSE(comm.mprobe(bale::mpi::any_source, 15, std::chrono::milliseconds(20)).has_value());
  comm.barrier();  // no rank sends before every rank has looked
  const ring r(comm);
  comm.send(r.right, 15, 7);
  std::optional<bale::mpi::probed_message<bale::binary>> found;
  while (!(found = comm.improbe(r.left, 15))) std::this_thread::yield();
  EXPECT_EQ(found->recv<int>(), 7);
  comm.barrier();
}

TEST(MpiProbe, AMessageOfAnotherTypeIsRefusedWhenReceived) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  comm.send(r.right, 16, std::string("not a number"));
  auto message = comm.mprobe(r.left, 16);
  EXPECT_FALSE(message.holds<double>());
  try {
    (void)message.recv<double>();
    FAIL() << "a string was received as a double";
  } catch (const bale::mpi::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_EQ(e.peer(), r.left);
  }
  comm.barrier();
}

// A cancelled request throws from wait(). Whether MPI matched the message before the cancel or
// not, the next receive gets a whole message: the cancelled one, or the one after it when the
// cancelled one had begun to arrive (its chunks are skipped).
TEST(MpiProbe, ACancelledReceiveLeavesTheNextMessageWhole) {
  bale::mpi::options small_chunks;
  small_chunks.chunk_bytes = 1000;
  communicator comm(MPI_COMM_WORLD, small_chunks);
  const ring r(comm);
  auto never = comm.irecv<std::string>(r.left, 17);
  never.cancel();
  EXPECT_THROW(never.wait(), bale::mpi::error);

  auto posted = comm.irecv<std::string>(r.left, 18, std::size_t{1} << 20);
  bale::mpi::send_request first = comm.isend(r.right, 18, std::string(50000, 'a'));
  bale::mpi::send_request second = comm.isend(r.right, 18, std::string(3000, 'b'));
  comm.barrier();
  posted.cancel();
  EXPECT_THROW(posted.wait(), bale::mpi::error);
  const std::string next = comm.recv<std::string>(r.left, 18);
  if (next.size() == 50000) {
    EXPECT_EQ(next, std::string(50000, 'a'));
    EXPECT_EQ(comm.recv<std::string>(r.left, 18), std::string(3000, 'b'));
  } else {
    EXPECT_EQ(next, std::string(3000, 'b'));
  }
  bale::mpi::wait_all(first, second);
  comm.barrier();
}

}  // namespace
