// SPDX-License-Identifier: BSL-1.0
// Schemas read back from text (bale::parse_schema) and values decoded by schema alone
// (bale::decode_by_schema): every form round-trips through its text, a value decoded from binary
// or compact bytes without its C++ type prints as the JSON of the typed value, and hostile schemas
// and bytes are refused within the limits.

#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/schema/decode.hpp>

#include <array>
#include <bitset>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace shop {

enum class tier : std::uint8_t { basic, gold };
BALE_ENUM_NAMES(tier, basic, gold)
enum class unnamed : std::int16_t { a = -3, b = 9 };

struct item {
  std::string name;
  std::int32_t count;
  double price;
  std::optional<std::uint16_t> discount;
};

struct customer {
  std::uint64_t id;
  tier level;
  bool active;
  std::vector<item> cart;
  std::map<std::string, std::int64_t> points;
  std::set<std::string> tags;
  std::variant<std::monostate, std::int32_t, std::string> note;
  std::array<float, 3> position;
  std::vector<std::vector<std::int8_t>> grid;
};

struct everything_else {
  unnamed u;
  std::map<std::int32_t, std::string> by_number;
  std::pair<std::int8_t, bool> pair;
  std::bitset<70> bits;
  std::chrono::milliseconds wait;
  std::u16string wide;
  char letter;
};

struct settings {
  std::int32_t volume = 5;
  bool muted = false;
  std::string name = "x";
};

struct link {
  std::unique_ptr<link> next;
};

}  // namespace shop

template <>
inline constexpr bool bale::omit_defaults<shop::settings> = true;

