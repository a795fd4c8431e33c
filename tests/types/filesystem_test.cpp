// SPDX-License-Identifier: BSL-1.0
// std::filesystem::path in every format: its generic UTF-8 string, a string's schema.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bale/types/filesystem.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

struct job {
  std::filesystem::path input;
  std::vector<std::filesystem::path> outputs;
  std::map<std::string, std::filesystem::path> named;
};

const job sample{"data/in.bin",
                 {"out/a.txt", "/tmp/b", "", "caf\xc3\xa9/\xe2\x82\xac.txt"},
                 {{"log", "logs/run.log"}}};

template <class Format>
void round_trip() {
  const auto bytes = bale::serialize<Format>(sample);
  const auto back = bale::deserialize<job, Format>(bytes);
  EXPECT_EQ(back.input, sample.input);
  EXPECT_EQ(back.outputs, sample.outputs);
  EXPECT_EQ(back.named, sample.named);
}

TEST(Filesystem, PathsRoundTripInEveryFormat) {
  round_trip<bale::binary>();
  round_trip<bale::compact>();
  round_trip<bale::msgpack>();
  round_trip<bale::json>();
}

TEST(Filesystem, APathIsItsGenericString) {
  const std::filesystem::path p = "dir/sub/file.txt";
  EXPECT_EQ(bale::serialize(p), bale::serialize(std::string("dir/sub/file.txt")));
  EXPECT_EQ(bale::to_json(p), "\"dir/sub/file.txt\"");
  EXPECT_EQ(bale::schema_of<std::filesystem::path>().text(), bale::schema_of<std::string>().text());
  EXPECT_EQ(bale::from_json<std::filesystem::path>("\"a/b\""), std::filesystem::path("a/b"));
  // Damaged input is an error like any string's.
  auto bytes = bale::serialize(p);
  bytes.resize(bytes.size() - 1);
  EXPECT_FALSE(bale::try_deserialize<std::filesystem::path>(bytes));
  EXPECT_FALSE(bale::try_from_json<std::filesystem::path>("\"\xff\""));
}

}  // namespace
