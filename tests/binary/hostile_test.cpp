// SPDX-License-Identifier: BSL-1.0
// Damaged and hostile input: truncation at every byte, bit flips, random bytes. Nothing may crash,
// hang, read out of bounds or allocate without bound (the sanitizer build checks the first three).
#include <bale/all.hpp>

#include "support/roundtrip.hpp"

namespace sample {
struct point {
  double x, y;
  std::string label;
  bool visible;
};
struct shape {
  std::uint32_t id;
  std::vector<point> points;
  std::optional<std::string> note;
  std::variant<std::monostate, int, std::vector<std::uint16_t>> extra;
  std::map<std::string, double> attributes;
  std::unique_ptr<shape> child;
};
using message = std::vector<shape>;

message make() {
  message m;
  for (std::uint32_t i = 0; i < 3; ++i) {
    shape s{i,
            {{1, 2, "p", true}, {3, 4, "q", false}},
            std::string("note"),
            std::vector<std::uint16_t>{1, 2},
            {{"w", 1.5}, {"h", 2.5}},
            nullptr};
    s.child = std::make_unique<shape>(shape{99, {}, std::nullopt, 5, {}, nullptr});
    m.push_back(std::move(s));
  }
  return m;
}
}  // namespace sample

namespace {

TEST(Hostile, EveryPrefixFailsCleanly) {
  const auto bytes = bale::serialize(sample::make());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = bale::try_deserialize<sample::message>(std::span<const std::byte>(bytes.data(), n));
    ASSERT_FALSE(r) << n;
    const auto code = r.error().code();
    EXPECT_TRUE(code == bale::errc::end_of_input || code == bale::errc::length_too_large) << n;
    EXPECT_LE(r.error().offset(), n);
  }
  EXPECT_TRUE(bale::try_deserialize<sample::message>(bytes).has_value());
}

TEST(Hostile, EveryBitFlipIsHandled) {
  const auto bytes = bale::serialize(sample::make());
  std::size_t failures = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      auto flipped = bytes;
      flipped[i] ^= static_cast<std::byte>(1 << bit);
      auto r = bale::try_deserialize<sample::message>(flipped);
      if (!r) {
        ++failures;
        EXPECT_LE(r.error().offset(), flipped.size());
      }
    }
  }
  // Many flips land in payload bytes and still decode; flips in lengths, flags and tags do not.
  EXPECT_GT(failures, bytes.size());
}

TEST(Hostile, RandomInputs) {
  std::vector<std::byte> input;
  for (int round = 0; round < 5000; ++round) {
    input.resize(bale_test::rng()() % 200);
    for (auto& b : input) b = static_cast<std::byte>(bale_test::rng()());
    // Small lengths are likelier to go deep: bias some first bytes down.
    if (!input.empty() && round % 2 == 0)
      input[0] = static_cast<std::byte>(std::to_integer<int>(input[0]) % 4);
    (void)bale::try_deserialize<sample::message>(input);
    (void)bale::try_deserialize<std::map<std::string, std::vector<double>>>(input);
    (void)bale::try_deserialize<std::variant<std::string, std::set<int>, std::optional<bool>>>(
        input);
  }
  SUCCEED();
}

TEST(Hostile, AllocationStaysBoundedByInput) {
  // A 1 KiB input cannot make the decoder allocate more than a small multiple of itself in
  // elements: every count was checked against the bytes left.
  std::vector<std::byte> input(1024);
  for (int round = 0; round < 2000; ++round) {
    for (auto& b : input) b = static_cast<std::byte>(bale_test::rng()() % 3);
    bale::limits lim;
    lim.max_allocation = 64 * 1024;
    auto r = bale::try_deserialize<std::vector<std::vector<std::string>>>(input, lim);
    if (!r) {
      EXPECT_NE(r.error().code(), bale::errc::misaligned);
    }
  }
}

}  // namespace
