// SPDX-License-Identifier: BSL-1.0
// Variants whose alternatives all have a bale::stable_name match them by name when data of
// another layout is read: added anywhere, reordered or removed. Without names, by position.

#include <gtest/gtest.h>
#include <unistd.h>
#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/schema/can_read.hpp>
#include <bale/schema/resolve.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace shapes {
struct circle {
  double radius = 0;
};
struct square {
  double side = 0;
};
struct triangle {
  double base = 0, height = 0;
};
struct text_circle {  // circle whose radius became text: does not
  std::string radius;
};
}  // namespace shapes
template <>
inline constexpr std::string_view bale::stable_name<shapes::circle> = "circle";
template <>
inline constexpr std::string_view bale::stable_name<shapes::square> = "square";
template <>
inline constexpr std::string_view bale::stable_name<shapes::triangle> = "triangle";
template <>
inline constexpr std::string_view bale::stable_name<shapes::text_circle> = "circle";

namespace {

using written = std::variant<std::monostate, shapes::circle, shapes::square>;
using reordered = std::variant<shapes::square, shapes::triangle, shapes::circle>;

TEST(VariantNames, InTheSchema) {
  const std::string& text = bale::schema_of<written>().text();
  EXPECT_NE(text.find(R"(,"names":["none","circle","square"]})"), std::string::npos) << text;
  EXPECT_EQ(bale::schema_text(bale::parse_schema(text)), text);
  // Unnamed alternatives: by position, no names.
  using unnamed = std::variant<int, shapes::circle>;
  EXPECT_EQ(bale::schema_of<unnamed>().text().find("names"), std::string::npos);
  for (const char* bad : {R"({"variant":["i32","u8"],"names":["a"]})",
                          R"({"variant":["i32","u8"],"names":["a","a"]})"})
    EXPECT_THROW((void)bale::parse_schema(bad), bale::error) << bad;
}

TEST(VariantNames, AlternativesMatchByName) {
  const std::vector<written> values{shapes::circle{2}, shapes::square{3}};
  const std::string& schema = bale::schema_of<std::vector<written>>().text();
  const auto check = [](const std::vector<reordered>& read) {
    ASSERT_EQ(read.size(), 2U);
    ASSERT_TRUE(std::holds_alternative<shapes::circle>(read[0]));
    EXPECT_EQ(std::get<shapes::circle>(read[0]).radius, 2);
    ASSERT_TRUE(std::holds_alternative<shapes::square>(read[1]));
    EXPECT_EQ(std::get<shapes::square>(read[1]).side, 3);
  };
  check(bale::deserialize_as<std::vector<reordered>>(bale::serialize(values), schema));
  check(bale::deserialize_as<std::vector<reordered>, bale::compact>(
      bale::serialize<bale::compact>(values), schema));
  // A value holding an alternative the reader lacks: an error when it is read.
  try {
    (void)bale::deserialize_as<reordered>(bale::serialize(written{}),
                                          bale::schema_of<written>().text());
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find(R"(alternative "none")"), std::string::npos) << e.what();
  }
}

TEST(VariantNames, CanReadMatchesByNameToo) {
  static_assert(bale::can_read<reordered, written>);
  static_assert(bale::can_read<written, reordered>);  // triangle: an error only if one is read
  using retyped = std::variant<shapes::text_circle, shapes::square>;
  static_assert(!bale::can_read<retyped, written>);
  constexpr bale::readability r = bale::why_not<retyped, written>();
  static_assert(r.member == "radius");
  // Without names on both sides, positions count: fewer alternatives cannot be read.
  static_assert(!bale::can_read<std::variant<int>, std::variant<int, double>>);
  SUCCEED();
}

TEST(VariantNames, NamedFormatsCannotFollowMovedAlternatives) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("bale_variant_names_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const written value = shapes::square{4};
  bale::save_file(dir / "b.bale", value);
  EXPECT_EQ(std::get<shapes::square>(bale::load_file<reordered>(dir / "b.bale")).side, 4);
  bale::save_file<bale::json>(dir / "j.bale", value);
  const auto json = bale::try_load_file<reordered, bale::json>(dir / "j.bale");
  ASSERT_FALSE(json);
  EXPECT_EQ(json.error().code(), bale::errc::wrong_type);
  EXPECT_NE(std::string(json.error().what()).find("alternatives moved"), std::string::npos)
      << json.error().what();
  std::filesystem::remove_all(dir);
}

}  // namespace
