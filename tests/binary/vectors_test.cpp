// SPDX-License-Identifier: BSL-1.0
// Byte-exact test vectors for the binary format; docs/format/binary.md describes the same bytes.
#include <bale/all.hpp>

#include "support/roundtrip.hpp"

namespace {

std::vector<std::byte> hex(std::string_view text) {
  std::vector<std::byte> out;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    out.push_back(static_cast<std::byte>(nibble(text[i]) * 16 + nibble(text[i + 1])));
    i += 2;
  }
  return out;
}

template <class T>
void expect_bytes(const T& value, std::string_view expected) {
  EXPECT_EQ(bale::serialize(value), hex(expected));
  EXPECT_EQ(bale::serialized_size(value), hex(expected).size());
  // And the bytes read back to a value that writes the same bytes.
  EXPECT_EQ(bale::serialize(bale::deserialize<T>(hex(expected))), hex(expected));
}

struct padded {
  std::uint8_t a;
  std::uint32_t b;
};

enum class color : std::uint16_t { red = 1, blue = 0x0203 };

TEST(BinaryVectors, Seeds) {
  expect_bytes(std::tuple<int, int, std::vector<std::uint8_t>>{10, 20, {1, 2}},
               "0a000000 14000000 0200000000000000 01 02");
  expect_bytes(std::string("string"), "0600000000000000 737472696e67");
  expect_bytes(std::tuple<int, int>{1, 2}, "01000000 02000000");
}

TEST(BinaryVectors, Scalars) {
  expect_bytes(true, "01");
  expect_bytes(std::int16_t{-2}, "feff");
  expect_bytes(std::uint64_t{0x0102030405060708}, "0807060504030201");
  expect_bytes(1.0f, "0000803f");
  expect_bytes(-2.0, "00000000000000c0");
  expect_bytes(color::blue, "0302");
  expect_bytes(L'A', "41000000");
  expect_bytes(u'\u00e9', "e900");
}

TEST(BinaryVectors, Composites) {
  expect_bytes(padded{1, 2}, "01 02000000");  // no padding on the wire
  expect_bytes(std::optional<std::uint8_t>{}, "00");
  expect_bytes(std::optional<std::uint8_t>{7}, "01 07");
  expect_bytes(std::variant<std::uint8_t, std::string>{std::string("a")},
               "01000000 0100000000000000 61");
  expect_bytes(std::pair<std::uint8_t, bool>{9, false}, "09 00");
  expect_bytes(std::array<std::uint16_t, 2>{1, 2}, "0100 0200");
  expect_bytes(std::vector<bool>{true, false, true}, "0300000000000000 01 00 01");
  expect_bytes(std::map<std::string, std::uint8_t>{{"k", 5}},
               "0100000000000000 0100000000000000 6b 05");
  expect_bytes(std::u16string(u"hi"), "0200000000000000 6800 6900");
  expect_bytes(std::bitset<70>{}.set(0).set(69), "0100000000000000 2000000000000000");
  expect_bytes(std::complex<float>(1.0f, -2.0f), "0000803f 000000c0");
  expect_bytes(std::unique_ptr<std::uint8_t>{}, "00");
  expect_bytes(std::chrono::seconds(3), "0300000000000000");
}

}  // namespace
