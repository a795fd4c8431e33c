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

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
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
void write_indexed(const fs::path& p, const std::vector<std::vector<inspected::spell>>& writers,
                   void (*damage)(std::vector<std::uint64_t>&) = nullptr) {
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
  if (damage) damage(offsets);  // the offsets are not under the index's checksum
  const std::vector<std::byte> head = bale::detail::record_index_head(counts);
  file.insert(file.end(), head.begin(), head.end());
  bale::detail::append_record_offsets(file, offsets, 0);
  bale::detail::append_record_index_end(file, records_end, 0, records_end);
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

const std::vector<std::vector<inspected::spell>> five_records{
    {{"a", inspected::school::frost, 2.0F}, {"bb", inspected::school::fire, {}}},
    {{"ccc", inspected::school::fire, 1.0F}, {"dddd", inspected::school::frost, {}}},
    {{"eeeee", inspected::school::fire, 3.0F}}};

// Record 3's offset set to record 4's start: every reader of the index refuses it.
void point_three_at_four(std::vector<std::uint64_t>& offsets) {
  offsets[3] = offsets[4];
}
// Record 1's offset set to record 2's start, record 2's to record 3's (out of order as a whole,
// in order where a seek looks).
void shift_one_and_two(std::vector<std::uint64_t>& offsets) {
  offsets[1] = offsets[2];
  offsets[2] = offsets[3];
}
// Record 1's offset moved 8 bytes into the record: every offset still in order.
void into_record_one(std::vector<std::uint64_t>& offsets) {
  offsets[1] += 8;
}

// The index's checksum covers its offsets: one changed after writing is damage, found at open.
// A writer that wrote wrong offsets under a right checksum is found too: offsets out of order
// at open, a record that does not end where the next offset says when it is read.
TEST_F(Inspect, AReaderAgreesWithTheIndexOrRefusesIt) {
  const fs::path p = dir_ / "damaged_offsets.bales";
  write_indexed(p, five_records);
  {
    auto bytes = bale_test::read_all<std::byte>(p);
    const std::size_t offsets_at = bytes.size() - 16 - 8 * 6;  // N + 1 = 6 offsets
    bytes[offsets_at + 8 * 3] ^= std::byte{0x10};  // record 3's offset, checksum as written
    bale_test::write_all(p, bytes);
    try {
      bale::record_reader<inspected::spell> in(p);
      ADD_FAILURE() << "an index changed after writing opened";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::checksum_mismatch) << e.what();
    }
  }
  const auto expect_disagreement = [](auto&& read) {
    try {
      read();
      ADD_FAILURE() << "a record read through a damaged index";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
      EXPECT_NE(std::string(e.what()).find("record index"), std::string::npos) << e.what();
    }
  };
  for (auto* damage : {&point_three_at_four, &shift_one_and_two}) {
    write_indexed(p, five_records, damage);
    expect_disagreement([&] { bale::record_reader<inspected::spell> in(p); });
  }
  write_indexed(p, five_records, &into_record_one);
  {
    bale::record_reader<inspected::spell> in(p);
    expect_disagreement([&] {
      in.seek(0);
      (void)in.next();  // record 0 ends where record 1 starts, not where the index says
    });
    expect_disagreement([&] { (void)in.read(0, 2); });
    EXPECT_THROW(
        {
          in.seek(1);
          (void)in.next();
        },
        bale::error);
    in.seek(4);
    EXPECT_EQ(in.next()->name, "eeeee");
  }
  write_indexed(p, five_records);
  bale::record_reader<inspected::spell> sound(p);
  for (std::size_t i = 0; i < 5; ++i) {
    sound.seek(4 - i);
    EXPECT_EQ(sound.next()->name, std::string(5 - i, static_cast<char>('e' - i)));
  }
}

struct reading {
  double value;
  std::string label;
  std::vector<float> samples;
};
struct branch {
  std::vector<branch> below;
};

