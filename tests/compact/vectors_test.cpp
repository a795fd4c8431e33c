// SPDX-License-Identifier: BSL-1.0
// Byte-exact vectors of the compact format, and its own failure cases.
#include <bale/all.hpp>

#include "support/roundtrip.hpp"

namespace {

std::vector<std::byte> hex(std::string_view text) {
  std::vector<std::byte> out;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ') continue;
    out.push_back(static_cast<std::byte>(nibble(text[i]) * 16 + nibble(text[i + 1])));
    ++i;
  }
  return out;
}

template <class T>
void expect_bytes(const T& value, std::string_view expected) {
  EXPECT_EQ(bale::serialize<bale::compact>(value), hex(expected)) << expected;
  EXPECT_EQ(bale::serialized_size<bale::compact>(value), hex(expected).size());
  EXPECT_EQ((bale::serialize<bale::compact>(bale::deserialize<T, bale::compact>(hex(expected)))),
            hex(expected));
}

template <class T>
bale::errc failure(std::string_view bytes) {
  auto r = bale::try_deserialize<T, bale::compact>(hex(bytes));
  EXPECT_FALSE(r) << bytes;
  return r ? bale::errc{} : r.error().code();
}

TEST(CompactVectors, VarintEdges) {
  expect_bytes(std::uint64_t{0}, "00");
  expect_bytes(std::uint64_t{127}, "7f");
  expect_bytes(std::uint64_t{128}, "8001");
  expect_bytes(std::uint64_t{300}, "ac02");
  expect_bytes(std::uint64_t{1} << 63, "80808080808080808001");
  expect_bytes(std::numeric_limits<std::uint64_t>::max(), "ffffffffffffffffff01");
  expect_bytes(std::int64_t{-1}, "01");
  expect_bytes(std::int64_t{1}, "02");
  expect_bytes(std::int32_t{-33}, "41");  // one byte
  expect_bytes(std::numeric_limits<std::int64_t>::min(), "ffffffffffffffffff01");
  expect_bytes(std::numeric_limits<std::int64_t>::max(), "feffffffffffffffff01");
  expect_bytes(std::uint16_t{65535}, "ffff03");
}

// Every varint length, written where the sink lends room for the longest (inside an array, and a
// field followed by others) and where it does not (the last bytes of the buffer).
TEST(CompactVectors, EveryVarintLengthInEveryPosition) {
  auto reference = [](std::uint64_t value) {
    std::vector<std::byte> out;
    for (; value >= 0x80; value >>= 7) out.push_back(static_cast<std::byte>((value & 0x7F) | 0x80));
    out.push_back(static_cast<std::byte>(value));
    return out;
  };
  std::vector<std::uint64_t> values;
  for (int bits = 0; bits <= 64; ++bits) {
    const std::uint64_t top = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    values.insert(values.end(), {top, top / 3, top ^ (top >> 1)});
  }
  std::vector<std::byte> expected = reference(values.size());
  for (const std::uint64_t v : values) {
    const auto bytes = reference(v);
    expected.insert(expected.end(), bytes.begin(), bytes.end());
    const std::tuple<std::uint64_t, std::uint8_t, std::uint64_t> fields{v, 7, v};
    std::vector<std::byte> field_bytes = bytes;
    field_bytes.push_back(std::byte{7});
    field_bytes.insert(field_bytes.end(), bytes.begin(), bytes.end());
    EXPECT_EQ(bale::serialize<bale::compact>(fields), field_bytes) << v;
    EXPECT_EQ(bale::serialized_size<bale::compact>(v), bytes.size()) << v;
  }
  EXPECT_EQ(bale::serialize<bale::compact>(values), expected);
  std::vector<std::byte> grown;
  bale::serialize_into<bale::compact>(grown, values);
  EXPECT_EQ(grown, expected);
  EXPECT_EQ((bale::deserialize<std::vector<std::uint64_t>, bale::compact>(expected)), values);
}

