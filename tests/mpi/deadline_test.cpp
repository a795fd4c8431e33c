// SPDX-License-Identifier: BSL-1.0
// A peer that announces what it never sends: a refused message never waits for its chunks,
// test() never blocks, a receive with a deadline fails naming the peer, the tag and what did not
// arrive, and the communicator goes on working, late chunks skipped.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "hardening/counting_allocator.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;
using namespace std::chrono_literals;

constexpr std::size_t chunk = 4096;

class MpiDeadline : public testing::Test {
 protected:
  void SetUp() override {
    if (comm.size() < 2) GTEST_SKIP() << "needs two ranks";
  }
  void TearDown() override { comm.barrier(); }
  static bale::mpi::options settings() {
    bale::mpi::options s;
    s.chunk_bytes = chunk;
    s.limits.max_allocation = 1 << 20;
    s.refused_chunks_wait = 100ms;
    return s;
  }
  // A head announcing `payload` bytes in chunks, sent raw by rank 0 (no chunk follows).
  void send_head(int tag, std::uint64_t payload) {
    std::vector<std::byte> head(32);
    bale::mpi::detail::write_header(
        head.data(),
        {bale::binary::id, bale::mpi::detail::flag_fingerprint,
         bale::mpi::detail::message_fingerprint<std::vector<double>>(), payload, chunk});
    MPI_Send(head.data(), 32, MPI_BYTE, 1, tag, comm.native());
  }
  void send_chunk(int tag, std::size_t bytes) {
    const std::vector<std::byte> junk(bytes, std::byte{0x3c});
    MPI_Send(junk.data(), static_cast<int>(bytes), MPI_BYTE, 1, tag, comm.native_chunks());
  }
  // Both ranks past this point (the hostile rank sends what follows only then).
  static void sync() { MPI_Barrier(MPI_COMM_WORLD); }

  communicator comm{MPI_COMM_WORLD, settings()};
};

void expect_error(const bale::mpi::error& e, bale::errc code, int tag, const std::string& part) {
  EXPECT_EQ(e.code(), code) << e.what();
  EXPECT_EQ(e.peer(), 0);
  EXPECT_EQ(e.tag(), tag);
  const std::string what = e.what();
  EXPECT_NE(what.find("rank 0, tag " + std::to_string(tag)), std::string::npos) << what;
  EXPECT_NE(what.find(part), std::string::npos) << what;
}

TEST_F(MpiDeadline, AHundredGigabytesRefusedWithoutWaitingForTheirChunks) {
  const int tag = 40;
  if (comm.rank() == 0) {
    send_head(tag, std::uint64_t{100} << 30);  // recv
    send_head(tag, std::uint64_t{100} << 30);  // irecv, test()
    comm.send(1, tag, std::string("still here"));
    comm.send(1, tag + 1, doubles(10000, 7));  // chunked, on another tag
  } else if (comm.rank() == 1) {
    try {
      (void)comm.recv<std::vector<double>>(0, tag);
      ADD_FAILURE() << "no error";
    } catch (const bale::mpi::error& e) {
      expect_error(e, bale::errc::allocation_limit, tag, "107374182400");
    }
    auto request = comm.irecv<std::vector<double>>(0, tag);
    bool refused = false;
    for (int poll = 0; poll < 100000 && !refused; ++poll) {
      try {
        EXPECT_FALSE(request.test());  // returns at once until the head is there, then throws
      } catch (const bale::mpi::error& e) {
        expect_error(e, bale::errc::allocation_limit, tag, "over the receiver's limit");
        refused = true;
      }
    }
    EXPECT_TRUE(refused);
    EXPECT_EQ(comm.recv<std::string>(0, tag), "still here");
    EXPECT_EQ(comm.recv<std::vector<double>>(0, tag + 1), doubles(10000, 7));
  }
}

TEST_F(MpiDeadline, NoMessageBeforeTheDeadline) {
  const int tag = 41;
  if (comm.rank() == 1) {
    try {
      std::vector<double> into;
      comm.recv(0, tag, into, 20ms);
      ADD_FAILURE() << "no error";
    } catch (const bale::mpi::error& e) {
      expect_error(e, bale::errc::timed_out, tag, "no message arrived");
    }
  }
  sync();
  if (comm.rank() == 0) comm.send(1, tag, doubles(5, 1));
  if (comm.rank() == 1) {
    EXPECT_EQ(comm.recv<std::vector<double>>(0, tag, 60s), doubles(5, 1));
  }
}

TEST_F(MpiDeadline, AHeadWithoutItsChunksTimesOutAndTheLateChunksAreSkipped) {
  const int tag = 42;
  const std::size_t payload = 8 + 1500 * sizeof(double);  // three chunks: 4096, 4096, 3816
  if (comm.rank() == 0) {
    send_head(tag, payload);
    send_chunk(tag, chunk);
  } else if (comm.rank() == 1) {
    try {
      std::vector<double> into;
      comm.recv(0, tag, into, 200ms);
      ADD_FAILURE() << "no error";
    } catch (const bale::mpi::error& e) {
      expect_error(e, bale::errc::timed_out, tag, "12008 bytes, 4096 arrived");
    }
  }
  sync();
  if (comm.rank() == 0) {
    send_chunk(tag, chunk);
    send_chunk(tag, payload - 2 * chunk);
    comm.send(1, tag, doubles(3000, 2));  // chunked too: its chunks follow the late ones
  } else if (comm.rank() == 1) {
    EXPECT_EQ(comm.recv<std::vector<double>>(0, tag, 60s), doubles(3000, 2));
  }
}

