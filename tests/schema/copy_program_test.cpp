// SPDX-License-Identifier: BSL-1.0
// Vectors of flat records of another layout, read in binary by a copy program: the same values as
// the general path (compact takes it), members the writer lacked at their defaults even in a
// vector that held other values, and input that lies about its length refused.

#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/schema/resolve.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace before {
struct sample {
  float position[3];
  std::int16_t level;
  double weight;  // removed later
  std::uint8_t flags;
  std::array<std::int32_t, 2> range;
};
}  // namespace before

namespace after {
struct sample {
  float position[3] = {};
  std::int64_t level = 0;  // widened
  std::uint8_t flags = 0;
  float health = 1.5F;                     // added
  std::array<std::int64_t, 2> range = {};  // elements widened
  std::uint16_t team = 7;                  // added
};
struct reflected {
  double position[3] = {};
  std::int32_t level = 0;
  std::uint8_t flags = 0;
};
}  // namespace after
BALE_REFLECT(after::reflected, position, level, flags)

namespace {

std::vector<before::sample> samples(std::size_t n) {
  std::vector<before::sample> v(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto x = static_cast<float>(k);
    v[k] = {{x, -x, 0.5F * x},
            static_cast<std::int16_t>(-static_cast<int>(k)),
            2.0 * static_cast<double>(k),
            static_cast<std::uint8_t>(k % 256),
            {static_cast<std::int32_t>(k), -7}};
  }
  return v;
}

void expect_read_as_after(const std::vector<before::sample>& written,
                          const std::vector<after::sample>& read) {
  ASSERT_EQ(read.size(), written.size());
  for (std::size_t k = 0; k < read.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(read[k].position[1], written[k].position[1]);
    EXPECT_EQ(read[k].position[2], written[k].position[2]);
    EXPECT_EQ(read[k].level, written[k].level);
    EXPECT_EQ(read[k].flags, written[k].flags);
    EXPECT_EQ(read[k].health, 1.5F);
    EXPECT_EQ(read[k].range[0], written[k].range[0]);
    EXPECT_EQ(read[k].range[1], -7);
    EXPECT_EQ(read[k].team, 7);
  }
}

TEST(CopyProgram, ReadsWhatTheGeneralPathReads) {
  const std::string& schema = bale::schema_of<std::vector<before::sample>>().text();
  for (const std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{1000}}) {
    const auto written = samples(n);
    // Into a vector that held other values: members the writer lacked are reset too.
    std::vector<after::sample> read(n / 2 + 1);
    for (auto& s : read) s.health = s.team = 99;
    bale::deserialize_as<std::vector<after::sample>>(bale::serialize(written), schema, read);
    expect_read_as_after(written, read);
    expect_read_as_after(written, bale::deserialize_as<std::vector<after::sample>, bale::compact>(
                                      bale::serialize<bale::compact>(written), schema));
  }
  const auto written = samples(300);
  const auto reflected =
      bale::deserialize_as<std::vector<after::reflected>>(bale::serialize(written), schema);
  ASSERT_EQ(reflected.size(), 300U);
  EXPECT_EQ(reflected[299].position[0], 299.0);
  EXPECT_EQ(reflected[299].level, -299);
  EXPECT_EQ(reflected[299].flags, 299 % 256);
}

TEST(CopyProgram, RefusesLengthsTheInputCannotHold) {
  const std::string& schema = bale::schema_of<std::vector<before::sample>>().text();
  auto bytes = bale::serialize(samples(10));
  bytes.resize(bytes.size() - 1);  // the last record cut short
  try {
    (void)bale::deserialize_as<std::vector<after::sample>>(bytes, schema);
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::length_too_large);
    EXPECT_EQ(e.offset(), 0U);
  }
  bytes.assign(8, std::byte{0xFF});  // a length of 2^64 - 1
  EXPECT_THROW((void)bale::deserialize_as<std::vector<after::sample>>(bytes, schema), bale::error);
  // The budget is charged before the vector grows.
  const auto big = bale::serialize(samples(1000));
  bale::limits small;
  small.max_allocation = 1000;
  try {
    (void)bale::deserialize_as<std::vector<after::sample>>(big, schema, small);
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::allocation_limit);
  }
}

}  // namespace
