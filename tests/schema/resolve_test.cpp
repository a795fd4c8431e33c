// SPDX-License-Identifier: BSL-1.0
// Reading data written by another version of a type: bale::deserialize_as resolves the writer's
// schema against the reader's (members by name, widening, optionals, enums by name, variants
// grown at the end), refuses every other difference before reading, and reads equal parts as a
// plain read does.

#include <gtest/gtest.h>
#include <unistd.h>
#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <bale/schema/can_read.hpp>
#include <bale/schema/resolve.hpp>

#include <filesystem>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace v1 {
enum class school : std::uint8_t { fire, frost };
BALE_ENUM_NAMES(school, fire, frost)
struct spell {
  std::string name;
  std::int32_t power;
  school kind;
  bool operator==(const spell&) const = default;
};
struct hero {
  std::int32_t level;
  std::vector<spell> spells;
  std::string title;
  std::vector<float> scores;
  std::variant<std::int32_t, std::string> tag;
  bool operator==(const hero&) const = default;
};
}  // namespace v1

namespace v2 {
// A value in the middle: names keep their meaning, numbers move.
enum class school : std::uint16_t { fire, earth, frost };
BALE_ENUM_NAMES(school, fire, earth, frost)
struct spell {
  std::string name;
  std::int64_t power;               // widened
  std::optional<std::string> note;  // added
  school kind;
  bool operator==(const spell&) const = default;
};
struct hero {
  std::int64_t level;
  std::vector<spell> spells;
  // title removed
  std::map<std::string, std::int32_t> gold;             // added
  std::vector<double> scores;                           // widened
  std::variant<std::int32_t, std::string, double> tag;  // an alternative added at the end
  bool operator==(const hero&) const = default;
};
}  // namespace v2

namespace v3 {  // v1 with members added and an optional: both directions read
using v1::school;
struct spell {
  std::optional<std::string> name;  // became optional
  std::int32_t power;
  school kind;
  std::vector<std::int32_t> combo;  // added
  bool operator==(const spell&) const = default;
};
struct hero {
  std::int32_t level = 1;
  std::vector<spell> spells;
  std::string title;
  std::vector<float> scores;
  std::variant<std::int32_t, std::string> tag;
  std::uint8_t rank = 3;  // added, with a default
  bool operator==(const hero&) const = default;
};
}  // namespace v3

namespace renamed {  // v1::spell with two members renamed
struct spell {
  std::string title;
  std::int64_t strength;
  v1::school kind;
};
}  // namespace renamed
template <>
inline constexpr auto bale::former_names<renamed::spell> =
    std::array{bale::former_name{"title", "name"}, bale::former_name{"strength", "power"}};

namespace renumbered {  // the same names as v2 minus "earth", other numbers
enum class school : std::uint16_t { frost = 5, fire = 9 };
BALE_ENUM_NAMES(school, frost, fire)
struct cast {
  school kind;
};
}  // namespace renumbered

namespace retyped {
struct spell {
  std::string name;
  std::string power;  // a number became text: refused
  v1::school kind;
};
struct hero {
  std::int32_t level;
  std::vector<spell> spells;
};
}  // namespace retyped

