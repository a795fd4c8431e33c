// SPDX-License-Identifier: BSL-1.0
#include <bale/all.hpp>
#include <bale/compress/small_float.hpp>

#include <bit>
#include <cmath>
#include <limits>

#include "support/roundtrip.hpp"

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
constexpr std::uint64_t stride = 9973;  // sanitized builds sample; the optimized build sees all
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
constexpr std::uint64_t stride = 9973;
#else
constexpr std::uint64_t stride = 1;
#endif
#else
constexpr std::uint64_t stride = 1;
#endif

// Every one of the 2^32 float bit patterns: coded ones decode to the same bits, and only the 255
// small values are coded.
TEST(SmallFloat, ExactForAllFloatBitPatterns) {
  std::uint64_t coded = 0;
  for (std::uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += stride) {
    const float v = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    if (const auto code = bale::detail::small_float_code(v)) {
      ++coded;
      ASSERT_NE(*code, bale::detail::small_float_escape);
      ASSERT_EQ(std::bit_cast<std::uint32_t>(bale::detail::small_float_value<float>(*code)), bits);
    }
  }
  if (stride == 1) {
    EXPECT_EQ(coded, 255u);
  }
}

TEST(SmallFloat, SizesAndSpecialValues) {
  using sf = bale::small_float<float>;
  for (float v : {0.0f, 0.5f, -0.5f, 1.0f, -1.0f, 2.0f, 63.5f, -63.5f}) {
    EXPECT_EQ(bale::serialized_size(sf{v}), 1u) << v;
    EXPECT_EQ(bale::serialized_size<bale::compact>(sf{v}), 1u) << v;
    EXPECT_EQ(bale::deserialize<sf>(bale::serialize(sf{v})).value, v);
  }
  for (float v :
       {-0.0f, 0.25f, 64.0f, 1e30f, std::numeric_limits<float>::infinity(),
        -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::denorm_min()}) {
    EXPECT_EQ(bale::serialized_size(sf{v}), 5u) << v;
    const auto back = bale::deserialize<sf>(bale::serialize(sf{v}));
    EXPECT_EQ(std::bit_cast<std::uint32_t>(back.value), std::bit_cast<std::uint32_t>(v));
  }
  const float nan = std::bit_cast<float>(std::uint32_t{0x7FA12345});
  EXPECT_EQ(std::bit_cast<std::uint32_t>(bale::deserialize<sf>(bale::serialize(sf{nan})).value),
            0x7FA12345u);
  EXPECT_EQ(bale::serialized_size(bale::small_float<double>{0.1}), 9u);
  EXPECT_EQ(bale::serialized_size(bale::small_float<double>{-7.5}), 1u);
}

TEST(SmallFloat, InsideStructsAndVectors) {
  struct sample {
    bale::small_float<float> weight;
    bale::small_float<double> bias;
    bool operator==(const sample&) const = default;
  };
  const std::vector<sample> v(1000, sample{1.5f, 0.0});
  const auto bytes = bale_test::expect_roundtrip(v);
  EXPECT_EQ(bytes.size(), 8u + 2u * 1000u);
  const auto truncated = bale::serialize(bale::small_float<float>{0.1f});
  EXPECT_FALSE(bale::try_deserialize<bale::small_float<float>>(std::span(truncated).first(3)));
}

}  // namespace
