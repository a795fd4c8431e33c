// SPDX-License-Identifier: BSL-1.0
// Resolution tells "the same record, evolved" from "another record": a record with no member in
// common with the reader's is refused; renames are followed from either side; two writer members
// never read into one reader member; a schema names nothing twice. In files of every format,
// record files, deserialize_as and can_read alike.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <bale/json/format.hpp>
#include <bale/msgpack/format.hpp>
#include <bale/schema/can_read.hpp>
#include <bale/schema/resolve.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace identity {
struct mesh {
  std::string name;
  std::vector<float> xs;
  std::vector<int> idx;
};
struct sample {
  std::uint64_t t = 0;
  double v = 0;
};
struct empty {};
struct nothing_either {};
namespace v1 {
struct hero {
  std::string name;
  std::int32_t power = 0;
};
}  // namespace v1
namespace v2 {
struct hero {
  std::string name;
  std::int32_t strength = 0;  // was power
};
}  // namespace v2
// A writer that kept the old member beside the renamed one: two members onto v2's strength.
namespace both {
struct hero {
  std::string name;
  std::int32_t strength = 0;
  std::int32_t power = 0;
};
}  // namespace both
struct box {
  std::unique_ptr<int> p;
  bale::observer<int> o;
};
}  // namespace identity
template <>
inline constexpr auto bale::former_names<identity::v2::hero> =
    std::array{bale::former_name{"strength", "power"}};

namespace {

namespace fs = std::filesystem;
using namespace identity;

class RecordIdentity : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bale_record_identity_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

template <class T>
void expect_wrong_type(const bale::result<T>& r, const std::string& says) {
  ASSERT_FALSE(r) << "read another record";
  EXPECT_EQ(r.error().code(), bale::errc::wrong_type) << r.error().what();
  EXPECT_NE(std::string(r.error().what()).find(says), std::string::npos) << r.error().what();
}

TEST_F(RecordIdentity, AnUnrelatedRecordIsRefusedInEveryFileFormat) {
  const mesh m{"wing", {1, 2}, {0, 1}};
  const auto p = dir_ / "mesh.bale";
  const std::string why = "another record";
  bale::save_file(p, m, {.sync = false});
  expect_wrong_type(bale::try_load_file<sample>(p), why);
  // Both sides are named: the data's members and the type's.
  const auto r = bale::try_load_file<sample>(p);
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.error().what()).find("\"xs\""), std::string::npos) << r.error().what();
  EXPECT_NE(std::string(r.error().what()).find("\"v\""), std::string::npos) << r.error().what();
  bale::save_file<bale::compact>(p, m, {.sync = false});
  expect_wrong_type(bale::try_load_file<sample>(p), why);
  bale::save_file<bale::msgpack>(p, m, {.sync = false});
  expect_wrong_type(bale::try_load_file<sample, bale::msgpack>(p), why);
  bale::save_file<bale::json>(p, m, {.sync = false});
  expect_wrong_type(bale::try_load_file<sample, bale::json>(p), why);
  // An empty record is not a wildcard either way; two empty ones are the same.
  bale::save_file(p, empty{}, {.sync = false});
  expect_wrong_type(bale::try_load_file<sample>(p), why);
  EXPECT_TRUE(bale::try_load_file<nothing_either>(p));
  bale::save_file(p, m, {.sync = false});
  expect_wrong_type(bale::try_load_file<empty>(p), why);
}

TEST_F(RecordIdentity, AnUnrelatedRecordIsRefusedInRecordFiles) {
  const auto p = dir_ / "meshes.bales";
  {
    bale::record_writer<mesh> out(p);
    out.write(mesh{"a", {1}, {2}});
  }
  try {
    bale::record_reader<sample> in(p);
    (void)in.next();
    FAIL() << "read a mesh as a sample";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_NE(std::string(e.what()).find("another record"), std::string::npos) << e.what();
  }
}

TEST(RecordIdentityResolve, AnUnrelatedRecordIsRefusedEverywhere) {
  const auto bytes = bale::serialize(mesh{"wing", {1}, {2}});
  EXPECT_THROW((void)bale::deserialize_as<sample>(bytes, bale::schema_of<mesh>().text()),
               bale::error);
  // Nested, the member path says where.
  struct outer_mesh {
    std::int32_t id;
    mesh part;
  };
  struct outer_sample {
    std::int32_t id;
    sample part;
  };
  try {
    (void)bale::deserialize_as<outer_sample>(bale::serialize(outer_mesh{1, {}}),
                                             bale::schema_of<outer_mesh>().text());
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_EQ(e.path(), "part");
  }
  static_assert(!bale::can_read<sample, mesh>);
  static_assert(!bale::can_read<mesh, sample>);
  static_assert(!bale::can_read<sample, empty>);
  static_assert(bale::can_read<empty, nothing_either>);
  static_assert(bale::why_not<sample, mesh>().reason ==
                "another record: no member of the data is a member of the type");
  static_assert(!bale::can_read<outer_sample, outer_mesh>);
  static_assert(bale::why_not<outer_sample, outer_mesh>().member == "part");
}