namespace {

v1::hero old_hero() {
  return {7,
          {{"spark", 40, v1::school::fire}, {"chill", -3, v1::school::frost}},
          "the brave",
          {1.5F, -0.25F},
          std::string("x")};
}

template <class Reader, class Writer, class Format = bale::binary>
Reader read_as(const Writer& written) {
  const auto bytes = bale::serialize<Format>(written);
  return bale::deserialize_as<Reader, Format>(bytes, bale::schema_of<Writer>().text());
}

TEST(Resolve, NewerTypeReadsOlderData) {
  const v2::hero expected{7,
                          {{"spark", 40, std::nullopt, v2::school::fire},
                           {"chill", -3, std::nullopt, v2::school::frost}},
                          {},
                          {1.5, -0.25},
                          std::string("x")};
  EXPECT_EQ((read_as<v2::hero>(old_hero())), expected);
  EXPECT_EQ((read_as<v2::hero, v1::hero, bale::compact>(old_hero())), expected);
}

TEST(Resolve, BothDirectionsWhenOnlyAddingAndWrapping) {
  const v3::hero three = read_as<v3::hero>(old_hero());
  EXPECT_EQ(three.spells[1].name, std::optional<std::string>("chill"));
  EXPECT_TRUE(three.spells[1].combo.empty());
  EXPECT_EQ(three.rank, 3);  // not in the data: its default
  EXPECT_EQ(three.title, "the brave");
  v3::hero newer = three;
  newer.spells[0].combo = {1, 2};
  newer.rank = 9;
  newer.spells[1].name = std::nullopt;  // absent: the older type's default, an empty name
  v1::hero back = read_as<v1::hero>(newer);
  v1::hero expected = old_hero();
  expected.spells[1].name = "";
  EXPECT_EQ(back, expected);
  EXPECT_EQ((read_as<v1::hero, v3::hero, bale::compact>(newer)), expected);
}

TEST(Resolve, EqualSchemasReadAsAPlainRead) {
  EXPECT_EQ(read_as<v1::hero>(old_hero()), old_hero());
}

template <class Reader, class Writer>
bale::error refusal(const Writer& written) {
  try {
    (void)read_as<Reader>(written);
  } catch (const bale::error& e) {
    return e;
  }
  ADD_FAILURE() << "read";
  return bale::error(bale::errc::invalid_value, "");
}

TEST(Resolve, OtherDifferencesAreRefusedBeforeReading) {
  const bale::error e = refusal<retyped::hero>(old_hero());
  EXPECT_EQ(e.code(), bale::errc::wrong_type);
  EXPECT_EQ(e.path(), "spells[].power");
  EXPECT_NE(std::string(e.what()).find(R"(it has "i32" where the type has "string")"),
            std::string::npos)
      << e.what();
  EXPECT_EQ(e.offset(), bale::error::no_offset);  // no byte was read
  // Narrowing.
  v2::hero wide{};
  wide.spells.push_back({"a", 1, {}, v2::school::fire});
  const bale::error narrow = refusal<v1::hero>(wide);
  EXPECT_EQ(narrow.path(), "level");
  EXPECT_NE(std::string(narrow.what()).find("a narrower or other kind of number"),
            std::string::npos);
  // The garbage that follows is never looked at: the schemas alone decide.
  const std::vector<std::byte> garbage(3, std::byte{0xff});
  EXPECT_THROW(
      (void)bale::deserialize_as<retyped::hero>(garbage, bale::schema_of<v1::hero>().text()),
      bale::error);
}

TEST(Resolve, EnumsMatchByNameAndAnUnknownNameIsAnErrorWhenRead) {
  struct cast {
    v2::school kind;
  };
  const std::vector<cast> written{{v2::school::fire}, {v2::school::frost}};
  const auto read = read_as<std::vector<renumbered::cast>>(written);
  ASSERT_EQ(read.size(), 2U);
  EXPECT_EQ(read[0].kind, renumbered::school::fire);
  EXPECT_EQ(read[1].kind, renumbered::school::frost);
  try {
    (void)read_as<std::vector<renumbered::cast>>(std::vector<cast>{{v2::school::earth}});
    ADD_FAILURE();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    EXPECT_EQ(e.path(), "[0].kind");
  }
}

TEST(Resolve, FilesAndRecordFilesResolveWithNoExtraArgument) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("bale_resolve_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const v2::hero expected = read_as<v2::hero>(old_hero());
  bale::save_file(dir / "b.bale", old_hero());
  bale::save_file<bale::compact>(dir / "c.bale", old_hero());
  EXPECT_EQ(bale::load_file<v2::hero>(dir / "b.bale"), expected);
  EXPECT_EQ(bale::load_file<v2::hero>(dir / "c.bale"), expected);
  EXPECT_EQ(*bale::load_file_owned<v2::hero>(dir / "c.bale"), expected);
  const auto refused = bale::try_load_file<retyped::hero>(dir / "b.bale");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), bale::errc::wrong_type);
  EXPECT_EQ(refused.error().path(), "spells[].power");
  {
    bale::record_writer<v1::hero, bale::compact> out(dir / "r.bales");
    out.write(old_hero());
    out.write(v1::hero{});
    out.close();
  }
  bale::record_reader<v2::hero> in(dir / "r.bales");
  EXPECT_EQ(in.next(), expected);
  EXPECT_EQ(in.next(), v2::hero{});
  EXPECT_FALSE(in.next());
  // JSON and MessagePack name members on the wire: the plan is checked, then the names read
  // with unknown members skipped and missing ones at their defaults.
  bale::save_file<bale::json>(dir / "j.bale", old_hero());
  EXPECT_EQ((bale::load_file<v2::hero, bale::json>(dir / "j.bale")), expected);
  bale::save_file<bale::msgpack>(dir / "m.bale", old_hero());
  EXPECT_EQ((bale::load_file<v2::hero, bale::msgpack>(dir / "m.bale")), expected);
  const auto json_refused = bale::try_load_file<retyped::hero, bale::json>(dir / "j.bale");
  ASSERT_FALSE(json_refused);
  EXPECT_EQ(json_refused.error().code(), bale::errc::wrong_type);
  EXPECT_EQ(json_refused.error().path(), "spells[].power");
  const auto msgpack_refused = bale::try_load_file<retyped::hero, bale::msgpack>(dir / "m.bale");
  ASSERT_FALSE(msgpack_refused);
  EXPECT_EQ(msgpack_refused.error().path(), "spells[].power");
  {
    bale::record_writer<v1::hero, bale::json> out(dir / "j.bales");
    out.write(old_hero());
    out.close();
  }
  bale::record_reader<v2::hero, bale::json> json_records(dir / "j.bales");
  EXPECT_EQ(json_records.next(), expected);
  std::filesystem::remove_all(dir);
}

