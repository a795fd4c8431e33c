// SPDX-License-Identifier: BSL-1.0
// Enums with listed names: names in JSON (values and map keys), numbers in the byte formats, and
// clean errors for a value without a name or a name that is not listed.
#include <gtest/gtest.h>
#include <bale/all.hpp>

#include <map>
#include <vector>

namespace enum_app {
enum class color : std::uint8_t { red, green, blue, unnamed = 9 };
enum level { low = -1, high = 100 };  // unscoped, negative values
enum class mode { fast };             // names listed by hand

struct pixel {
  color tint = color::red;
  level gain = low;
  bool operator==(const pixel&) const = default;
};
}  // namespace enum_app

namespace enum_app::inner {
enum class shade { dark, light };
BALE_ENUM_NAMES(shade, dark, light)  // next to the enum, as BALE_REFLECT is written
struct swatch {
  shade value = shade::dark;
  bool operator==(const swatch&) const = default;
};
}  // namespace enum_app::inner

BALE_ENUM_NAMES(enum_app::color, red, green, blue)
BALE_ENUM_NAMES(enum_app::level, low, high)
template <>
inline constexpr auto bale::enum_names<enum_app::mode> =
    std::array{bale::enum_name<enum_app::mode>{enum_app::mode::fast, "full-speed"}};

namespace {
using enum_app::color;
using enum_app::high;
using enum_app::level;
using enum_app::low;
using enum_app::mode;
using enum_app::pixel;

static_assert(bale::named_enum<color> && bale::named_enum<mode>);
static_assert(!bale::named_enum<std::byte>);

TEST(JsonEnumNames, ValuesAndKeysAreNames) {
  EXPECT_EQ(bale::to_json(pixel{color::blue, high}), R"({"tint":"blue","gain":"high"})");
  EXPECT_EQ(bale::to_json(mode::fast), R"("full-speed")");
  const std::map<color, int> counts{{color::red, 1}, {color::green, 2}};
  EXPECT_EQ(bale::to_json(counts), R"({"red":1,"green":2})");
  EXPECT_EQ(bale::from_json<pixel>(R"({"gain":"low","tint":"green"})"), (pixel{color::green, low}));
  EXPECT_EQ((bale::from_json<std::map<color, int>>(R"({"red":1,"green":2})")), counts);
  EXPECT_EQ(bale::from_json<mode>(R"("full-speed")"), mode::fast);
  // A name is a JSON string like any other: escapes are read.
  EXPECT_EQ(bale::from_json<color>(R"("\u0072ed")"), color::red);
  EXPECT_EQ((bale::from_json<std::map<color, int>>(R"({"gr\u0065en":2})")),
            (std::map<color, int>{{color::green, 2}}));
  const std::vector<pixel> many{{color::red, high}, {color::blue, low}};
  EXPECT_EQ(bale::from_json<std::vector<pixel>>(bale::to_json(many)), many);
}

TEST(JsonEnumNames, ByteFormatsKeepTheNumber) {
  const auto bytes = bale::serialize(pixel{color::blue, high});
  ASSERT_EQ(bytes.size(), 1u + sizeof(level));
  EXPECT_EQ(bytes[0], std::byte{2});
  EXPECT_EQ(bale::deserialize<pixel>(bytes), (pixel{color::blue, high}));
  const auto compact = bale::serialize<bale::compact>(pixel{});
  EXPECT_EQ((bale::deserialize<pixel, bale::compact>(compact)), pixel{});
}

TEST(JsonEnumNames, UnlistedValuesAndNamesAreErrors) {
  try {
    (void)bale::to_json(pixel{color::unnamed, low});
    FAIL() << "a value without a name was written";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("enum value 9 has no listed name"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)bale::to_json(std::map<color, int>{{color::unnamed, 1}}), bale::error);

  const auto not_listed = bale::try_from_json<pixel>(R"({"tint":"purple","gain":"low"})");
  ASSERT_FALSE(not_listed);
  EXPECT_EQ(not_listed.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(not_listed.error().offset(), 8u);
  EXPECT_EQ(not_listed.error().path(), "tint");
  EXPECT_NE(not_listed.error().message().find(R"("purple" is not a listed name)"),
            std::string::npos)
      << not_listed.error().message();
  EXPECT_NE(not_listed.error().message().find(R"("red" "green" "blue")"), std::string::npos);

  // Numbers are not names; the spelled enumerator is, the hand-listed one replaces it.
  EXPECT_FALSE(bale::try_from_json<color>("2"));
  EXPECT_FALSE(bale::try_from_json<color>(R"("Red")"));
  EXPECT_FALSE(bale::try_from_json<mode>(R"("fast")"));
  const auto bad_key = bale::try_from_json<std::map<color, int>>(R"({"red":1,"teal":2})");
  ASSERT_FALSE(bad_key);
  EXPECT_EQ(bad_key.error().offset(), 9u);
}

TEST(EnumNames, ListedInTheEnumsOwnNamespace) {
  using enum_app::inner::shade;
  static_assert(bale::named_enum<shade>);
  EXPECT_EQ(bale::to_json(enum_app::inner::swatch{shade::light}), R"({"value":"light"})");
  EXPECT_EQ(bale::from_json<shade>(R"("dark")"), shade::dark);
  EXPECT_FALSE(bale::try_from_json<shade>(R"("grey")"));
}

}  // namespace
