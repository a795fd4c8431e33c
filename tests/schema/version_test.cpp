// SPDX-License-Identifier: BSL-1.0
// bale::version and ar.version(): a type described by hand branches on the version its data was
// written with. The version is stored once per type per message, in every format, and is part of
// the schema, so files and deserialize_as resolve it.

#include <gtest/gtest.h>
#include <unistd.h>
#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/schema/resolve.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "support/file_bytes.hpp"

// The same type as three builds described it: ver0 stored no version, ver1 had no charges, ver2
// (today's) has them. The names have one length, so a file's schema can be retargeted in place.
namespace ver0 {
struct rune {
  std::string name;
  std::int32_t power = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name), bale::field("power", power));
  }
};
}  // namespace ver0

namespace ver1 {
struct rune {
  std::string name;
  std::int32_t power = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name), bale::field("power", power));
  }
};
}  // namespace ver1
template <>
inline constexpr std::uint32_t bale::version<ver1::rune> = 1;

namespace ver2 {
struct rune {
  std::string name;
  std::int32_t power = 0;
  std::int32_t charges = 1;  // since version 2
  template <class Archive>
  void save(Archive& ar) const {
    ar(bale::field("name", name), bale::field("power", power), bale::field("charges", charges));
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(bale::field("name", name), bale::field("power", power));
    if (ar.version() >= 2)
      ar(bale::field("charges", charges));
    else
      charges = 1;
  }
};
}  // namespace ver2
template <>
inline constexpr std::uint32_t bale::version<ver2::rune> = 2;

namespace {

// A type that writes no names (an array in JSON), holding versioned values of another type, and
// noting the versions its load saw around them.
struct glyph {
  std::int32_t x = 0, y = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x, y);
  }
};

struct tome {
  std::vector<ver2::rune> runes;
  std::vector<glyph> marks;
  std::uint32_t seen_before = 0, seen_after = 0;  // not written: what load saw
  template <class Archive>
  void save(Archive& ar) const {
    EXPECT_EQ(ar.version(), 5u);
    ar(runes, marks);
    EXPECT_EQ(ar.version(), 5u);  // the runes' versions did not leak out
  }
  template <class Archive>
  void load(Archive& ar) {
    seen_before = ar.version();
    ar(runes, marks);
    seen_after = ar.version();
  }
};

// A type with no version of its own, read inside a versioned one: its ar.version() is 0.
struct plain {
  std::uint32_t seen = 99;
  template <class Archive>
  void save(Archive& ar) const {
    ar(std::int32_t{4});
  }
  template <class Archive>
  void load(Archive& ar) {
    seen = ar.version();
    std::int32_t v = 0;
    ar(v);
  }
};
struct holder {
  plain inner;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(inner);
  }
};

}  // namespace

template <>
inline constexpr std::uint32_t bale::version<glyph> = 3;
template <>
inline constexpr std::uint32_t bale::version<tome> = 5;
template <>
inline constexpr std::uint32_t bale::version<holder> = 7;