namespace dropped {
struct before {
  std::optional<std::uint32_t> owner;
  std::vector<std::uint16_t> marks;
  std::optional<std::string> note;
  std::optional<std::vector<double>> weights;
  std::int32_t kept = 0;
};
struct after {
  std::int32_t kept = 0;
};
}  // namespace dropped

TEST(Resolve, DroppedMembersAreSteppedOver) {
  const std::vector<dropped::before> written{{7, {1, 2, 3}, "n", std::vector<double>{0.5}, 4},
                                             {std::nullopt, {}, std::nullopt, std::nullopt, 5}};
  const std::string& schema = bale::schema_of<std::vector<dropped::before>>().text();
  for (const auto& bytes : {bale::serialize(written), bale::serialize<bale::compact>(written)}) {
    const bool compact = bytes.size() != bale::serialize(written).size();
    const auto read =
        compact ? bale::deserialize_as<std::vector<dropped::after>, bale::compact>(bytes, schema)
                : bale::deserialize_as<std::vector<dropped::after>>(bytes, schema);
    ASSERT_EQ(read.size(), 2U);
    EXPECT_EQ(read[0].kept, 4);
    EXPECT_EQ(read[1].kept, 5);
  }
  // A dropped sequence whose length the input cannot hold.
  auto bytes = bale::serialize(dropped::before{std::nullopt, {1}, std::nullopt, std::nullopt, 1});
  bytes[1] = std::byte{0xFF};  // marks' length: 255 elements, 2 bytes each, in a few bytes
  try {
    (void)bale::deserialize_as<dropped::after>(bytes, bale::schema_of<dropped::before>().text());
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::length_too_large);
    EXPECT_EQ(e.path(), "marks");
  }
}

