// SPDX-License-Identifier: BSL-1.0
// pair, tuple, std::array, C arrays, complex, bitset, chrono.
#include <bale/types/array.hpp>
#include <bale/types/bitset.hpp>
#include <bale/types/c_array.hpp>
#include <bale/types/chrono.hpp>
#include <bale/types/complex.hpp>
#include <bale/types/string.hpp>
#include <bale/types/tuple.hpp>
#include <bale/types/utility.hpp>
#include <bale/types/vector.hpp>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;

TEST(Pair, RoundTrip) {
  expect_roundtrip(std::pair<int, std::string>{-4, "four"});
  EXPECT_EQ(bale::serialized_size(std::pair<std::int8_t, double>{}), 9u);
}

TEST(Tuple, RoundTripAndSeedVector) {
  expect_roundtrip(std::tuple<>{});
  expect_roundtrip(std::tuple<int, std::uint64_t, std::vector<std::uint8_t>, std::string>{
      10, 20, {1, 2, 3}, "tuple"});
  const auto bytes =
      bale::serialize(std::tuple<int, int, std::vector<std::uint8_t>>{10, 20, {1, 2}});
  const std::vector<std::byte> expected{std::byte{0x0a},
                                        {},
                                        {},
                                        {},
                                        std::byte{0x14},
                                        {},
                                        {},
                                        {},  // 10, 20
                                        std::byte{0x02},
                                        {},
                                        {},
                                        {},
                                        {},
                                        {},
                                        {},
                                        {},  // length 2
                                        std::byte{0x01},
                                        std::byte{0x02}};
  EXPECT_EQ(bytes, expected);
}

TEST(StdArray, NoLengthOnTheWire) {
  std::array<double, 64> a{};
  for (auto& d : a) d = static_cast<double>(bale_test::rng()() % 1000) / 7.0;
  EXPECT_EQ(expect_roundtrip(a).size(), 64u * 8u);
  expect_roundtrip(std::array<std::string, 3>{"a", "", "c"});
  expect_roundtrip(std::array<int, 0>{});
}

struct with_c_arrays {
  int grid[2][3];
  char name[8];
  std::string labels[2];
  bool operator==(const with_c_arrays& o) const {
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c)
        if (grid[r][c] != o.grid[r][c]) return false;
    for (int i = 0; i < 8; ++i)
      if (name[i] != o.name[i]) return false;
    return labels[0] == o.labels[0] && labels[1] == o.labels[1];
  }
};

TEST(CArray, MultiDimensional) {
  const with_c_arrays value{{{1, 2, 3}, {4, 5, 6}}, "bale", {"x", "yz"}};
  expect_roundtrip(value);
  int grid[2][2] = {{1, 2}, {3, 4}};
  const auto bytes = bale::serialize(grid);
  EXPECT_EQ(bytes.size(), 16u);
  int back[2][2] = {};
  bale::deserialize(bytes, back);
  EXPECT_EQ(back[1][0], 3);
}

TEST(Complex, RoundTrip) {
  expect_roundtrip(std::complex<double>(1.5, -2.25));
  expect_roundtrip(std::vector<std::complex<float>>(100, {3.0f, 4.0f}));
  static_assert(bale::wire_compatible<std::complex<double>>);
}

TEST(Bitset, WordsAndCanonicalPadding) {
  std::bitset<100> bits;
  for (int i = 0; i < 100; i += 3) bits.set(i);
  EXPECT_EQ(expect_roundtrip(bits).size(), 16u);
  expect_roundtrip(std::bitset<1>{1});
  expect_roundtrip(std::bitset<64>{0xF0F0F0F0F0F0F0F0u});
  auto bytes = bale::serialize(std::bitset<4>{0b1010});
  EXPECT_EQ(bytes[0], std::byte{0x0A});
  bytes[0] = std::byte{0x1A};  // bit 4 of a 4-bit set
  auto r = bale::try_deserialize<std::bitset<4>>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
}

TEST(Chrono, DurationsAndTimePoints) {
  expect_roundtrip(std::chrono::nanoseconds(-123456789));
  expect_roundtrip(std::chrono::duration<double, std::milli>(2.5));
  const auto now =
      std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now());
  expect_roundtrip(now);
  expect_roundtrip(
      std::vector<std::chrono::seconds>{std::chrono::seconds(1), std::chrono::seconds(2)});
  static_assert(bale::wire_compatible<std::chrono::seconds>);
  EXPECT_EQ(bale::serialized_size(std::chrono::seconds(1)), 8u);
}

}  // namespace