// Each line the tool prints is one whole JSON object, whatever the file holds or lacks.
void expect_whole_lines(const std::string& out, std::size_t lines) {
  EXPECT_EQ(static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n')), lines) << out;
  std::size_t begin = 0;
  for (std::size_t n = 0; n < lines; ++n) {
    const std::size_t end = out.find('\n', begin);
    ASSERT_NE(end, std::string::npos) << out;
    const std::string_view line(out.data() + begin, end - begin);
    if (!line.starts_with("bale-inspect: ")) {  // stderr, merged by run_tool
      EXPECT_TRUE(line.starts_with("{\"file\":")) << line;
      EXPECT_TRUE(line.ends_with("}")) << line;
      int depth = 0;
      bool in_string = false;
      for (std::size_t i = 0; i < line.size(); ++i) {
        if (in_string) {
          if (line[i] == '\\')
            ++i;
          else if (line[i] == '"')
            in_string = false;
        } else if (line[i] == '"') {
          in_string = true;
        } else if (line[i] == '{' || line[i] == '[') {
          ++depth;
        } else if (line[i] == '}' || line[i] == ']') {
          --depth;
          EXPECT_GE(depth, 0) << line;
        }
      }
      EXPECT_EQ(depth, 0) << line;
      EXPECT_FALSE(in_string) << line;
    }
    begin = end + 1;
  }
}

TEST_F(Inspect, TheToolPrintsWholeLinesForWhatJsonCannotHold) {
#ifndef BALE_INSPECT_PATH
  GTEST_SKIP() << "bale-inspect is not built (BALE_BUILD_TOOLS=OFF)";
#else
  int status = -1;
  const fs::path odd = dir_ / "odd.bale";
  bale::save_file(odd, reading{std::nan(""),
                               std::string("\xff\xfe", 2),
                               {std::numeric_limits<float>::infinity(),
                                -std::numeric_limits<float>::infinity(), 1.5F}});
  const std::string out = run_tool(odd.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << out;
  expect_whole_lines(out, 1);
  EXPECT_NE(out.find(R"("value":{"value":"NaN","label":{"not_utf8":"//4="},)"
                     R"("samples":["Infinity","-Infinity",1.5]})"),
            std::string::npos)
      << out;

  // Nested deep: printed whole.
  branch deep;
  branch* at = &deep;
  for (int level = 0; level < 100; ++level) at = &at->below.emplace_back();
  const fs::path tree = dir_ / "deep.bale";
  bale::save_file(tree, deep);
  const std::string deep_out = run_tool(tree.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << deep_out.substr(0, 300);
  expect_whole_lines(deep_out, 1);

  // A damaged index before a sound file. Found before the line begins (offsets out of order):
  // no line, the error on stderr with the file's name. Found as the records are read (offsets
  // in order, each at the wrong record): the line is whole and ends with the error, which
  // stderr repeats. The next file's line stands on its own either way.
  const fs::path damaged = dir_ / "damaged.bales";
  write_indexed(damaged, five_records, &point_three_at_four);
  const std::string early = run_tool(damaged.string() + " " + odd.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << early;
  expect_whole_lines(early, 2);
  EXPECT_NE(early.find("bale-inspect: " + damaged.string() + ": "), std::string::npos) << early;
  write_indexed(damaged, five_records, &into_record_one);
  const std::string late = run_tool(damaged.string() + " " + odd.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << late;
  expect_whole_lines(late, 3);
  EXPECT_NE(late.find("record index that disagrees with its records"), std::string::npos) << late;
  EXPECT_NE(late.find("\"}\nbale-inspect: " + damaged.string() + ": "), std::string::npos) << late;

  // --max-output bounds a line: the records printed so far, then the error.
  const fs::path many = dir_ / "many.bales";
  {
    bale::record_writer<inspected::spell> records(many);
    for (int i = 0; i < 100; ++i) records.write({"record", inspected::school::fire, 1.0F});
    records.close();
  }
  const std::string cut = run_tool("--max-output 400 " + many.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << cut;
  expect_whole_lines(cut, 2);
  EXPECT_NE(cut.find("longer than --max-output"), std::string::npos) << cut;
  EXPECT_LT(cut.size(), 1000u) << cut;
  (void)run_tool("--max-output lots " + many.string(), status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
#endif
}

}  // namespace