namespace {

tome sample_tome() {
  tome t;
  t.runes = {{"ur", 3, 2}, {"eh", 5, 9}};
  t.marks = {{1, 2}, {3, 4}, {5, 6}};
  return t;
}

template <class Format>
void expect_round_trip() {
  const auto bytes = bale::serialize<Format>(sample_tome());
  const auto back = bale::deserialize<tome, Format>(bytes);
  ASSERT_EQ(back.runes.size(), 2u);
  EXPECT_EQ(back.runes[1].name, "eh");
  EXPECT_EQ(back.runes[1].charges, 9);
  ASSERT_EQ(back.marks.size(), 3u);
  EXPECT_EQ(back.marks[2].y, 6);
  EXPECT_EQ(back.seen_before, 5u);
  EXPECT_EQ(back.seen_after, 5u);

  const auto inner = bale::deserialize<holder, Format>(bale::serialize<Format>(holder{}));
  EXPECT_EQ(inner.inner.seen, 0u);
}

TEST(Version, EveryFormatRoundTripsAndLoadSeesItsOwnVersion) {
  expect_round_trip<bale::binary>();
  expect_round_trip<bale::compact>();
  expect_round_trip<bale::json>();
  expect_round_trip<bale::msgpack>();
}

TEST(Version, StoredOncePerTypePerMessage) {
  std::vector<ver1::rune> versioned(1000, ver1::rune{"ka", 1});
  std::vector<ver0::rune> unversioned(1000, ver0::rune{"ka", 1});
  EXPECT_EQ(bale::serialized_size(versioned), bale::serialized_size(unversioned) + 4);
  EXPECT_EQ(bale::serialized_size<bale::compact>(versioned),
            bale::serialized_size<bale::compact>(unversioned) + 1);
  // Each message holds its own: two values written by one writer are two messages.
  std::vector<std::byte> stream;
  bale::writer<bale::binary> out(stream);
  out(versioned, versioned);
  EXPECT_EQ(stream.size(), 2 * bale::serialized_size(versioned));
  bale::reader<bale::binary> in(stream);
  std::vector<ver2::rune> a, b;
  in(a, b);
  EXPECT_EQ(b.size(), 1000u);
  EXPECT_EQ(b.back().charges, 1);  // version 1 data: the default
}

TEST(Version, TheJsonFormIsAMemberOrAFirstValue) {
  tome t;
  t.runes = {{"ur", 3, 2}, {"eh", 5, 9}};
  t.marks = {{1, 2}, {3, 4}};
  EXPECT_EQ(bale::to_json(t), R"([5,[{"bale_version":2,"name":"ur","power":3,"charges":2},)"
                              R"({"name":"eh","power":5,"charges":9}],[[3,1,2],[3,4]]])");
  const auto pretty = bale::to_json(t, {.pretty = true});
  EXPECT_EQ(bale::from_json<tome>(pretty).runes[0].charges, 2);
  // Members in any order, the version among them.
  const auto reordered = bale::from_json<std::vector<ver2::rune>>(
      R"([{"power":3,"name":"ur","bale_version":1},{"name":"eh","power":5}])");
  EXPECT_EQ(reordered[0].charges, 1);
  EXPECT_EQ(reordered[1].power, 5);
}

TEST(Version, OlderDataReadsThroughTheBranch) {
  const std::vector<ver1::rune> old{{"ka", 1}, {"lo", 2}};
  const auto check = [](const std::vector<ver2::rune>& read) {
    ASSERT_EQ(read.size(), 2u);
    EXPECT_EQ(read[1].name, "lo");
    EXPECT_EQ(read[1].power, 2);
    EXPECT_EQ(read[1].charges, 1);
  };
  check(bale::deserialize<std::vector<ver2::rune>>(bale::serialize(old)));
  check(bale::deserialize<std::vector<ver2::rune>, bale::compact>(
      bale::serialize<bale::compact>(old)));
  check(bale::from_json<std::vector<ver2::rune>>(bale::to_json(old)));
  check(bale::deserialize<std::vector<ver2::rune>, bale::msgpack>(
      bale::serialize<bale::msgpack>(old)));
}

TEST(Version, NewerDataIsAnErrorThatNamesTheType) {
  const std::vector<ver2::rune> newer{{"ka", 1, 3}};
  const auto bytes = bale::serialize(newer);
  try {
    (void)bale::deserialize<std::vector<ver1::rune>>(bytes);
    FAIL() << "read data of a newer version";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_EQ(e.offset(), 8u);  // after the vector's length
    EXPECT_NE(std::string(e.what()).find("ver1::rune data of version 2, newer than this build's "
                                         "version 1"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)bale::from_json<std::vector<ver1::rune>>(bale::to_json(newer)), bale::error);
  // A version missing where one is due, and a version cut short.
  try {
    (void)bale::from_json<std::vector<ver1::rune>>(R"([{"name":"ka","power":1}])");
    FAIL() << "read a first value without its version";
  } catch (const bale::error& e) {
    EXPECT_NE(std::string(e.what()).find("bale_version"), std::string::npos) << e.what();
  }
  const std::vector<std::byte> cut(bytes.begin(), bytes.begin() + 10);
  try {
    (void)bale::deserialize<std::vector<ver2::rune>>(cut);
    FAIL() << "read a version cut short";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::end_of_input);
  }
}

TEST(Version, TheSchemaCarriesTheVersion) {
  EXPECT_EQ(bale::schema_of<ver2::rune>().text(), R"({"opaque":"ver2::rune","version":2})");
  EXPECT_EQ(bale::schema_of<ver0::rune>().text(), R"({"opaque":"ver0::rune"})");
  const auto tree = bale::parse_schema(bale::schema_of<ver2::rune>().text());
  EXPECT_EQ(bale::schema_text(tree), bale::schema_of<ver2::rune>().text());
  for (const char* bad : {R"({"opaque":"a","version":0})", R"({"opaque":"a","version":01})",
                          R"({"opaque":"a","version":4294967296})"})
    EXPECT_THROW((void)bale::parse_schema(bad), bale::error) << bad;
}

// The writer's schema text of `Writer`, as if it had been written by the ver2 build's namespace.
template <class Writer>
std::string as_written_by_this_name() {
  std::string text = bale::schema_of<Writer>().text();
  const std::string from = text.substr(text.find("ver"), 4);
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
    text.replace(at, 4, "ver2");
  return text;
}

TEST(Version, ResolutionReadsOlderVersionsAndDataWithNone) {
  const std::vector<ver1::rune> v1{{"ka", 1}};
  const auto from_v1 = bale::deserialize_as<std::vector<ver2::rune>>(
      bale::serialize(v1), as_written_by_this_name<std::vector<ver1::rune>>());
  EXPECT_EQ(from_v1.at(0).charges, 1);
  // Data written before the type had a version holds none: it reads as version 0.
  const std::vector<ver0::rune> v0{{"ka", 1}, {"lo", 2}};
  const auto from_v0 = bale::deserialize_as<std::vector<ver2::rune>, bale::compact>(
      bale::serialize<bale::compact>(v0), as_written_by_this_name<std::vector<ver0::rune>>());
  ASSERT_EQ(from_v0.size(), 2u);
  EXPECT_EQ(from_v0[1].power, 2);
  EXPECT_EQ(from_v0[1].charges, 1);
  // A newer writer, or another type described by hand, is refused before reading.
  try {
    (void)bale::deserialize_as<ver2::rune>(bale::serialize(ver2::rune{}),
                                           R"({"opaque":"ver2::rune","version":3})");
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_NE(std::string(e.what()).find("a newer version"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)bale::deserialize_as<ver2::rune>(bale::serialize(ver1::rune{}),
                                                      bale::schema_of<ver1::rune>().text()),
               bale::error);
}

class VersionFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("bale_version_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // Saves `value`, then names its schema's ver0/ver1 types ver2 (the same length), as the ver2
  // build's older self would have written it.
  template <class T>
  std::filesystem::path saved_by_older_build(const T& value) {
    const auto p = dir_ / "old.bale";
    bale::save_file<bale::compact>(p, value);
    auto bytes = bale_test::read_all<std::byte>(p);
    const std::string text = as_written_by_this_name<T>();
    std::memcpy(bytes.data() + 44, text.data(), text.size());
    bale::detail::put_u64(bytes.data() + 8, bale::detail::fnv1a64(text));
    bale_test::reseal(bytes);
    bale_test::write_all(p, bytes);
    return p;
  }
  std::filesystem::path dir_;
};

TEST_F(VersionFile, LoadFileResolvesVersions) {
  const auto v1 = bale::load_file<std::vector<ver2::rune>>(
      saved_by_older_build(std::vector<ver1::rune>{{"ka", 1}}));
  EXPECT_EQ(v1.at(0).charges, 1);
  const auto v0 = bale::load_file<std::vector<ver2::rune>>(
      saved_by_older_build(std::vector<ver0::rune>{{"ka", 1}, {"lo", 7}}));
  EXPECT_EQ(v0.at(1).power, 7);
  EXPECT_EQ(v0.at(1).charges, 1);
}

}  // namespace
