// SPDX-License-Identifier: BSL-1.0
// Files read without their C++ type: bale::inspect_file and bale::record_inspector decode the
// content by the schema the file carries, and the bale-inspect tool prints it as JSON.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>
#include <algorithm>

#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/file/inspect.hpp>
#include <bale/file/record_index.hpp>
#include <bale/file/records.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "support/file_bytes.hpp"

namespace fs = std::filesystem;

namespace inspected {
enum class school : std::uint8_t { fire, frost };
BALE_ENUM_NAMES(school, fire, frost)
struct spell {
  std::string name;
  school kind;
  std::optional<float> cost;
};
struct hero {
  std::int32_t level;
  std::vector<spell> spells;
  std::map<std::string, std::uint64_t> gold;
};
}  // namespace inspected

namespace {

inspected::hero sample() {
  return {7,
          {{"spark", inspected::school::fire, 1.5F}, {"chill", inspected::school::frost, {}}},
          {{"bank", 100}, {"purse", 3}}};
}

constexpr const char* sample_json =
    R"({"level":7,"spells":[{"name":"spark","kind":"fire","cost":1.5},)"
    R"({"name":"chill","kind":"frost","cost":null}],"gold":{"bank":100,"purse":3}})";

class Inspect : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bale_inspect_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(Inspect, AFileReadsByItsSchemaInEveryByteFormat) {
  const fs::path b = dir_ / "b.bale", c = dir_ / "c.bale";
  bale::save_file(b, sample());
  bale::save_file<bale::compact>(c, sample());
  for (const fs::path& p : {b, c}) {
    const bale::file_inspection f = bale::inspect_file(p);
    EXPECT_EQ(f.format, p == b ? "binary" : "compact");
    EXPECT_EQ(f.version, 2U);
    EXPECT_EQ(f.compression, bale::codec::none);
    EXPECT_EQ(f.schema, bale::schema_of<inspected::hero>().text());
    EXPECT_EQ(f.fingerprint, bale::schema_of<inspected::hero>().fingerprint());
    ASSERT_TRUE(f.content);
    EXPECT_EQ(bale::to_json(*f.content), sample_json);
    EXPECT_EQ(bale::to_json(*f.content), bale::to_json(sample()));
  }
}

TEST_F(Inspect, CompressedFiles) {
  if (!bale::codec_available(bale::codec::zstd)) GTEST_SKIP() << "built without zstd";
  const fs::path p = dir_ / "z.bale";
  bale::save_file(p, sample(), {.compression = bale::codec::zstd});
  const auto f = bale::inspect_file(p);
  EXPECT_EQ(f.compression, bale::codec::zstd);
  ASSERT_TRUE(f.content);
  EXPECT_EQ(bale::to_json(*f.content), sample_json);
}

TEST_F(Inspect, SelfDescribingFilesKeepTheirContent) {
  const fs::path p = dir_ / "j.bale";
  bale::save_file<bale::json>(p, sample());
  const auto f = bale::inspect_file(p);
  EXPECT_EQ(f.format, "json");
  EXPECT_EQ(f.schema, bale::schema_of<inspected::hero>().text());
  EXPECT_FALSE(f.content);
}

TEST_F(Inspect, RecordFiles) {
  const fs::path p = dir_ / "r.bales";
  {
    bale::record_writer<inspected::spell, bale::compact> out(p);
    out.write({"a", inspected::school::frost, 2.0F});
    out.write({"b", inspected::school::fire, {}});
    out.close();
  }
  bale::record_inspector in(p);
  EXPECT_EQ(in.format(), "compact");
  EXPECT_EQ(in.schema(), bale::schema_of<inspected::spell>().text());
  std::vector<std::string> seen;
  while (const auto r = in.next()) seen.push_back(bale::to_json(*r));
  EXPECT_EQ(seen, (std::vector<std::string>{R"({"name":"a","kind":"frost","cost":2})",
                                            R"({"name":"b","kind":"fire","cost":null})"}));
}

// An indexed record file as bale::mpi::save_file writes it, one writer after another.
void write_indexed(const fs::path& p, const std::vector<std::vector<inspected::spell>>& writers) {
  std::vector<std::byte> file = bale::detail::record_file_head<inspected::spell, bale::binary>(
      bale::wire_versions::indexed_record_file);
  std::vector<std::uint64_t> offsets, counts;
  for (const auto& records : writers) {
    counts.push_back(records.size());
    for (const auto& r : records) {
      offsets.push_back(file.size());
      bale::detail::append_record<bale::binary>(file, r);
    }
  }
  const std::uint64_t records_end = file.size();
  const std::vector<std::byte> head = bale::detail::record_index_head(counts);
  file.insert(file.end(), head.begin(), head.end());
  bale::detail::append_record_offsets(file, offsets, 0);
  bale::detail::append_record_index_end(file, records_end, head);
  bale_test::write_all(p, file);
}

const std::vector<std::vector<inspected::spell>> three_writers{
    {{"a", inspected::school::frost, 2.0F}, {"bb", inspected::school::fire, {}}},
    {},
    {{"ccc", inspected::school::fire, 1.0F}}};

TEST_F(Inspect, AnIndexedRecordFileListsItsWritersAndRecordExtents) {
  const fs::path p = dir_ / "indexed.bales";
  write_indexed(p, three_writers);
  bale::record_inspector in(p);
  ASSERT_TRUE(in.indexed());
  EXPECT_EQ(in.first_of_writers(), (std::vector<std::uint64_t>{0, 2, 2, 3}));
  const std::vector<std::uint64_t> offsets = in.record_offsets();
  ASSERT_EQ(offsets.size(), 4u);
  // Each extent holds the 8-byte size prefix and the record: name size, name, kind, cost.
  EXPECT_EQ(offsets[1] - offsets[0], 8u + 8 + 1 + 1 + 1 + 4);
  EXPECT_EQ(offsets[2] - offsets[1], 8u + 8 + 2 + 1 + 1);
  EXPECT_EQ(offsets[3] - offsets[2], 8u + 8 + 3 + 1 + 1 + 4);
  std::size_t seen = 0;
  while (in.next()) ++seen;
  EXPECT_EQ(seen, 3u);  // the index is not read as records

  const fs::path plain = dir_ / "plain.bales";
  {
    bale::record_writer<inspected::spell> out(plain);
    out.write(three_writers[0][0]);
    out.close();
  }
  bale::record_inspector unindexed(plain);
  EXPECT_FALSE(unindexed.indexed());
  EXPECT_THROW((void)unindexed.first_of_writers(), bale::error);
  EXPECT_THROW((void)unindexed.record_offsets(), bale::error);
}

TEST_F(Inspect, DamageIsReportedWithItsPlaceInTheFile) {
  const fs::path p = dir_ / "d.bale";
  bale::save_file(p, sample());
  auto bytes = bale_test::read_all<std::byte>(p);
  // Cut the payload short and reseal both checksums: the decoder, not the CRC, finds it.
  bytes.resize(bytes.size() - 3);
  bale::detail::put_u64(bytes.data() + 16, bytes.size() - 40);
  bale::detail::put_u64(bytes.data() + 24, bytes.size() - 40);
  bale_test::reseal(bytes);
  bale_test::write_all(p, bytes);
  try {
    (void)bale::inspect_file(p);
    ADD_FAILURE();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::end_of_input);
    EXPECT_GT(e.offset(), 40U + bale::detail::schema_block_size(
                                    bale::schema_of<inspected::hero>().text().size()));
    EXPECT_NE(std::string(e.what()).find("d.bale"), std::string::npos);
  }
}

