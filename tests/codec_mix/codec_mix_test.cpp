// SPDX-License-Identifier: BSL-1.0
#include <gtest/gtest.h>

#include "codec_mix.hpp"

TEST(CodecMix, EachTranslationUnitCallsItsOwnCodecs) {
  EXPECT_EQ(zstd_round_trip_with_zstd(), "ok");
  const std::string without = zstd_round_trip_without_codecs();
  EXPECT_NE(without.find("no zstd"), std::string::npos) << without;
}
