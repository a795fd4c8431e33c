// SPDX-License-Identifier: BSL-1.0
#include <bale/types/scalar.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;

template <class T>
void roundtrip_extremes() {
  expect_roundtrip(std::numeric_limits<T>::min());
  expect_roundtrip(std::numeric_limits<T>::max());
  expect_roundtrip(T{});
  for (int i = 0; i < 50; ++i) expect_roundtrip(bale_test::random_integer<T>());
  EXPECT_EQ(bale::serialized_size(T{}), sizeof(T));
}

TEST(Scalar, EveryIntegerAndCharacterType) {
  roundtrip_extremes<signed char>();
  roundtrip_extremes<unsigned char>();
  roundtrip_extremes<char>();
  roundtrip_extremes<char8_t>();
  roundtrip_extremes<char16_t>();
  roundtrip_extremes<char32_t>();
  roundtrip_extremes<short>();
  roundtrip_extremes<unsigned short>();
  roundtrip_extremes<int>();
  roundtrip_extremes<unsigned>();
  roundtrip_extremes<long>();
  roundtrip_extremes<unsigned long>();
  roundtrip_extremes<long long>();
  roundtrip_extremes<unsigned long long>();
}

TEST(Scalar, WcharIsFourBytesOnTheWire) {
  expect_roundtrip(L'x');
  expect_roundtrip(static_cast<wchar_t>(0x10FFFF));
  EXPECT_EQ(bale::serialized_size(L'x'), 4u);
}

TEST(Scalar, Bool) {
  EXPECT_EQ(bale::serialize(true), std::vector<std::byte>{std::byte{1}});
  EXPECT_EQ(bale::serialize(false), std::vector<std::byte>{std::byte{0}});
  expect_roundtrip(true);
  for (int b = 2; b < 256; ++b) {
    const std::vector<std::byte> bad{std::byte(b)};
    auto r = bale::try_deserialize<bool>(bad);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
    EXPECT_EQ(r.error().offset(), 0u);
  }
}

TEST(Scalar, FloatsKeepEveryBit) {
  for (float f : {0.0f, -0.0f, 1.5f, -3.25e-30f, std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()})
    expect_roundtrip(f);
  for (double d : {0.0, -0.0, 0.1, -1e300, std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::denorm_min()})
    expect_roundtrip(d);
  // NaN payloads survive bit for bit.
  const float nan = std::bit_cast<float>(std::uint32_t{0x7FC01234});
  EXPECT_EQ(std::bit_cast<std::uint32_t>(bale::deserialize<float>(bale::serialize(nan))),
            0x7FC01234u);
  const double dnan = std::bit_cast<double>(std::uint64_t{0xFFF0000000000001});
  EXPECT_EQ(std::bit_cast<std::uint64_t>(bale::deserialize<double>(bale::serialize(dnan))),
            0xFFF0000000000001u);
}

enum unscoped_color { red, green = 7, blue = 300 };  // no fixed type: it holds 0..511
BALE_ENUM_NAMES(unscoped_color, red, green, blue)
enum unscoped_signed { below = -3, above = 5 };  // holds -8..7
BALE_ENUM_NAMES(unscoped_signed, below, above)
enum unscoped_fixed : short { one = 1 };  // a fixed type: holds every short
enum class scoped_level : std::int8_t { low = -5, high = 120 };
enum class wide : std::uint64_t { big = 0xFFFFFFFFFFFFFFF0u };

TEST(Scalar, EnumsAsTheirUnderlyingType) {
  expect_roundtrip(blue);
  expect_roundtrip(scoped_level::low);
  expect_roundtrip(wide::big);
  EXPECT_EQ(bale::serialized_size(scoped_level::high), 1u);
  EXPECT_EQ(bale::serialized_size(wide::big), 8u);
  EXPECT_EQ(bale::serialize(scoped_level::low), std::vector<std::byte>{std::byte{0xFB}});
}

// A value an enum without a fixed underlying type cannot hold is refused as it is read, in
// every format; one with a fixed type takes every value of that type.
TEST(Scalar, AnUnfixedEnumRefusesValuesOutsideItsEnumeratorsBits) {
  static_assert(bale::unfixed_enum<unscoped_color> && bale::unfixed_enum<unscoped_signed>);
  static_assert(!bale::unfixed_enum<unscoped_fixed> && !bale::unfixed_enum<scoped_level>);
  using raw = std::underlying_type_t<unscoped_color>;
  EXPECT_EQ(bale::deserialize<unscoped_color>(bale::serialize(raw{511})),
            static_cast<unscoped_color>(511));
  for (const raw outside : {raw{512}, static_cast<raw>(100000)}) {
    const auto read = bale::try_deserialize<unscoped_color>(bale::serialize(outside));
    ASSERT_FALSE(read.has_value()) << outside;
    EXPECT_EQ(read.error().code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(read.error().what()).find("0 to 511"), std::string::npos)
        << read.error().what();
    EXPECT_FALSE((bale::try_deserialize<unscoped_color, bale::compact>(
                      bale::serialize<bale::compact>(outside)))
                     .has_value());
  }
  using signed_raw = std::underlying_type_t<unscoped_signed>;
  EXPECT_EQ(bale::deserialize<unscoped_signed>(bale::serialize(signed_raw{-8})),
            static_cast<unscoped_signed>(-8));
  EXPECT_FALSE(bale::try_deserialize<unscoped_signed>(bale::serialize(signed_raw{-9})).has_value());
  EXPECT_FALSE(bale::try_deserialize<unscoped_signed>(bale::serialize(signed_raw{8})).has_value());
  // A vector of them is read value by value, never copied in unchecked.
  std::vector<raw> raws{1, 2, 600};
  EXPECT_FALSE(
      bale::try_deserialize<std::vector<unscoped_color>>(bale::serialize(raws)).has_value());
  raws.back() = 300;
  EXPECT_EQ(bale::deserialize<std::vector<unscoped_color>>(bale::serialize(raws)).back(), blue);
  EXPECT_EQ(bale::deserialize<unscoped_fixed>(bale::serialize(short{-30000})),
            static_cast<unscoped_fixed>(-30000));
}

TEST(Scalar, StdByte) {
  expect_roundtrip(std::byte{0xAB});
  EXPECT_EQ(bale::serialized_size(std::byte{}), 1u);
}

TEST(Scalar, LittleEndianOnTheWire) {
  const auto bytes = bale::serialize(std::uint32_t{0x11223344});
  EXPECT_EQ(bytes, (std::vector<std::byte>{std::byte{0x44}, std::byte{0x33}, std::byte{0x22},
                                           std::byte{0x11}}));
}

TEST(Scalar, TruncatedScalarSaysWhere) {
  const std::vector<std::byte> three(3);
  auto r = bale::try_deserialize<std::uint32_t>(three);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::end_of_input);
  EXPECT_EQ(r.error().offset(), 0u);
  EXPECT_NE(std::string(r.error().what()).find("need 4 bytes, 3 left"), std::string::npos);
}

}  // namespace