TEST_F(Inspect, AHostileSchemaIsRefusedWithItsOffset) {
  const fs::path p = dir_ / "h.bale";
  bale::save_file(p, std::int32_t{5});
  auto bytes = bale_test::read_all<std::byte>(p);
  // "i32" becomes "i99": the same length, checksums resealed.
  const std::size_t digit = 40 + 4 + 2;
  ASSERT_EQ(static_cast<char>(bytes[digit]), '3');
  bytes[digit] = std::byte{'9'};
  bytes[digit + 1] = std::byte{'9'};
  bale::detail::put_u64(bytes.data() + 8, bale::detail::fnv1a64(R"("i99")"));
  bale_test::reseal(bytes);
  bale_test::write_all(p, bytes);
  try {
    (void)bale::inspect_file(p);
    ADD_FAILURE();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_EQ(e.offset(), 44U);
    EXPECT_NE(std::string(e.what()).find("unknown scalar"), std::string::npos);
  }
}

#ifdef BALE_INSPECT_PATH
// The installed tool, run on the files above.
std::string run_tool(const std::string& arguments, int& status) {
  const std::string command = std::string(BALE_INSPECT_PATH) + " " + arguments + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) out.append(chunk, n);
  status = ::pclose(pipe);
  return out;
}
#endif