TEST_F(RecordIdentity, RenamesAreFollowedFromBothSides) {
  // Today's type reads yesterday's data (the reader knows the former name) ...
  const auto old_bytes = bale::serialize(v1::hero{"ada", 99});
  EXPECT_EQ(bale::deserialize_as<v2::hero>(old_bytes, bale::schema_of<v1::hero>().text()).strength,
            99);
  // ... and yesterday's type reads today's (the writer's schema carries it).
  const auto new_bytes = bale::serialize(v2::hero{"ada", 99});
  EXPECT_EQ(bale::deserialize_as<v1::hero>(new_bytes, bale::schema_of<v2::hero>().text()).power,
            99);
  const auto p = dir_ / "hero.bale";
  bale::save_file(p, v2::hero{"ada", 99}, {.sync = false});
  EXPECT_EQ(bale::load_file<v1::hero>(p).power, 99);
  bale::save_file<bale::compact>(p, v2::hero{"ada", 99}, {.sync = false});
  EXPECT_EQ(bale::load_file<v1::hero>(p).power, 99);
  static_assert(bale::can_read<v1::hero, v2::hero>);
  static_assert(bale::can_read<v2::hero, v1::hero>);
  // Formats that find members by name cannot follow a rename the reader does not know: refused,
  // never the default in place of the data.
  bale::save_file<bale::json>(p, v2::hero{"ada", 99}, {.sync = false});
  expect_wrong_type(bale::try_load_file<v1::hero, bale::json>(p), "renamed");
  bale::save_file<bale::msgpack>(p, v2::hero{"ada", 99}, {.sync = false});
  expect_wrong_type(bale::try_load_file<v1::hero, bale::msgpack>(p), "renamed");
  // The reader's own former names work there.
  bale::save_file<bale::json>(p, v1::hero{"ada", 99}, {.sync = false});
  EXPECT_EQ((bale::load_file<v2::hero, bale::json>(p).strength), 99);
}

TEST(RecordIdentityResolve, TwoWriterMembersNeverReadIntoOne) {
  // both::hero has strength and power; v2::hero's strength was power.
  const auto bytes = bale::serialize(both::hero{"ada", 1, 2});
  try {
    (void)bale::deserialize_as<v2::hero>(bytes, bale::schema_of<both::hero>().text());
    FAIL() << "read two members into one";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_EQ(e.path(), "strength");
    EXPECT_NE(std::string(e.what()).find("two members of the data"), std::string::npos) << e.what();
  }
  static_assert(!bale::can_read<v2::hero, both::hero>);
  static_assert(bale::why_not<v2::hero, both::hero>().member == "strength");
}

// A member named twice in a writer's schema would be read twice into one member: with a
// unique_ptr and an observer, the second read frees what the observer points at.
TEST(RecordIdentityResolve, ASchemaNamingAMemberTwiceIsRefused) {
  const std::string own = bale::schema_of<box>().text();
  const std::string twice = R"({"record":[{"name":"p","type":{"unique":"i32"}},)"
                            R"({"name":"p","type":{"unique":"i32"}},)"
                            R"({"name":"o","type":{"observer":"i32"}}]})";
  // Two unique pointees, then an observer of the first: what a hostile writer would send.
  std::vector<std::byte> bytes;
  bale::serialize_into(bytes, box{});
  try {
    (void)bale::parse_schema(twice);
    FAIL() << "parsed a schema naming p twice";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("\"p\" twice"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)bale::deserialize_as<box>(bytes, twice), bale::error);
  EXPECT_FALSE(own.empty());
}

TEST(RecordIdentityResolve, NamesAreDistinctEverywhereInASchema) {
  const auto refused = [](const std::string& text, const std::string& says) {
    try {
      (void)bale::parse_schema(text);
      ADD_FAILURE() << "parsed " << text;
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::invalid_value);
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  // A member and another member's former name.
  refused(R"({"record":[{"name":"a","type":"i32"},{"name":"b","former":["a"],"type":"i32"}]})",
          "\"a\" twice");
  // One former name twice.
  refused(R"({"record":[{"name":"a","former":["x","x"],"type":"i32"}]})", "\"x\" twice");
  // An enum's names.
  refused(R"({"enum":"u8","names":{"red":0,"red":1}})", "\"red\" twice");
  // A variant's alternatives.
  refused(R"({"variant":["i32","string"],"names":["n","n"]})", "\"n\" twice");
  // Distinct names parse.
  EXPECT_NO_THROW(
      (void)bale::parse_schema(R"({"record":[{"name":"a","former":["x"],"type":"i32"}]})"));
}

// Names embed in JSON as they are (bale-inspect prints the schema inside its line of JSON): a
// control character or bytes that are not UTF-8 are refused where the text has them.
TEST(RecordIdentityResolve, SchemaNamesAreUtf8WithoutControlCharacters) {
  const auto refused = [](const std::string& name, const std::string& says) {
    const std::string text = R"({"record":[{"name":")" + name + R"(","type":"i32"}]})";
    try {
      (void)bale::parse_schema(text);
      ADD_FAILURE() << "parsed a name of " << name.size() << " bytes";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::invalid_value);
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
      EXPECT_EQ(e.offset(), 20U + name.find_first_of(std::string("\n\x7f\xc0\xed\xf5\xe2", 6)));
    }
  };
  refused("a\nb", "control character");
  refused("a\x7f", "control character");
  refused("\xc0\x80", "not UTF-8");                               // overlong
  refused("x\xed\xa0\x80", "not UTF-8");                          // a surrogate
  refused("\xf5\x80\x80\x80", "not UTF-8");                       // past U+10FFFF
  refused("\xe2\x82", "not UTF-8");                               // cut short
  const std::string utf8 = "gr\xc3\xb6\xc3\x9f\xf0\x9f\x98\x80";  // U+00F6 U+00DF U+1F600
  EXPECT_NO_THROW(
      (void)bale::parse_schema(R"({"record":[{"name":")" + utf8 + R"(","type":"i32"}]})"));
}

}  // namespace