TEST(Resolve, RenamedMembersReadByTheirFormerNames) {
  const std::string& text = bale::schema_of<renamed::spell>().text();
  EXPECT_NE(text.find(R"({"name":"title","former":["name"],"type":"string"})"), std::string::npos)
      << text;
  EXPECT_EQ(bale::schema_text(bale::parse_schema(text)), text);
  const auto read = read_as<std::vector<renamed::spell>>(old_hero().spells);
  ASSERT_EQ(read.size(), 2U);
  EXPECT_EQ(read[1].title, "chill");
  EXPECT_EQ(read[1].strength, -3);
  EXPECT_EQ(read[1].kind, v1::school::frost);
  static_assert(bale::can_read<renamed::spell, v1::spell>);
  static_assert(bale::can_read<std::vector<renamed::spell>, std::vector<v1::spell>>);
  // Named formats take the former names too.
  const v1::spell old_spell = old_hero().spells[0];
  const auto from_json = bale::from_json<renamed::spell>(bale::to_json(old_spell));
  EXPECT_EQ(from_json.title, "spark");
  EXPECT_EQ(from_json.strength, 40);
  const auto from_msgpack =
      bale::deserialize<renamed::spell, bale::msgpack>(bale::serialize<bale::msgpack>(old_spell));
  EXPECT_EQ(from_msgpack.title, "spark");
  EXPECT_EQ(from_msgpack.strength, 40);
  // The other way the writer's schema carries the former names, so the older type finds its
  // members: strength, widened to 64 bits, no longer fits power and is refused, not skipped.
  try {
    (void)read_as<v1::spell>(renamed::spell{"x", 4, v1::school::fire});
    FAIL() << "read a 64-bit strength into a 32-bit power";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_EQ(e.path(), "strength");
  }
  static_assert(!bale::can_read<v1::spell, renamed::spell>);
  static_assert(bale::why_not<v1::spell, renamed::spell>().member == "strength");
}

TEST(Resolve, HostileWriterSchemasStopWithinTheLimits) {
  struct just_x {
    std::int32_t x;
  };
  const auto bytes = bale::serialize(std::int32_t{5});
  // A member the reader lacks, of a record that holds itself twice with nothing between: its
  // size is not fixed, and stepping over it by its schema stops at the depth limit.
  const std::string twice =
      R"({"record":[{"name":"x","type":"i32"},{"name":"extra","type":)"
      R"({"record":[{"name":"a","type":{"ref":1}},{"name":"b","type":{"ref":1}}]}}]})";
  try {
    (void)bale::deserialize_as<just_x>(bytes, twice);
    ADD_FAILURE();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::depth_exceeded) << e.what();
  }
  // Not a schema at all.
  EXPECT_THROW((void)bale::deserialize_as<just_x>(bytes, R"({"record":[)"), bale::error);
}

// Writer members the reader lacks that take no bytes: 20,000 of them in each element of a long
// sequence would be minutes of work for 8 bytes of input. Each counts as an empty element.
TEST(Resolve, MembersOfNoBytesCountAgainstTheEmptyElementLimit) {
  struct only_a {
    std::int32_t a;
  };
  std::string record = R"({"record":[{"name":"a","type":"i32"})";
  for (int i = 0; i < 20000; ++i)
    record += R"(,{"name":"n)" + std::to_string(i) + R"(","type":{"tuple":[]}})";
  record += "]}";
  // 52 elements of 4 bytes: a million members of no bytes are stepped over within the limit.
  const auto few = bale::serialize(std::vector<only_a>(52, only_a{7}));
  const auto read =
      bale::deserialize_as<std::vector<only_a>>(few, R"({"sequence":)" + record + "}");
  ASSERT_EQ(read.size(), 52u);
  EXPECT_EQ(read[51].a, 7);
  // 53 pass it, however little the input.
  const auto more = bale::serialize(std::vector<only_a>(53, only_a{7}));
  try {
    (void)bale::deserialize_as<std::vector<only_a>>(more, R"({"sequence":)" + record + "}");
    ADD_FAILURE();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::element_limit) << e.what();
  }
}

// Resolved reads and the skip of a member the type lacks recurse per level of the data: they
// stop at limits::max_stack_bytes, however high max_depth is.
struct deep_tree {
  std::vector<deep_tree> kids;
};
struct deep_tree_v2 {
  std::vector<deep_tree_v2> kids;
  std::int32_t extra = 0;
};

