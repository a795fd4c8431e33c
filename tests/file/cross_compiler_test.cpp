// SPDX-License-Identifier: BSL-1.0
// Files written by a GCC build and by a Clang build (tests/file/data/), read by this build, which
// either compiler made: the schema, not the compiler's spelling of the type, decides.

#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/file/inspect.hpp>
#include <bale/file/records.hpp>

#include <string>

#include "file/data/cross_compiler.hpp"

namespace {

const std::string data_dir = BALE_TEST_DATA_DIR;

class CrossCompiler : public ::testing::TestWithParam<const char*> {};

TEST_P(CrossCompiler, FilesReadInThisBuild) {
  const std::string base = data_dir + "/tome." + GetParam();
  const std::string expected = bale::to_json(cross::sample());
  EXPECT_EQ(bale::to_json(bale::load_file<cross::tome>(base + ".bale")), expected);
  const auto inspected = bale::inspect_file(base + ".bale");
  EXPECT_EQ(inspected.fingerprint, bale::schema_of<cross::tome>().fingerprint());
  EXPECT_EQ(inspected.schema, bale::schema_of<cross::tome>().text());
  bale::record_reader<cross::tome> records(base + ".bales");
  const auto first = records.next();
  const auto second = records.next();
  ASSERT_TRUE(first && second);
  EXPECT_EQ(bale::to_json(*first), expected);
  EXPECT_EQ(bale::to_json(*second), bale::to_json(cross::tome{}));
  EXPECT_FALSE(records.next());
}

INSTANTIATE_TEST_SUITE_P(Writers, CrossCompiler, ::testing::Values("gcc", "clang"));

}  // namespace
