// SPDX-License-Identifier: BSL-1.0
// What the JSON reader and writer share about text: where the numbers of an array end.
#include <gtest/gtest.h>
#include <bale/json/detail/text.hpp>

#include <cstdint>
#include <random>
#include <string>

namespace {

using namespace bale::detail;

std::uint32_t delimiter_bits_by_byte(const char* p) {
  std::uint32_t bits = 0;
  for (int i = 0; i < 32; ++i)
    if (p[i] == ',' || p[i] == ']') bits |= std::uint32_t{1} << i;
  return bits;
}

// The bytes next to ',' (0x2C) and ']' (0x5D), their high-bit twins and zero are where a borrow
// or a signed compare would go wrong; '-' right after ',' is the commonest of them in real text.
TEST(JsonTextScan, DelimiterBitsAreExactInEveryLaneAndWord) {
  const unsigned char tricky[] = {',',  ']',  '-', '+', '\\', '^', 0x01, 0x00,        0xAC,
                                  0xDD, 0xFF, '0', '9', '[',  '}', ' ',  0x2C ^ 0x80, 0x7F};
  std::mt19937_64 rng(21);
  char text[32];
  for (int round = 0; round < 200000; ++round) {
    for (char& c : text) {
      const auto r = rng();
      c = static_cast<char>(r % 4 == 0 ? static_cast<unsigned char>(r >> 8)
                                       : tricky[(r >> 8) % sizeof tricky]);
    }
    const std::uint32_t expected = delimiter_bits_by_byte(text);
    ASSERT_EQ(json_delimiter_bits(text), expected) << round;
    ASSERT_EQ(json_delimiter_bits_portable(text), expected) << round;
  }
  // Each lane alone.
  for (int i = 0; i < 32; ++i) {
    for (const char c : {',', ']'}) {
      std::string lane(32, '-');
      lane[static_cast<std::size_t>(i)] = c;
      EXPECT_EQ(json_delimiter_bits(lane.data()), std::uint32_t{1} << i);
      EXPECT_EQ(json_delimiter_bits_portable(lane.data()), std::uint32_t{1} << i);
    }
  }
}

}  // namespace