namespace {

shop::customer sample_customer() {
  shop::customer c{};
  c.id = 1ULL << 40;
  c.level = shop::tier::gold;
  c.active = true;
  c.cart = {{"tea", 3, 2.5, std::nullopt}, {"cup", -1, 0.125, 7}};
  c.points = {{"spring", -4}, {"summer", 1LL << 50}};
  c.tags = {"b", "a"};
  c.note = std::string("call back");
  c.position = {1.5F, -2.0F, 0.0F};
  c.grid = {{1, -2}, {}, {127}};
  return c;
}

template <class T>
bale::schema_tree tree_of() {
  return bale::parse_schema(bale::schema_of<T>().text());
}

template <class Format, class T>
std::string decoded_json(const T& v) {
  const auto bytes = bale::serialize<Format>(v);
  return bale::to_json(bale::decode_by_schema<Format>(tree_of<T>(), bytes));
}

template <class T>
void expect_text_round_trip() {
  const std::string& text = bale::schema_of<T>().text();
  EXPECT_EQ(bale::schema_text(bale::parse_schema(text)), text);
}

TEST(ParseSchema, EveryFormReadsBackToItsText) {
  expect_text_round_trip<shop::customer>();
  expect_text_round_trip<shop::everything_else>();
  expect_text_round_trip<shop::settings>();
  expect_text_round_trip<shop::link>();
  expect_text_round_trip<std::shared_ptr<const double>>();
  expect_text_round_trip<std::u8string>();
  expect_text_round_trip<std::chrono::sys_time<std::chrono::seconds>>();
  expect_text_round_trip<std::tuple<>>();
  // Values past INT64_MAX in an unsigned enum keep their bits.
  const std::string big = R"({"enum":"u64","names":{"top":18446744073709551615}})";
  EXPECT_EQ(bale::schema_text(bale::parse_schema(big)), big);
}

TEST(ParseSchema, ARecordMetAgainIsTheSameNode) {
  const bale::schema_tree tree = tree_of<shop::link>();
  ASSERT_EQ(tree.records.size(), 1U);
  const bale::schema_node& record = tree[tree.records[0]];
  ASSERT_EQ(record.kind, bale::schema_kind::record);
  const bale::schema_node& next = tree[record.children[0]];
  ASSERT_EQ(next.kind, bale::schema_kind::pointer);
  EXPECT_EQ(next.children[0], tree.records[0]);
}

void expect_refused(std::string_view text, std::string_view words) {
  try {
    (void)bale::parse_schema(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << text;
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(ParseSchema, RefusesWhatSchemaOfNeverWrites) {
  expect_refused(R"({"ref":0})", "reference to record 0 of 0");
  expect_refused(R"({"record":[{"name":"a","type":{"ref":1}}]})", "reference to record 1");
  expect_refused(R"("i33")", "unknown scalar");
  expect_refused(R"({"sequence": "i32"})", "expected");
  expect_refused(R"({"queue":"i32"})", "unknown form");
  expect_refused(R"({"map":["i32"]})", "a key and a value");
  expect_refused(R"({"array":"i32","count":01})", "expected a number");
  expect_refused(R"({"array":"i32","count":99999999999999999999})", "too large");
  expect_refused(R"({"opaque":"a\b"})", "may escape only");
  expect_refused(R"("i32" )", "text after the schema");
  expect_refused("", "expected");
  // One text per schema: other spellings of a form are refused.
  expect_refused(R"({"string":"char"})", "a string of a type other than");
  expect_refused(R"({"string":"i32"})", "a string of a type other than");
  expect_refused(R"({"enum":"u8","names":{}})", "expected");
  expect_refused(R"({"enum":"u8","names":{"a":-1}})", "expected a number");
  expect_refused(R"({"enum":"i8","names":{"a":-0}})", "out of range");
  expect_refused(R"({"enum":"i64","names":{"a":9223372036854775808}})", "out of range");
  expect_refused(R"({"record":[{"name":"a","former":[],"type":"i8"}]})", "expected");
}

TEST(ParseSchema, EveryPrefixOfAGoodTextIsRefused) {
  const std::string& text = bale::schema_of<shop::customer>().text();
  for (std::size_t n = 0; n < text.size(); ++n) {
    try {
      (void)bale::parse_schema(std::string_view(text).substr(0, n));
      ADD_FAILURE() << "accepted a prefix of " << n << " characters";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::invalid_value);
      EXPECT_LE(e.offset(), n);
    }
  }
}

TEST(ParseSchema, DepthAndSizeAreLimited) {
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += R"({"optional":)";
  deep += R"("i32")";
  deep.append(300, '}');
  expect_refused(deep, "nested deeper than 256");
  EXPECT_NO_THROW((void)bale::parse_schema(deep, {.max_size = 1 << 20, .max_depth = 400}));
  expect_refused(std::string(2 << 20, ' '), "longer than the limit");
}

TEST(DecodeBySchema, ReadsAsTheTypedValueWritesJson) {
  const shop::customer c = sample_customer();
  const std::string expected = bale::to_json(c);
  EXPECT_EQ(decoded_json<bale::binary>(c), expected);
  EXPECT_EQ(decoded_json<bale::compact>(c), expected);
  const shop::customer empty{};
  EXPECT_EQ(decoded_json<bale::binary>(empty), bale::to_json(empty));
}

TEST(DecodeBySchema, FormsWithoutAJsonTwin) {
  shop::everything_else v{};
  v.u = shop::unnamed::a;
  v.by_number = {{-1, "minus"}, {2, "two"}};
  v.pair = {-7, true};
  v.bits.set(0).set(69);
  v.wait = std::chrono::milliseconds(1500);
  v.wide = u"h\u00e9";
  v.letter = 'q';
  const std::string expected =
      R"({"u":-3,"by_number":[[-1,"minus"],[2,"two"]],"pair":[-7,true],"bits":[1,32],)"
      R"("wait":1500,"wide":[104,233],"letter":"q"})";
  EXPECT_EQ(decoded_json<bale::binary>(v), expected);
  EXPECT_EQ(decoded_json<bale::compact>(v), expected);
}

TEST(DecodeBySchema, DefaultsOmittingRecordsShowWhatWasWritten) {
  shop::settings s;
  s.muted = true;
  EXPECT_EQ(decoded_json<bale::binary>(s), R"({"muted":true})");
  EXPECT_EQ(decoded_json<bale::compact>(shop::settings{}), "{}");
}

TEST(DecodeBySchema, PointersAndOpaqueTypesNeedTheirType) {
  shop::link l;
  l.next = std::make_unique<shop::link>();
  try {
    (void)decoded_json<bale::binary>(l);
    ADD_FAILURE();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_EQ(e.path(), "next");
    EXPECT_NE(std::string(e.what()).find("unique pointer"), std::string::npos);
  }
  const auto opaque = bale::parse_schema(R"({"opaque":"ns::thing"})");
  const auto bytes = bale::serialize(std::int32_t{1});
  try {
    (void)bale::decode_by_schema<bale::binary>(opaque, bytes);
    ADD_FAILURE();
  } catch (const bale::error& e) {
    EXPECT_NE(std::string(e.what()).find("ns::thing"), std::string::npos);
  }
}

void expect_decode_error(std::string_view schema, std::span<const std::byte> bytes,
                         bale::errc code) {
  try {
    (void)bale::decode_by_schema<bale::binary>(bale::parse_schema(schema), bytes);
    ADD_FAILURE() << schema;
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
  }
}

TEST(DecodeBySchema, HostileSchemasStopWithinTheLimits) {
  const std::array<std::byte, 8> few{};
  // A record that holds itself with nothing between: no bytes are read, the depth stops it.
  expect_decode_error(R"({"record":[{"name":"a","type":{"ref":0}}]})", few,
                      bale::errc::depth_exceeded);
  // A huge count of values that take no bytes is charged before it is read.
  expect_decode_error(R"({"array":"none","count":18446744073709551615})", few,
                      bale::errc::allocation_limit);
  expect_decode_error(R"({"bits":18446744073709551615})", few, bale::errc::allocation_limit);
  // A sequence of empty values: its length is checked against the empty-element limit.
  std::array<std::byte, 8> huge_length{};
  huge_length.fill(std::byte{0xff});
  expect_decode_error(R"({"sequence":{"tuple":[]}})", huge_length, bale::errc::length_too_large);
  expect_decode_error(R"({"variant":["i32"]})", huge_length, bale::errc::invalid_value);
  expect_decode_error(R"("f80")", few, bale::errc::wrong_type);
}

// What a decoded value holds beyond the input's bytes is charged too: member names copied into
// every record, and arrays of a schema's count whose elements take no bytes.
TEST(DecodeBySchema, NamesAndEmptyElementsAreCharged) {
  const std::string name(4000, 'n');
  const std::string schema = R"({"sequence":{"record":[{"name":")" + name + R"(","type":"u8"}]}})";
  std::vector<std::byte> bytes = bale::serialize(std::vector<std::uint8_t>(40000, 1));  // 40 KB
  const bale::schema_tree tree = bale::parse_schema(schema);
  try {
    (void)bale::decode_by_schema<bale::binary>(tree, bytes, {.max_allocation = 1 << 20});
    ADD_FAILURE() << "160 MB of names from 40 KB under a 1 MiB budget";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::allocation_limit) << e.what();
  }
  // The same input and schema within a budget that pays for the names.
  const bale::value v =
      bale::decode_by_schema<bale::binary>(tree, bytes, {.max_allocation = 1u << 30});
  ASSERT_NE(v.get_if<bale::value::array>(), nullptr);
  EXPECT_EQ(v.get_if<bale::value::array>()->size(), 40000u);

  expect_decode_error(R"({"array":{"tuple":[]},"count":26000000})", {}, bale::errc::element_limit);
  expect_decode_error(R"({"array":{"record":[]},"count":2000000})", {}, bale::errc::element_limit);
  // Within the limits, an array of empty values reads.
  const bale::value empties = bale::decode_by_schema<bale::binary>(
      bale::parse_schema(R"({"array":{"tuple":[]},"count":1000})"), {});
  EXPECT_EQ(empties.get_if<bale::value::array>()->size(), 1000u);
}

// A schema that holds itself through an optional, and bytes that nest it as deep as they like:
// the read stops at limits::max_stack_bytes of stack, however high max_depth is.
TEST(DecodeBySchema, DeepNestingStopsAtTheStackBound) {
  const bale::schema_tree tree =
      bale::parse_schema(R"({"record":[{"name":"next","type":{"optional":{"ref":0}}}]})");
  const auto nested = [](std::size_t levels) {
    std::vector<std::byte> bytes(levels, std::byte{1});
    bytes.push_back(std::byte{0});
    return bytes;
  };
  bale::limits deep;
  deep.max_depth = 10'000'000;
  EXPECT_NO_THROW((void)bale::decode_by_schema<bale::binary>(tree, nested(500), deep));
  try {
    (void)bale::decode_by_schema<bale::binary>(tree, nested(1'000'000), deep);
    ADD_FAILURE() << "a million levels decoded";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::depth_exceeded) << e.what();
    EXPECT_NE(std::string(e.what()).find("max_stack_bytes"), std::string::npos) << e.what();
  }
  deep.max_stack_bytes = 64 << 10;
  EXPECT_THROW((void)bale::decode_by_schema<bale::binary>(tree, nested(5'000), deep), bale::error);
}

// An enum of 70,000 names read 200,000 times: scanned per value, minutes; searched, at once.
TEST(DecodeBySchema, LongEnumsAreSearchedNotScanned) {
  std::string schema = R"({"sequence":{"enum":"i32","names":{)";
  for (int i = 0; i < 70000; ++i) {
    if (i != 0) schema += ',';
    schema += "\"v" + std::to_string(i) + "\":" + std::to_string(i);
  }
  schema += "}}}";
  std::vector<std::int32_t> values(200000);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<std::int32_t>(69999 - i % 70000);
  values[7] = 70000;  // no name: read as its number
  const bale::value v = bale::decode_by_schema<bale::binary>(
      bale::parse_schema(schema, {.max_size = 4 << 20}), bale::serialize(values));
  const auto& read = *v.get_if<bale::value::array>();
  ASSERT_EQ(read.size(), values.size());
  EXPECT_EQ(read[0], bale::value(std::string("v69999")));
  EXPECT_EQ(read[6], bale::value(std::string("v69993")));
  EXPECT_EQ(read[7], bale::value(std::int64_t{70000}));
}

TEST(DecodeBySchema, DamagedBytesFailCleanly) {
  const auto tree = tree_of<shop::customer>();
  for (const bool compact : {false, true}) {
    const auto bytes = compact ? bale::serialize<bale::compact>(sample_customer())
                               : bale::serialize<bale::binary>(sample_customer());
    const std::span<const std::byte> all(bytes);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      EXPECT_THROW((void)(compact ? bale::decode_by_schema<bale::compact>(tree, all.first(n))
                                  : bale::decode_by_schema<bale::binary>(tree, all.first(n))),
                   bale::error);
    }
    for (std::size_t bit = 0; bit < 8 * bytes.size(); ++bit) {
      auto flipped = bytes;
      flipped[bit / 8] ^= std::byte(1U << (bit % 8));
      try {
        (void)(compact ? bale::decode_by_schema<bale::compact>(tree, flipped)
                       : bale::decode_by_schema<bale::binary>(tree, flipped));
      } catch (const bale::error&) {
      }
    }
  }
}

TEST(DecodeBySchema, TrailingBytesAreAnError) {
  auto bytes = bale::serialize(std::int32_t{4});
  bytes.push_back(std::byte{0});
  expect_decode_error(R"("i32")", bytes, bale::errc::trailing_bytes);
}

}  // namespace