TEST_F(MpiDeadline, ChunksThatNeverComeHoldOnlyThatRankAndTag) {
  const int tag = 43;
  if (comm.rank() == 0) {
    send_head(tag, 8 + 1500 * sizeof(double));
    comm.send(1, tag + 1, doubles(3000, 3));
    comm.send(1, tag, std::string("small, no chunks"));
  } else if (comm.rank() == 1) {
    std::vector<double> into;
    EXPECT_THROW(comm.recv(0, tag, into, 50ms), bale::mpi::error);
    EXPECT_EQ(comm.recv<std::vector<double>>(0, tag + 1), doubles(3000, 3));
    EXPECT_EQ(comm.recv<std::string>(0, tag), "small, no chunks");
  }
}

// A chunk larger than announced never lands past the end of its buffer: it is refused, and the
// receiver's memory is untouched (the sanitizer build checks).
TEST_F(MpiDeadline, AChunkLargerThanAnnouncedIsRefused) {
  const int tag = 45;
  const std::size_t payload = 8 + 1500 * sizeof(double);  // chunks of 4096, 4096, 3816
  if (comm.rank() == 0) {
    send_head(tag, payload);
    send_chunk(tag, 200000);  // large enough for Open MPI's single-copy path
    comm.send(1, tag + 1, std::string("after"));
  } else if (comm.rank() == 1) {
    try {
      std::vector<double> into;
      comm.recv(0, tag, into, 10s);
      ADD_FAILURE() << "no error";
    } catch (const bale::mpi::error& e) {
      EXPECT_EQ(e.peer(), 0) << e.what();
      EXPECT_NE(std::string(e.what()).find("200000 bytes"), std::string::npos) << e.what();
    }
    EXPECT_EQ(comm.recv<std::string>(0, tag + 1), "after");
  }
}

TEST_F(MpiDeadline, WaitForLeavesTheRequestPending) {
  const int tag = 44;
  if (comm.rank() == 1) {
    auto request = comm.irecv<std::vector<double>>(0, tag);
    EXPECT_FALSE(request.wait_for(10ms));
    EXPECT_FALSE(request.test());
    sync();
    EXPECT_EQ(request.wait(), doubles(3000, 4));
  } else {
    sync();
    if (comm.rank() == 0) comm.send(1, tag, doubles(3000, 4));
  }
}

// A large array given as an lvalue is sent from its own memory, by isend and sendrecv alike.
TEST(MpiNoCopy, IsendAndSendrecvOfAnLvalueArraySendFromItsMemory) {
  communicator comm(MPI_COMM_WORLD);
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  const std::vector<double> mine = doubles(1 << 20, comm.rank());  // 8 MiB
  std::vector<double> theirs(mine.size());
  bale::mpi::send_request sent;
  const hardening::heap_use isend_use =
      hardening::measure_heap([&] { sent = comm.isend(right, 50, mine); });
  comm.recv(left, 50, theirs);
  sent.wait();
  EXPECT_LT(isend_use.peak_bytes, 64u << 10);
  EXPECT_EQ(theirs, doubles(1 << 20, left));
  const hardening::heap_use sendrecv_use =
      hardening::measure_heap([&] { comm.sendrecv(right, 51, mine, left, 51, theirs); });
  EXPECT_LT(sendrecv_use.peak_bytes, 64u << 10);
  EXPECT_EQ(theirs, doubles(1 << 20, left));
}

// The format, not bale::mpi, says whether an array's bytes are its memory: a format of the user's
// own that says so is sent without a copy, one that does not is encoded first.
struct memory_arrays : bale::binary {
  static constexpr std::string_view name = "memory_arrays";
  static constexpr std::uint8_t id = 70;
};
struct encoded_arrays {
  static constexpr std::string_view name = "encoded_arrays";
  static constexpr std::uint8_t id = 71;
  template <class Sink>
  using writer = bale::binary::writer<Sink>;
  using reader = bale::binary::reader;
};

template <class Format>
std::size_t isend_peak(bale::mpi::basic_communicator<Format>& comm, int tag) {
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  const std::vector<double> mine = doubles(1 << 20, comm.rank());  // 8 MiB
  std::vector<double> theirs;
  bale::mpi::send_request sent;
  const hardening::heap_use use =
      hardening::measure_heap([&] { sent = comm.isend(right, tag, mine); });
  comm.recv(left, tag, theirs);
  sent.wait();
  EXPECT_EQ(theirs, doubles(1 << 20, left));
  return use.peak_bytes;
}

TEST(MpiNoCopy, TheFormatSaysWhetherAnArrayIsItsMemory) {
  static_assert(bale::array_is_memory<memory_arrays, double>);
  static_assert(!bale::array_is_memory<encoded_arrays, double>);
  static_assert(!bale::array_is_memory<bale::compact, double>);
  bale::mpi::basic_communicator<memory_arrays> direct(MPI_COMM_WORLD);
  EXPECT_LT(isend_peak(direct, 52), 64u << 10);
  bale::mpi::basic_communicator<encoded_arrays> encoded(MPI_COMM_WORLD);
  EXPECT_GT(isend_peak(encoded, 53), 8u << 20);
}

}  // namespace
