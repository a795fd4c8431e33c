// SPDX-License-Identifier: BSL-1.0
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <string>

namespace {

TEST(Release, VersionStringSpellsTheMacros) {
  const std::string expected = std::to_string(BALE_VERSION_MAJOR) + "." +
                               std::to_string(BALE_VERSION_MINOR) + "." +
                               std::to_string(BALE_VERSION_PATCH);
  EXPECT_EQ(bale::version_string, expected);
  EXPECT_EQ(BALE_VERSION,
            BALE_VERSION_MAJOR * 10000 + BALE_VERSION_MINOR * 100 + BALE_VERSION_PATCH);
}

TEST(Release, PackageCarriesTheHeadersVersion) {
  EXPECT_EQ(std::string(bale::version_string), BALE_PROJECT_VERSION);
}

TEST(Release, FormatVersionIsTheValueFormats) {
  EXPECT_EQ(bale::wire_versions::value_format, unsigned{BALE_FORMAT_VERSION});
  EXPECT_GE(BALE_FORMAT_VERSION, 1);
}

}  // namespace