TEST(CompactVectors, RawBytesAndFloats) {
  expect_bytes(true, "01");
  expect_bytes(std::int8_t{-1}, "ff");
  expect_bytes(std::uint8_t{200}, "c8");
  expect_bytes(1.0f, "0000803f");
  expect_bytes(-2.0, "00000000000000c0");
  expect_bytes(std::byte{0xAB}, "ab");
  expect_bytes(u'\u00e9', "e901");
}

TEST(CompactVectors, Composites) {
  expect_bytes(std::tuple<int, int, std::vector<std::uint8_t>>{10, 20, {1, 2}}, "14 28 02 01 02");
  expect_bytes(std::string("string"), "06 737472696e67");
  expect_bytes(std::vector<int>{-1, 0, 1, 300}, "04 01 00 02 d804");
  expect_bytes(std::optional<std::uint32_t>{128}, "01 8001");
  expect_bytes(std::variant<std::uint8_t, std::string>{std::string("a")}, "01 01 61");
  expect_bytes(std::map<std::string, std::int16_t>{{"k", -2}}, "01 01 6b 03");
  expect_bytes(std::vector<double>{1.0}, "01 000000000000f03f");
}

TEST(CompactVectors, SmallerThanBinary) {
  const std::vector<std::int64_t> small{1, -2, 3, -4, 5, 100, -100};
  EXPECT_EQ(bale::serialized_size<bale::compact>(small), 1u + 5u + 2u * 2u);
  EXPECT_EQ(bale::serialized_size(small), 8u + 7u * 8u);
}

TEST(CompactErrors, BadVarints) {
  EXPECT_EQ(failure<std::uint64_t>("8000"), bale::errc::invalid_value);                  // overlong
  EXPECT_EQ(failure<std::uint64_t>("ffffffffffffffffff02"), bale::errc::invalid_value);  // 65 bits
  EXPECT_EQ(failure<std::uint64_t>("ffffffffffffffffffff01"),
            bale::errc::invalid_value);  // 11 bytes
  EXPECT_EQ(failure<std::uint64_t>("ff"), bale::errc::end_of_input);
  EXPECT_EQ(failure<std::uint8_t>(""), bale::errc::end_of_input);
  EXPECT_EQ(failure<std::uint16_t>("808004"), bale::errc::invalid_value);  // 65536 overflows
  EXPECT_EQ(failure<std::int16_t>("808004"), bale::errc::invalid_value);   // 32768 overflows
  EXPECT_EQ(failure<std::int32_t>("ffffffff1f"), bale::errc::invalid_value);
  EXPECT_EQ(failure<bool>("02"), bale::errc::invalid_value);
  EXPECT_EQ(failure<std::vector<int>>("ff ffffffffffffff7f"), bale::errc::length_too_large);
}

TEST(CompactErrors, HostileLengthAndDepth) {
  // A one-byte-per-element type: the length is checked against the bytes left.
  EXPECT_EQ(failure<std::string>("ffffffffffffffff7f 61"), bale::errc::length_too_large);
  std::vector<std::byte> deep(100000, std::byte{1});  // 100000 nested "one element" lengths
  struct node {
    std::vector<node> children;
  };
  auto r = bale::try_deserialize<node, bale::compact>(deep);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::depth_exceeded);
}

TEST(CompactBulk, FloatsAndBytesAreOneMemcpy) {
  static_assert(bale::detail::compact_codec::bulk<double>);
  static_assert(bale::detail::compact_codec::bulk<std::uint8_t>);
  static_assert(!bale::detail::compact_codec::bulk<int>);
  struct floats {
    float x, y, z;
  };
  static_assert(bale::detail::compact_codec::bulk<floats>);
  std::vector<floats> v(1000, floats{1, 2, 3});
  EXPECT_EQ(bale::serialized_size<bale::compact>(v), 2u + 12000u);
}

}  // namespace