TEST(Resolve, DeepDataStopsAtTheStackBound) {
  // deep_tree_v2 nested `levels` deep, one child per level, written by hand.
  const auto nested = [](std::size_t levels) {
    std::vector<std::byte> bytes;
    const auto put = [&](const auto& scalar) {
      const auto piece = bale::serialize(scalar);
      bytes.insert(bytes.end(), piece.begin(), piece.end());
    };
    for (std::size_t i = 0; i < levels; ++i) put(std::uint64_t{1});
    put(std::uint64_t{0});
    for (std::size_t i = 0; i <= levels; ++i) put(std::int32_t{3});
    return bytes;
  };
  deep_tree_v2 two;
  two.kids.resize(1);
  two.kids[0].kids.resize(1);
  two.kids[0].extra = two.kids[0].kids[0].extra = two.extra = 3;
  ASSERT_EQ(nested(2), bale::serialize(two));

  const std::string writer = bale::schema_of<deep_tree_v2>().text();
  bale::limits deep;
  deep.max_depth = 10'000'000;
  const auto shallow = bale::deserialize_as<deep_tree>(nested(200), writer, deep);
  EXPECT_EQ(shallow.kids.size(), 1u);
  try {
    (void)bale::deserialize_as<deep_tree>(nested(200'000), writer, deep);
    ADD_FAILURE() << "200,000 levels resolved";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::depth_exceeded) << e.what();
    EXPECT_NE(std::string(e.what()).find("max_stack_bytes"), std::string::npos) << e.what();
  }

  // A member the type lacks, nested deep: stepped over by its schema, within the same bound.
  struct only_x {
    std::int32_t x;
  };
  const std::string with_deep = R"({"record":[{"name":"x","type":"i32"},{"name":"deep","type":)"
                                R"({"record":[{"name":"next","type":{"optional":{"ref":1}}}]}}]})";
  auto bytes = bale::serialize(std::int32_t{9});
  bytes.insert(bytes.end(), 1'000'000, std::byte{1});
  bytes.push_back(std::byte{0});
  try {
    (void)bale::deserialize_as<only_x>(bytes, with_deep, deep);
    ADD_FAILURE() << "a million levels stepped over";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::depth_exceeded) << e.what();
  }
  bytes.resize(4);
  bytes.insert(bytes.end(), 300, std::byte{1});
  bytes.push_back(std::byte{0});
  EXPECT_EQ(bale::deserialize_as<only_x>(bytes, with_deep, deep).x, 9);
}

struct fixed_points {
  std::array<std::int32_t, 3> point;
  float weights[2];
  std::string name;
};
struct growing_points {
  std::vector<std::int64_t> point;
  std::vector<double> weights;
  std::string name;
};
static_assert(bale::can_read<growing_points, fixed_points>);
static_assert(!bale::can_read<fixed_points, growing_points>);

TEST(Resolve, AFixedArrayReadsIntoASequence) {
  const fixed_points written{{1, -2, 3}, {0.5F, 0.25F}, "p"};
  for (const auto& read : {read_as<growing_points, fixed_points>(written),
                           read_as<growing_points, fixed_points, bale::compact>(written)}) {
    EXPECT_EQ(read.point, (std::vector<std::int64_t>{1, -2, 3}));
    EXPECT_EQ(read.weights, (std::vector<double>{0.5, 0.25}));
    EXPECT_EQ(read.name, "p");
  }
  // The count comes from the writer's schema: one claiming more elements than the data holds
  // fails at the data's end, having allocated room only for the elements read.
  const auto bytes = bale::serialize(std::array<std::uint8_t, 4>{1, 2, 3, 4});
  const std::string huge = R"({"array":"u8","count":1000000000000})";
  EXPECT_THROW((void)bale::deserialize_as<std::vector<std::uint8_t>>(bytes, huge), bale::error);
  EXPECT_EQ(bale::deserialize_as<std::vector<std::uint8_t>>(bytes, R"({"array":"u8","count":4})"),
            (std::vector<std::uint8_t>{1, 2, 3, 4}));
}

TEST(Resolve, DamagedDataFailsCleanly) {
  const auto bytes = bale::serialize(old_hero());
  const std::string& schema = bale::schema_of<v1::hero>().text();
  const std::span<const std::byte> all(bytes);
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_THROW((void)bale::deserialize_as<v2::hero>(all.first(n), schema), bale::error);
  for (std::size_t bit = 0; bit < 8 * bytes.size(); ++bit) {
    auto flipped = bytes;
    flipped[bit / 8] ^= std::byte(1U << (bit % 8));
    try {
      (void)bale::deserialize_as<v2::hero>(flipped, schema);
    } catch (const bale::error&) {
    }
  }
}

}  // namespace