TEST_F(Inspect, TheToolPrintsHeaderSchemaAndValue) {
#ifndef BALE_INSPECT_PATH
  GTEST_SKIP() << "bale-inspect is not built (BALE_BUILD_TOOLS=OFF)";
#else
  const fs::path p = dir_ / "hero.bale";
  bale::save_file(p, sample());
  int status = -1;
  const std::string out = run_tool(p.string(), status);
  char fingerprint[17];
  std::snprintf(fingerprint, sizeof fingerprint, "%016llx",
                static_cast<unsigned long long>(bale::schema_of<inspected::hero>().fingerprint()));
  EXPECT_EQ(status, 0);
  EXPECT_EQ(out, "{\"file\":\"" + p.string() +
                     "\",\"kind\":\"file\",\"format\":\"binary\",\"version\":2,"
                     "\"compression\":\"none\",\"fingerprint\":\"" +
                     fingerprint + "\",\"schema\":" + bale::schema_of<inspected::hero>().text() +
                     ",\"value\":" + sample_json + "}\n");

  const fs::path r = dir_ / "spells.bales";
  {
    bale::record_writer<inspected::spell> out_records(r);
    out_records.write({"a", inspected::school::frost, 2.0F});
    out_records.close();
  }
  EXPECT_EQ(run_tool(r.string(), status),
            "{\"file\":\"" + r.string() +
                "\",\"kind\":\"records\",\"format\":\"binary\",\"version\":2,\"schema\":" +
                bale::schema_of<inspected::spell>().text() +
                R"(,"records":[{"name":"a","kind":"frost","cost":2}]})" + "\n");
  EXPECT_EQ(status, 0);

  // An indexed file: its writers (the second wrote nothing) and every record's extent.
  const fs::path indexed = dir_ / "indexed.bales";
  write_indexed(indexed, three_writers);
  const std::vector<std::uint64_t> at = bale::record_inspector(indexed).record_offsets();
  const auto n = [](std::uint64_t v) { return std::to_string(v); };
  const std::string listed = run_tool("--schema-only " + indexed.string(), status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(listed.find(R"(,"records":null,"writers":[{"first":0,"count":2,"offset":)" + n(at[0]) +
                        R"(,"bytes":)" + n(at[2] - at[0]) + R"(},{"first":2,"count":0,"offset":)" +
                        n(at[2]) + R"(,"bytes":0},{"first":2,"count":1,"offset":)" + n(at[2]) +
                        R"(,"bytes":)" + n(at[3] - at[2]) + R"(}],"extents":[[)" + n(at[0]) + "," +
                        n(at[1] - at[0]) + "],[" + n(at[1]) + "," + n(at[2] - at[1]) + "],[" +
                        n(at[2]) + "," + n(at[3] - at[2]) + "]]}\n"),
            std::string::npos)
      << listed;

  const std::string missing = run_tool((dir_ / "none.bale").string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_NE(missing.find("cannot open"), std::string::npos) << missing;
#endif
}

}  // namespace

namespace inspected {
// Described by hand: only its C++ type knows its bytes.
struct sealed {
  std::int32_t secret = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(secret);
  }
};
struct holder {
  std::int32_t level;
  sealed inside;
};
}  // namespace inspected

namespace {

TEST_F(Inspect, TheToolsOptionsAndExitStatuses) {
#ifndef BALE_INSPECT_PATH
  GTEST_SKIP() << "bale-inspect is not built (BALE_BUILD_TOOLS=OFF)";
#else
  int status = -1;
  const std::string help = run_tool("--help", status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(help.find("--schema-only"), std::string::npos) << help;
  EXPECT_NE(help.find("Exit status"), std::string::npos) << help;
  (void)run_tool("--frobnicate", status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  // --schema-only: the header and the schema, no value.
  const fs::path p = dir_ / "hero.bale";
  bale::save_file(p, sample());
  const std::string schema_only = run_tool("--schema-only " + p.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(schema_only.find(bale::schema_of<inspected::hero>().text()), std::string::npos);
  EXPECT_NE(schema_only.find("\"value\":null}"), std::string::npos) << schema_only;
  // A type described by hand: header and schema printed, status 3, the reason given.
  const fs::path sealed = dir_ / "sealed.bale";
  bale::save_file(sealed, inspected::holder{4, {9}});
  const std::string out = run_tool(sealed.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 3) << out;
  EXPECT_NE(out.find(bale::schema_of<inspected::holder>().text()), std::string::npos) << out;
  EXPECT_NE(out.find("\"value\":null,\"undecoded\":"), std::string::npos) << out;
  EXPECT_NE(out.find("described by hand"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  const auto inspected = bale::inspect_file(sealed);
  EXPECT_FALSE(inspected.content);
  EXPECT_NE(inspected.undecoded.find("described by hand"), std::string::npos);
  // Damage outranks it: status 1.
  auto bytes = bale_test::read_all<std::byte>(p);
  bytes.back() ^= std::byte{1};
  bale_test::write_all(p, bytes);
  (void)run_tool(sealed.string() + " " + p.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 1);
#endif
}

}  // namespace
