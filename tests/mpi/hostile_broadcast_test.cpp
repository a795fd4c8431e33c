// SPDX-License-Identifier: BSL-1.0
// A hostile broadcast root: every head a receiver refuses leaves every rank in step, because the
// receivers take the rest the head announced before they throw. The root here speaks raw MPI on
// the channel bale's broadcast uses, then broadcasts a value honestly.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "mpi/values.hpp"

namespace {

namespace detail = bale::mpi::detail;
using mpi_test::doubles;

class MpiHostileRoot : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  }
  void TearDown() override { MPI_Comm_free(&comm_); }
  detail::channel on() { return {comm_, comm_, &settings_, &debts_}; }

  // The head an honest root sends for `value`, for the damage to change.
  std::vector<std::byte> honest_head(const std::vector<double>& value) {
    const detail::encoded sent = detail::encode_or_fail<bale::binary>(value, on());
    std::vector<std::byte> head(detail::header_size + detail::broadcast_inline);
    std::memcpy(head.data(), sent.message.head.data(), detail::header_size);
    bale::detail::put_u64(head.data() + 24, detail::broadcast_piece_size(settings_.chunk_bytes));
    bale::detail::put_u64(head.data() + detail::header_size + detail::broadcast_split_at, 8);
    bale::detail::put_u64(head.data() + detail::header_size, value.size());
    return head;
  }

  // Rank 0 sends `head` and then the rest it announces, raw; the others must refuse it with
  // `expected`, and then receive an honest broadcast of the next value.
  void expect_refused_in_step(std::vector<std::byte> head, std::uint64_t rest,
                              bale::errc expected) {
    std::vector<double> received;
    if (rank_ == 0) {
      MPI_Bcast(head.data(), static_cast<int>(head.size()), MPI_BYTE, 0, comm_);
      const std::size_t piece = detail::broadcast_piece_size(settings_.chunk_bytes);
      std::vector<std::byte> junk(piece, std::byte{7});
      for (std::uint64_t left = rest; left > 0;) {
        const std::size_t count = left < piece ? static_cast<std::size_t>(left) : piece;
        MPI_Bcast(junk.data(), static_cast<int>(count), MPI_BYTE, 0, comm_);
        left -= count;
      }
    } else {
      try {
        detail::broadcast<bale::binary>(on(), received, 0, rank_);
        ADD_FAILURE() << "a hostile head was taken";
      } catch (const bale::mpi::error& e) {
        EXPECT_EQ(e.code(), expected) << e.what();
      }
      EXPECT_TRUE(received.empty()) << received.size() << " elements kept";
    }
    std::vector<double> next = rank_ == 0 ? doubles(3000, 4) : std::vector<double>{};
    detail::broadcast<bale::binary>(on(), next, 0, rank_);
    EXPECT_EQ(next, doubles(3000, 4));
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  bale::mpi::options settings_;
  detail::chunk_debts debts_;
};

TEST_F(MpiHostileRoot, ASplitPastTheHeadIsRefusedAndItsRestTaken) {
  const std::vector<double> value = doubles(1000, 1);  // 8,008 payload bytes
  std::vector<std::byte> head = honest_head(value);
  bale::detail::put_u64(head.data() + detail::header_size + detail::broadcast_split_at, 5000);
  expect_refused_in_step(head, 8008 - 5000, bale::errc::invalid_value);
}

TEST_F(MpiHostileRoot, AHeadThatIsNoBaleMessageIsRefusedAndItsRestTaken) {
  std::vector<std::byte> head = honest_head(doubles(1000, 1));
  head[0] = std::byte{'X'};
  expect_refused_in_step(head, 8008 - 8, bale::errc::wrong_type);
}

TEST_F(MpiHostileRoot, AnotherTypeIsRefusedAndItsRestTaken) {
  std::vector<std::byte> head = honest_head(doubles(1000, 1));
  head[5] = std::byte{0x7f};  // the format byte: no format bale knows
  expect_refused_in_step(head, 8008 - 8, bale::errc::wrong_type);
}

// A vector whose payload holds more than its length: refused, and left empty as point to point
// leaves it.
TEST_F(MpiHostileRoot, AVectorWithTrailingBytesIsLeftEmpty) {
  std::vector<std::byte> head = honest_head(doubles(1000, 1));
  bale::detail::put_u64(head.data() + 16, 8016);
  expect_refused_in_step(head, 8016 - 8, bale::errc::trailing_bytes);
}

// A value too large for one receiver's limits, honestly sent: every rank learns before the root
// sends it, so no rank moves it, and each throws, naming the rank that refused.
TEST_F(MpiHostileRoot, ALargeValueOneRankRefusesIsNotSentAtAll) {
  if (rank_ == 1) settings_.limits.max_allocation = std::size_t{1} << 20;
  std::vector<double> value = rank_ == 0 ? doubles(3 << 20, 2) : std::vector<double>{};  // 24 MiB
  try {
    detail::broadcast<bale::binary>(on(), value, 0, rank_);
    ADD_FAILURE() << "rank " << rank_ << " took part in a refused broadcast without an error";
  } catch (const bale::mpi::error& e) {
    if (rank_ == 1) {
      EXPECT_EQ(e.code(), bale::errc::allocation_limit) << e.what();
    } else {
      EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
      EXPECT_NE(std::string(e.what()).find("rank 1 refused the broadcast"), std::string::npos)
          << e.what();
    }
  }
  if (rank_ != 0) {
    EXPECT_TRUE(value.empty()) << value.size();
  }
  settings_.limits = {};
  std::vector<double> next = rank_ == 0 ? doubles(3000, 4) : std::vector<double>{};
  detail::broadcast<bale::binary>(on(), next, 0, rank_);
  EXPECT_EQ(next, doubles(3000, 4));
}

}  // namespace
