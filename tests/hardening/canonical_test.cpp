// SPDX-License-Identifier: BSL-1.0
// One encoding per value where bale promises it, and the JSON number edge cases.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bale/compress/small_float.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace canonical_app {
struct tuned {
  double rate = 1.0;
  int level = 3;
  std::string name = "x";
};
}  // namespace canonical_app
template <>
inline constexpr bool bale::omit_defaults<canonical_app::tuned> = true;

namespace {

TEST(Canonical, ASmallFloatWrittenInFullIsRefused) {
  for (const float v : {0.0F, 1.5F, -63.5F}) {
    std::vector<std::byte> bytes{std::byte{0xFF}};
    const auto raw = bale::serialize(v);
    bytes.insert(bytes.end(), raw.begin(), raw.end());
    auto r = bale::try_deserialize<bale::small_float<float>>(bytes);
    ASSERT_FALSE(r) << v;
    EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  }
  // Values with no one-byte form still read in full, -0.0 and NaN among them.
  for (const float v : {0.25F, -0.0F, 1e30F, std::nanf("")}) {
    const auto bytes = bale::serialize(bale::small_float<float>(v));
    const float back = bale::deserialize<bale::small_float<float>>(bytes);
    EXPECT_EQ(std::memcmp(&back, &v, sizeof v), 0) << v;
  }
}

TEST(Canonical, AMemberMarkedPresentMustDifferFromItsDefault) {
  canonical_app::tuned changed;
  changed.level = 9;
  auto bytes = bale::serialize(changed);
  EXPECT_EQ(bytes.size(), 1u + 4u);  // the mask and the level
  // Mark `rate` present too, followed by its default value.
  std::vector<std::byte> forged{std::byte{0b011}};
  const auto rate = bale::serialize(1.0);
  forged.insert(forged.end(), rate.begin(), rate.end());
  forged.insert(forged.end(), bytes.begin() + 1, bytes.end());
  auto r = bale::try_deserialize<canonical_app::tuned>(forged);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(r.error().offset(), 1u);
  // -0.0 differs from a default of 0.0 bit for bit: written, and read back with its sign.
  canonical_app::tuned negative_zero;
  negative_zero.rate = -0.0;
  const auto back = bale::deserialize<canonical_app::tuned>(bale::serialize(negative_zero));
  EXPECT_TRUE(std::signbit(back.rate));
}

TEST(Canonical, CompactWideCharactersAreZigzagged) {
  // wchar_t is signed here: -1 is zigzag 1, as docs/format/compact.md says.
  if constexpr (std::is_signed_v<wchar_t>) {
    EXPECT_EQ(bale::serialize<bale::compact>(wchar_t(-1)), std::vector<std::byte>{std::byte{1}});
    const std::vector<std::byte> sixty_four{std::byte{0x80}, std::byte{1}};
    EXPECT_EQ(bale::serialize<bale::compact>(wchar_t(64)), sixty_four);
  }
}

TEST(JsonNumbers, ALongExponentIsNeverCut) {
  const std::string tiny_times_huge = "0." + std::string(199'999, '0') + "1e2000040";
  auto r = bale::try_from_json<double>(tiny_times_huge);
  ASSERT_FALSE(r);  // 1e1840040: out of range, not 10000
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(bale::from_json<double>("0." + std::string(400, '0') + "1e401"), 1.0);
  EXPECT_EQ(bale::from_json<double>("1e0000000000000000001"), 10.0);
}

TEST(JsonNumbers, TooSmallReadsAsZeroTooLargeFails) {
  const double zero = bale::from_json<double>("1e-400");
  EXPECT_EQ(zero, 0.0);
  EXPECT_FALSE(std::signbit(zero));
  EXPECT_TRUE(std::signbit(bale::from_json<double>("-1e-400")));
  EXPECT_EQ(bale::from_json<float>("1e-50"), 0.0F);
  EXPECT_EQ(bale::from_json<double>("0.0000000000000000000001e-390"), 0.0);
  EXPECT_FALSE(bale::try_from_json<double>("1e400"));
  EXPECT_FALSE(bale::try_from_json<float>("1e39"));
  EXPECT_FALSE(bale::try_from_json<double>("-123456789e310"));
}

TEST(JsonNumbers, IndentIsBounded) {
  const std::vector<int> v{1, 2};
  EXPECT_THROW((void)bale::to_json(v, {.pretty = true, .indent = -1}), bale::error);
  EXPECT_THROW((void)bale::to_json(v, {.pretty = true, .indent = 17}), bale::error);
  EXPECT_EQ(bale::to_json(v, {.pretty = true, .indent = 0}), "[\n1,\n2\n]");
}

}  // namespace
