// SPDX-License-Identifier: BSL-1.0
// Damaged and hostile MessagePack: truncation, bit flips, random bytes, lengths the input does not
// hold, nesting bombs, budgets. Every failure is a bale::error with an offset inside the input.
#include <bale/all.hpp>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <variant>

#include "support/roundtrip.hpp"

namespace hostile_msgpack {
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
  std::vector<std::byte> blob;
  std::unique_ptr<shape> child;
};
using message = std::vector<shape>;

message make() {
  message m;
  for (std::uint32_t i = 0; i < 3; ++i) {
    shape s{i * 1000,
            {{1, 2, "p", true}, {3, 4, "q", false}},
            std::string("note"),
            std::vector<std::uint16_t>{1, 2},
            {{"w", 1.5}, {"h", 2.5}},
            {std::byte{1}, std::byte{2}},
            nullptr};
    s.child = std::make_unique<shape>(shape{99, {}, std::nullopt, 5, {}, {}, nullptr});
    m.push_back(std::move(s));
  }
  return m;
}

// Takes an unknown number of named values: the reader indexes a map's members and skips values.
struct bag {
  std::optional<int> a;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("a", a));
  }
};
}  // namespace hostile_msgpack

namespace {

using hostile_msgpack::message;

template <class T>
bale::result<T> read(std::span<const std::byte> bytes, const bale::limits& lim = {}) {
  return bale::try_deserialize<T, bale::msgpack>(bytes, lim);
}

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (const int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

TEST(MsgpackHostile, EveryPrefixFailsCleanly) {
  const auto bytes = bale::serialize<bale::msgpack>(hostile_msgpack::make());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read<message>(std::span<const std::byte>(bytes.data(), n));
    ASSERT_FALSE(r) << n;
    const auto code = r.error().code();
    EXPECT_TRUE(code == bale::errc::end_of_input || code == bale::errc::length_too_large)
        << n << ": " << r.error().what();
    EXPECT_LE(r.error().offset(), n);
  }
  EXPECT_TRUE(read<message>(bytes).has_value());
}

TEST(MsgpackHostile, EveryBitFlipIsHandled) {
  const auto bytes = bale::serialize<bale::msgpack>(hostile_msgpack::make());
  std::size_t failures = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      auto flipped = bytes;
      flipped[i] ^= static_cast<std::byte>(1 << bit);
      auto r = read<message>(flipped);
      if (!r) {
        ++failures;
        EXPECT_LE(r.error().offset(), flipped.size());
      }
    }
  }
  // Flips in payload bytes may still decode; flips in type bytes, lengths and names do not.
  EXPECT_GT(failures, bytes.size());
}

TEST(MsgpackHostile, RandomInputs) {
  std::vector<std::byte> input;
  for (int round = 0; round < 5000; ++round) {
    input.resize(bale_test::rng()() % 200);
    for (auto& b : input) b = static_cast<std::byte>(bale_test::rng()());
    // Arrays and maps first make the reads go deeper.
    if (!input.empty() && round % 2 == 0)
      input[0] = static_cast<std::byte>(0x80 + std::to_integer<int>(input[0]) % 32);
    (void)read<message>(input);
    (void)read<std::map<std::string, std::vector<double>>>(input);
    (void)read<std::variant<std::string, std::set<int>, std::optional<bool>>>(input);
    (void)read<hostile_msgpack::bag>(input);
  }
  SUCCEED();
}

TEST(MsgpackHostile, LengthsBeyondTheInputAreRefusedBeforeAllocating) {
  // array32, map32, str32 and bin32 claiming 2^32 - 1 entries, followed by almost nothing.
  const auto huge = [](int type) { return bytes_of({type, 0xff, 0xff, 0xff, 0xff, 0x00}); };
  auto array = read<std::vector<int>>(huge(0xdd));
  ASSERT_FALSE(array);
  EXPECT_EQ(array.error().code(), bale::errc::length_too_large) << array.error().what();
  EXPECT_EQ(array.error().offset(), 0u);
  auto map = read<std::map<int, int>>(huge(0xdf));
  ASSERT_FALSE(map);
  EXPECT_EQ(map.error().code(), bale::errc::length_too_large) << map.error().what();
  auto s = read<std::string>(huge(0xdb));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), bale::errc::length_too_large);
  auto b = read<std::vector<std::byte>>(huge(0xc6));
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code(), bale::errc::length_too_large);
  // A map needs two values per entry: 3 entries in 5 bytes are refused up front.
  auto short_map = read<std::map<int, int>>(bytes_of({0x83, 1, 2, 3, 4, 5}));
  ASSERT_FALSE(short_map);
  EXPECT_EQ(short_map.error().code(), bale::errc::length_too_large);
  // Skipping an unknown member checks its lengths too.
  auto skipped =
      read<hostile_msgpack::bag>(bytes_of({0x81, 0xa1, 'z', 0xdd, 0x7f, 0xff, 0xff, 0xff}));
  ASSERT_FALSE(skipped);
  EXPECT_EQ(skipped.error().code(), bale::errc::length_too_large);
}

