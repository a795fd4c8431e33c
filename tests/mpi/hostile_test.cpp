// SPDX-License-Identifier: BSL-1.0
// A peer that breaks the protocol: raw bytes sent on the communicator's duplicate, truncated,
// corrupted, announcing more than the receiver accepts, or another type. The receiver gets an
// error naming the rank and tag, allocates nothing past its limits, and the next message from
// the same peer still arrives intact.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;

// A well-formed message as bytes, for the hostile rank to damage before sending it raw.
template <class T>
std::vector<std::byte> message_bytes(const T& value) {
  const std::vector<std::byte> payload = bale::serialize(value);
  std::vector<std::byte> bytes(32 + payload.size());
  bale::mpi::detail::write_header(
      bytes.data(), {bale::binary::id, bale::mpi::detail::flag_fingerprint,
                     bale::mpi::detail::message_fingerprint<T>(), payload.size(), 1u << 30});
  std::copy(payload.begin(), payload.end(), bytes.begin() + 32);
  return bytes;
}

void send_raw(const communicator& comm, int dest, int tag, const std::vector<std::byte>& bytes) {
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, dest, tag, comm.native());
}

// Rank 1 receives what rank 0 sends; each case checks the error, then that a good message
// from the same rank and tag follows undisturbed.
// The good message that follows is chunked by the small-chunk setting below.
template <class T, class Damage>
void expect_refused(communicator& comm, int tag, Damage damage, bale::errc expected) {
  const std::size_t next = 100000;
  if (comm.rank() == 0) {
    damage(comm, tag);
    comm.send(1, tag, doubles(next, 5));
  } else if (comm.rank() == 1) {
    try {
      (void)comm.recv<T>(0, tag);
      ADD_FAILURE() << "no error for tag " << tag;
    } catch (const bale::mpi::error& e) {
      EXPECT_EQ(e.code(), expected) << e.what();
      EXPECT_EQ(e.peer(), 0) << e.what();
      EXPECT_EQ(e.tag(), tag) << e.what();
      EXPECT_NE(std::string(e.what()).find("rank 0, tag " + std::to_string(tag)), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(comm.recv<std::vector<double>>(0, tag), doubles(next, 5));
  }
  comm.barrier();
}

class MpiHostilePeer : public testing::Test {
 protected:
  void SetUp() override {
    if (comm.size() < 2) GTEST_SKIP() << "needs two ranks";
  }
  static bale::mpi::options settings() {
    bale::mpi::options s;
    s.chunk_bytes = 4096;
    s.limits.max_allocation = 1 << 20;
    return s;
  }
  communicator comm{MPI_COMM_WORLD, settings()};
};

TEST_F(MpiHostilePeer, TruncatedPayload) {
  using pair = std::pair<std::string, std::int64_t>;
  expect_refused<pair>(
      comm, 1,
      [](const communicator& c, int tag) {
        std::vector<std::byte> bytes = message_bytes(pair{"abc", 7});
        bytes.resize(bytes.size() - 3);
        bale::mpi::detail::put_u64(bytes.data() + 16, bytes.size() - 32);
        send_raw(c, 1, tag, bytes);
      },
      bale::errc::end_of_input);
}

// Chunks announced after a payload that fits in one chunk: no sender splits such a message, so
// a blocking receive refuses it at once rather than wait for chunks that never come.
TEST_F(MpiHostilePeer, ChunksAnnouncedForAPayloadThatFitsInOne) {
  using pair = std::pair<std::string, std::int64_t>;
  expect_refused<pair>(
      comm, 9,
      [](const communicator& c, int tag) {
        std::vector<std::byte> bytes = message_bytes(pair{"abc", 7});
        bale::mpi::detail::put_u64(bytes.data() + 16, 74);  // more than the head holds
        send_raw(c, 1, tag, bytes);
      },
      bale::errc::invalid_value);
}

TEST_F(MpiHostilePeer, CorruptedLength) {
  expect_refused<std::vector<std::string>>(
      comm, 2,
      [](const communicator& c, int tag) {
        std::vector<std::byte> bytes = message_bytes(std::vector<std::string>{"abc", "defgh"});
        bytes[32 + 7] = std::byte{0x40};  // the element count's top byte
        send_raw(c, 1, tag, bytes);
      },
      bale::errc::length_too_large);
}

TEST_F(MpiHostilePeer, NotABaleMessage) {
  expect_refused<std::string>(
      comm, 3,
      [](const communicator& c, int tag) {
        send_raw(c, 1, tag, std::vector<std::byte>(100, std::byte{0x5a}));
      },
      bale::errc::wrong_type);
  expect_refused<std::string>(
      comm, 4,
      [](const communicator& c, int tag) { send_raw(c, 1, tag, std::vector<std::byte>(5)); },
      bale::errc::end_of_input);
}

TEST_F(MpiHostilePeer, AnnouncesMoreThanTheLimit) {
  // Refused from the header, before anything is allocated; the chunks that follow are skipped.
  expect_refused<std::vector<double>>(
      comm, 5,
      [](const communicator& c, int tag) {
        std::vector<std::byte> bytes = message_bytes(std::vector<double>{});
        bale::mpi::detail::put_u64(bytes.data() + 16, std::uint64_t{3} << 20);
        bale::mpi::detail::put_u64(bytes.data() + 24, std::uint64_t{1} << 20);
        bytes.resize(32);
        send_raw(c, 1, tag, bytes);
        const std::vector<std::byte> junk(1 << 20, std::byte{0x77});
        for (int chunk = 0; chunk < 3; ++chunk)
          MPI_Send(junk.data(), static_cast<int>(junk.size()), MPI_BYTE, 1, tag, c.native_chunks());
      },
      bale::errc::allocation_limit);
}

TEST_F(MpiHostilePeer, AHonestMessageOverTheLimitIsRefusedAndItsChunksSkipped) {
  expect_refused<std::vector<double>>(
      comm, 6,
      [](communicator& c, int tag) {
        c.send(1, tag, doubles(300000, 1));  // 2.4 MB against a 1 MiB budget, in 4 KiB chunks
      },
      bale::errc::allocation_limit);
  expect_refused<std::vector<std::string>>(
      comm, 7,
      [](communicator& c, int tag) {
        c.send(1, tag, std::vector<std::string>(100, std::string(20000, 'x')));
      },
      bale::errc::allocation_limit);
}

TEST_F(MpiHostilePeer, AnotherTypeIsCaughtByTheFingerprint) {
  expect_refused<std::vector<float>>(
      comm, 8, [](communicator& c, int tag) { c.send(1, tag, doubles(10, 1)); },
      bale::errc::wrong_type);
  expect_refused<std::string>(
      comm, 9,
      [](communicator& c, int tag) {
        c.send(1, tag, doubles(100000, 1));  // zero-copy and chunked: its chunks are skipped too
      },
      bale::errc::wrong_type);
}

TEST_F(MpiHostilePeer, AnotherTypeNamesBothSchemas) {
  const int tag = 11;
  if (comm.rank() == 0) {
    comm.send(1, tag, std::vector<std::int32_t>{1, 2});
  } else if (comm.rank() == 1) {
    try {
      (void)comm.recv<std::vector<std::string>>(0, tag);
      ADD_FAILURE() << "no error";
    } catch (const bale::mpi::error& e) {
      // Every rank of this program knows the sender's type: its schema and the difference.
      const std::string what = e.what();
      EXPECT_NE(what.find("the sender's schema is " +
                          bale::schema_of<std::vector<std::int32_t>>().text()),
                std::string::npos)
          << what;
      EXPECT_NE(what.find(bale::schema_of<std::vector<std::string>>().text()), std::string::npos)
          << what;
      EXPECT_NE(what.find("they differ after '{\"sequence\":\"': 'i32\"}' against 'string\"}'"),
                std::string::npos)
          << what;
    }
  }
  comm.barrier();
}

struct cell_sent {
  double x = 0;
  float weight = 0;
};
struct cell_wanted {
  double x = 0;
  double weight = 0;
};

// A record's difference is named from its member; a fingerprint no type of this program has (a
// peer built from other code) is named as such.
TEST_F(MpiHostilePeer, AnotherTypeNamesTheMemberThatDiffers) {
  const int tag = 12;
  if (comm.rank() == 0) {
    comm.send(1, tag, cell_sent{1, 2});
    std::vector<std::byte> bytes = message_bytes(cell_sent{1, 2});
    bale::mpi::detail::put_u64(bytes.data() + 8, 12345);
    send_raw(comm, 1, tag, bytes);
  } else if (comm.rank() == 1) {
    for (const char* expected :
         {"they differ after '{\"name\":\"weight\",\"type\":\"': 'f32\"}]}' against "
          "'f64\"}]}'",
          "fingerprint 12345 (a type this program does not send)"}) {
      try {
        (void)comm.recv<cell_wanted>(0, tag);
        ADD_FAILURE() << "no error";
      } catch (const bale::mpi::error& e) {
        EXPECT_EQ(e.code(), bale::errc::wrong_type);
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      }
    }
  }
  comm.barrier();
}

// A large array arrives straight in the receiver's vector; a message of that size that is not
// the array announced (its length or type disagree) is an error and leaves the vector empty.
TEST_F(MpiHostilePeer, AWholeArrayWhoseHeaderDisagreesLeavesTheVectorEmpty) {
  const auto array_sized = [](std::size_t length_field) {
    std::vector<std::byte> bytes = message_bytes(doubles(8192, 3));  // 40 + 64 KiB
    bale::mpi::detail::put_u64(bytes.data() + 32, length_field);
    return bytes;
  };
  const int tag = 10;
  if (comm.rank() == 0) {
    send_raw(comm, 1, tag, array_sized(5));
    send_raw(comm, 1, tag, array_sized(8193));
    send_raw(comm, 1, tag, message_bytes(std::string(65536, 'q')));
    send_raw(comm, 1, tag, array_sized(5));
    comm.send(1, tag, doubles(8192, 4));
  } else if (comm.rank() == 1) {
    std::vector<double> into = doubles(10, 1);
    for (const bale::errc expected :
         {bale::errc::invalid_value, bale::errc::invalid_value, bale::errc::wrong_type}) {
      try {
        comm.recv(0, tag, into);
        ADD_FAILURE() << "no error";
      } catch (const bale::mpi::error& e) {
        EXPECT_EQ(e.code(), expected) << e.what();
        EXPECT_EQ(e.peer(), 0) << e.what();
        EXPECT_TRUE(into.empty());
      }
    }
    auto request = comm.irecv<std::vector<double>>(0, tag);
    EXPECT_THROW(request.wait(), bale::mpi::error);
    comm.recv(0, tag, into);
    EXPECT_EQ(into, doubles(8192, 4));
  }
  comm.barrier();
}

TEST(MpiTypeCheck, OffSendsNoFingerprintAndChecksNone) {
  bale::mpi::options unchecked;
  unchecked.check_types = false;
  communicator comm(MPI_COMM_WORLD, unchecked);
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  // Same bytes, other type: without the check the receiver reads them as asked.
  auto sent = comm.isend(right, 1, std::vector<std::int64_t>{1, 2});
  EXPECT_EQ(comm.recv<std::vector<std::uint64_t>>(left, 1), (std::vector<std::uint64_t>{1, 2}));
  sent.wait();
}

}  // namespace
