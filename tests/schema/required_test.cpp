// SPDX-License-Identifier: BSL-1.0
// bale::required_members: a member that data must hold. Resolution refuses data whose writer
// lacked it (and can_read says so at compile time), and JSON refuses an object without it, even
// with allow_missing_members and even when it is an optional.

#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/schema/can_read.hpp>
#include <bale/schema/resolve.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace before {
struct account {
  std::string owner;
  std::int64_t cents = 0;
};
}  // namespace before

namespace now {
struct account {
  std::uint64_t id = 0;  // required: an account without one is no account
  std::string owner;
  std::int64_t cents = 0;
  std::optional<std::string> note;  // required too: present, if empty
};
}  // namespace now
template <>
inline constexpr auto bale::required_members<now::account> =
    std::array<std::string_view, 2>{"id", "note"};

namespace renamed {  // now::account with id renamed; still required, under its former name too
struct account {
  std::uint64_t number = 0;
  std::string owner;
  std::int64_t cents = 0;
  std::optional<std::string> note;
};
}  // namespace renamed
template <>
inline constexpr auto bale::required_members<renamed::account> =
    std::array<std::string_view, 1>{"number"};
template <>
inline constexpr auto bale::former_names<renamed::account> =
    std::array{bale::former_name{"number", "id"}};

namespace {

TEST(Required, InTheSchema) {
  const std::string& text = bale::schema_of<now::account>().text();
  EXPECT_NE(text.find(R"({"name":"id","required":true,"type":"u64"})"), std::string::npos) << text;
  EXPECT_NE(text.find(R"({"name":"owner","type":"string"})"), std::string::npos) << text;
  EXPECT_EQ(bale::schema_text(bale::parse_schema(text)), text);
  EXPECT_EQ(bale::schema_of<before::account>().text().find("required"), std::string::npos);
}

TEST(Required, ResolutionRefusesDataWithoutIt) {
  const auto old_bytes = bale::serialize(before::account{"ada", 5});
  try {
    (void)bale::deserialize_as<now::account>(old_bytes, bale::schema_of<before::account>().text());
    FAIL() << "read data without a required member";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_EQ(e.path(), "id");
    EXPECT_NE(std::string(e.what()).find("a required member the data lacks"), std::string::npos)
        << e.what();
  }
  // Data that holds it reads, under its name or a former one; the other direction skips it.
  const now::account a{7, "ada", 5, std::nullopt};
  const auto bytes = bale::serialize(a);
  const auto back =
      bale::deserialize_as<renamed::account>(bytes, bale::schema_of<now::account>().text());
  EXPECT_EQ(back.number, 7u);
  const auto older =
      bale::deserialize_as<before::account>(bytes, bale::schema_of<now::account>().text());
  EXPECT_EQ(older.owner, "ada");
  EXPECT_EQ(older.cents, 5);
}

TEST(Required, CanReadSaysWhyNot) {
  static_assert(!bale::can_read<now::account, before::account>);
  constexpr bale::readability r = bale::why_not<now::account, before::account>();
  static_assert(r.member == "id");
  static_assert(r.reason == "a required member the data lacks");
  static_assert(bale::can_read<before::account, now::account>);
  static_assert(bale::can_read<renamed::account, now::account>);
  static_assert(bale::can_read<now::account, renamed::account>);  // "number" was "id"
  SUCCEED();
}

TEST(Required, JsonRefusesAnObjectWithoutIt) {
  bale::json_options lenient;
  lenient.allow_missing_members = true;
  const auto parsed =
      bale::from_json<now::account>(R"({"owner":"ada","id":3,"cents":1,"note":null})");
  EXPECT_EQ(parsed.id, 3u);
  EXPECT_FALSE(parsed.note);
  // Lenient: a member that is not required may be missing, a required one may not.
  EXPECT_EQ(bale::from_json<now::account>(R"({"id":3,"note":"x"})", lenient).owner, "");
  for (const char* text : {R"({"owner":"ada","note":null})", R"({"owner":"ada","id":3})"}) {
    try {
      (void)bale::from_json<now::account>(text, lenient);
      FAIL() << text;
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::invalid_value);
      EXPECT_NE(std::string(e.what()).find("missing required member"), std::string::npos)
          << e.what();
    }
  }
  // Under its former name.
  EXPECT_EQ(bale::from_json<renamed::account>(R"({"id":4,"owner":"","cents":0})").number, 4u);
}

}  // namespace