TEST(MsgpackHostile, TheAllocationBudgetCoversEveryContainer) {
  const std::vector<std::vector<std::uint64_t>> value(10, std::vector<std::uint64_t>(100, 1));
  const auto bytes = bale::serialize<bale::msgpack>(value);
  bale::limits lim;
  lim.max_allocation = 10 * 100 * 8;  // the elements fit, the outer vector's do not
  auto r = read<std::vector<std::vector<std::uint64_t>>>(bytes, lim);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::allocation_limit);
  lim.max_allocation = 10 * 100 * 8 + 10 * sizeof(std::vector<std::uint64_t>);
  EXPECT_TRUE((read<std::vector<std::vector<std::uint64_t>>>(bytes, lim)));
  // Strings and bin are charged as well.
  lim.max_allocation = 99;
  auto text = read<std::string>(bale::serialize<bale::msgpack>(std::string(100, 'x')), lim);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code(), bale::errc::allocation_limit);
  auto blob = read<std::vector<std::byte>>(
      bale::serialize<bale::msgpack>(std::vector<std::byte>(100)), lim);
  ASSERT_FALSE(blob);
  EXPECT_EQ(blob.error().code(), bale::errc::allocation_limit);
}

TEST(MsgpackHostile, NestingBombsStopAtTheDepthLimit) {
  // 100,000 nested one-element arrays, inside an unknown member that the reader must skip.
  std::vector<std::byte> bomb = bytes_of({0x81, 0xa1, 'z'});
  bomb.insert(bomb.end(), 100000, std::byte{0x91});
  bomb.push_back(std::byte{0});
  auto r = read<hostile_msgpack::bag>(bomb);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::depth_exceeded);
  // And where a recursive type reads them.
  std::vector<std::byte> chain;
  for (int i = 0; i < 100000; ++i) chain.insert(chain.end(), {std::byte{0x91}});
  chain.push_back(std::byte{0x90});
  bale::limits shallow;
  shallow.max_depth = 64;
  auto c = read<std::vector<std::vector<std::vector<int>>>>(chain, shallow);
  ASSERT_FALSE(c);
  auto deep = read<std::vector<std::vector<std::vector<int>>>>(
      bale::serialize<bale::msgpack>(std::vector<std::vector<std::vector<int>>>{{{1}}}), shallow);
  EXPECT_TRUE(deep.has_value());
}

TEST(MsgpackHostile, ManyNamesAreCheckedInLinearithmicTime) {
  // 200,000 distinct names for a type that reads one: indexing them must not compare every pair
  // (that would be 2 * 10^10 comparisons); the member the type asks for is missing (an optional:
  // none), and the first of the others is unknown.
  constexpr std::uint32_t entries = 200000;
  std::vector<std::byte> input = bytes_of({0xdf, 0x00, 0x03, 0x0d, 0x40});
  for (std::uint32_t i = 0; i < entries; ++i) {
    const std::string name = "m" + std::to_string(i);
    input.push_back(static_cast<std::byte>(0xa0 | name.size()));
    for (const char c : name) input.push_back(static_cast<std::byte>(c));
    input.push_back(std::byte{0xc0});
  }
  auto r = read<hostile_msgpack::bag>(input);
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.error().what()).find("unknown member \"m0\""), std::string::npos)
      << r.error().what();
  // A repeated name among them is found as well.
  input.insert(input.end(), {std::byte{0xa2}, std::byte{'m'}, std::byte{'7'}, std::byte{0xc0}});
  input[4] = std::byte{0x41};  // 200,001 entries
  auto twice = read<hostile_msgpack::bag>(input);
  ASSERT_FALSE(twice);
  EXPECT_NE(std::string(twice.error().what()).find("duplicate member \"m7\""), std::string::npos)
      << twice.error().what();
}

TEST(MsgpackHostile, TrailingBytesAndWrongShapes) {
  auto trailing = read<int>(bytes_of({0x01, 0x02}));
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().code(), bale::errc::trailing_bytes);
  auto wrong = read<std::vector<int>>(bytes_of({0x81, 0x01, 0x02}));
  ASSERT_FALSE(wrong);
  EXPECT_NE(std::string(wrong.error().what()).find("expected an array, found a map"),
            std::string::npos)
      << wrong.error().what();
  // The field path leads to the damaged value.
  auto bytes = bale::serialize<bale::msgpack>(hostile_msgpack::make());
  const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const std::size_t label = text.find("\xa1q");  // the second point's label in the first shape
  ASSERT_NE(label, std::string::npos);
  bytes[label] = std::byte{0x05};
  auto r = read<message>(bytes);
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.error().what()).find("[0].points[1].label"), std::string::npos)
      << r.error().what();
  EXPECT_EQ(r.error().offset(), label);
}

TEST(MsgpackHostile, RoundTripsAreExactAndPrefixFree) {
  bale_test::expect_roundtrip_in<bale::msgpack>(
      std::map<std::string, std::vector<double>>{{"a", {1.5, -0.0}}, {"b", {}}});
  bale_test::expect_roundtrip_in<bale::msgpack>(
      std::vector<std::string>{"", "x", std::string(70000, 'y')});
}

}  // namespace
