// SPDX-License-Identifier: BSL-1.0
// Integer arrays in the compact format: vectors decode through the codec's fast run decoder, lists
// element by element through the checked scalar path. Same wire bytes, so both must agree on every
// value, every error code and every error offset.
#include <bale/all.hpp>

#include <list>
#include <random>

#include "support/roundtrip.hpp"

namespace {

template <class T>
std::vector<T> draw(std::mt19937_64& rng, std::size_t count, int max_bits) {
  std::vector<T> values(count);
  for (auto& v : values) {
    const int bits = static_cast<int>(rng() % static_cast<unsigned>(max_bits + 1));
    const std::uint64_t raw = bits == 0 ? 0 : rng() >> (64 - bits);
    v = static_cast<T>(raw);
  }
  return values;
}

template <class T>
void expect_same_decoding(const std::vector<std::byte>& bytes) {
  const auto as_vector = bale::try_deserialize<std::vector<T>, bale::compact>(bytes);
  const auto as_list = bale::try_deserialize<std::list<T>, bale::compact>(bytes);
  ASSERT_EQ(static_cast<bool>(as_vector), static_cast<bool>(as_list));
  if (as_vector) {
    EXPECT_TRUE(std::equal(as_vector->begin(), as_vector->end(), as_list->begin(), as_list->end()));
  } else {
    EXPECT_EQ(as_vector.error().code(), as_list.error().code());
    EXPECT_EQ(as_vector.error().offset(), as_list.error().offset());
    EXPECT_EQ(as_vector.error().path(), as_list.error().path());
  }
}

template <class T>
void check_type() {
  std::mt19937_64 rng(sizeof(T) * 7 + std::is_signed_v<T>);
  for (const int max_bits : {6, 7, 8, 14, 21, 32, 63, 64}) {
    for (const std::size_t count : {0u, 1u, 7u, 8u, 9u, 31u, 1000u}) {
      const auto values = draw<T>(rng, count, std::min<int>(max_bits, sizeof(T) * 8));
      const auto bytes = bale::serialize<bale::compact>(values);
      EXPECT_EQ((bale::deserialize<std::vector<T>, bale::compact>(bytes)), values);
      expect_same_decoding<T>(bytes);
      // Damaged copies: every error the checked path finds, the fast path must find at the same
      // byte, whatever lies before it.
      for (int trial = 0; trial < 40 && !bytes.empty(); ++trial) {
        auto damaged = bytes;
        damaged[rng() % damaged.size()] = static_cast<std::byte>(rng());
        if (trial % 4 == 0) damaged.resize(rng() % damaged.size());
        expect_same_decoding<T>(damaged);
      }
    }
  }
}

TEST(CompactIntegerArrays, FastRunMatchesCheckedPath) {
  check_type<std::int16_t>();
  check_type<std::uint16_t>();
  check_type<std::int32_t>();
  check_type<std::uint32_t>();
  check_type<std::int64_t>();
  check_type<std::uint64_t>();
}

std::vector<std::byte> hex(std::string_view text) {
  std::vector<std::byte> out;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == ' ') continue;
    out.push_back(static_cast<std::byte>(nibble(text[i]) * 16 + nibble(text[i + 1])));
    ++i;
  }
  return out;
}

TEST(CompactIntegerArrays, ErrorsInsideARunNameTheElement) {
  // 20 elements: sixteen one-byte values, then an overlong varint at index 16 (byte 17).
  const auto overlong = hex("14 01020304050607080102030405060708 8000 01 02 03");
  auto r = bale::try_deserialize<std::vector<std::uint32_t>, bale::compact>(overlong);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(r.error().offset(), 17u);
  EXPECT_EQ(r.error().path(), "[16]");

  // 2^32 does not fit a uint32_t: found at index 1, inside the fast path's reach.
  const auto too_big = hex("0a 01 8080808010 0102030405060708");
  r = bale::try_deserialize<std::vector<std::uint32_t>, bale::compact>(too_big);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(r.error().offset(), 2u);
  EXPECT_EQ(r.error().path(), "[1]");

  // 9- and 10-byte varints are valid for 64-bit values: the checked path takes them over.
  const std::vector<std::uint64_t> wide{
      1, std::uint64_t{1} << 63, 2, ~std::uint64_t{0}, 3, 4, 5, 6, 7, 8, std::uint64_t{1} << 56, 9};
  EXPECT_EQ((bale::deserialize<std::vector<std::uint64_t>, bale::compact>(
                bale::serialize<bale::compact>(wide))),
            wide);
}

TEST(CompactIntegerArrays, ValarrayAndArraysShareThePath) {
  const std::valarray<int> values{-1, 0, 1, 300, -70000, 5, 6, 7, 8, 9, 10};
  const auto back =
      bale::deserialize<std::valarray<int>, bale::compact>(bale::serialize<bale::compact>(values));
  EXPECT_TRUE((back == values).min());
  const std::array<std::int64_t, 12> fixed{1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 1 << 20, -(1 << 30)};
  bale_test::expect_roundtrip(fixed);
}

}  // namespace
