// SPDX-License-Identifier: BSL-1.0
#include <bale/all.hpp>

#include "support/roundtrip.hpp"

namespace errors_app {
struct point {
  double x, y;
  std::string label;
  bool flag;
};
struct cell {
  int id;
  std::vector<point> corners;
};
struct sheet {
  std::vector<cell> cells;
};
}  // namespace errors_app

namespace {

TEST(Error, PathNamesReflectedMembersAndIndices) {
  errors_app::sheet s;
  for (int i = 0; i < 4; ++i)
    s.cells.push_back(errors_app::cell{i, {{1, 2, "a", true}, {3, 4, "b", false}}});
  auto bytes = bale::serialize(s);
  // Find the flag of cells[3].corners[1] from the end: it is the last byte.
  bytes.back() = std::byte{9};
  try {
    (void)bale::deserialize<errors_app::sheet>(bytes);
    FAIL() << "expected an error";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_EQ(e.path(), "cells[3].corners[1].flag");
    EXPECT_EQ(e.offset(), bytes.size() - 1);
    const std::string what = e.what();
    EXPECT_NE(what.find("cells[3].corners[1].flag"), std::string::npos) << what;
    EXPECT_NE(what.find("at byte " + std::to_string(bytes.size() - 1)), std::string::npos) << what;
    EXPECT_NE(what.find("invalid_value"), std::string::npos) << what;
  }
  auto r = bale::try_deserialize<errors_app::sheet>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path(), "cells[3].corners[1].flag");
  EXPECT_EQ(r.error().message(), std::string(r.error().what()));
}

TEST(Error, IsARuntimeError) {
  const std::vector<std::byte> empty;
  try {
    (void)bale::deserialize<int>(empty);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("end_of_input"), std::string::npos);
  }
}

TEST(Error, TrailingBytes) {
  auto bytes = bale::serialize(42);
  bytes.push_back(std::byte{1});
  bytes.push_back(std::byte{2});
  auto r = bale::try_deserialize<int>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::trailing_bytes);
  EXPECT_EQ(r.error().offset(), 4u);
  EXPECT_THROW((void)bale::deserialize<int>(bytes), bale::error);
}

TEST(Error, AnErrorAboutNoByteNamesNone) {
  std::array<std::byte, 2> small{};
  try {
    (void)bale::serialize_to(std::span(small), std::uint64_t{1});
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::buffer_too_small);
    EXPECT_FALSE(e.has_offset());
    EXPECT_EQ(std::string(e.what()).find("at byte"), std::string::npos) << e.what();
  }
  const bale::error at_zero(bale::errc::invalid_value, "bad", 0);
  EXPECT_TRUE(at_zero.has_offset());
  EXPECT_NE(std::string(at_zero.what()).find("at byte 0"), std::string::npos);
  EXPECT_EQ(at_zero.offset_in_whole(8), 8u);
  EXPECT_EQ(bale::error(bale::errc::io_error, "x").offset_in_whole(8), bale::error::no_offset);
}

TEST(Error, MessageOfEveryPart) {
  bale::error e(bale::errc::invalid_value, "bool byte is 7, not 0 or 1", 12);
  EXPECT_EQ(std::string(e.what()), "bale: invalid_value: bool byte is 7, not 0 or 1 at byte 12");
  e.prepend_field("flag");
  e.prepend_index(1);
  e.prepend_field("corners");
  e.prepend_index(0);
  e.prepend_index(18446744073709551615u);
  e.prepend_field("cells");
  EXPECT_EQ(e.path(), "cells[18446744073709551615][0].corners[1].flag");
  EXPECT_EQ(std::string(e.what()),
            "bale: invalid_value: bool byte is 7, not 0 or 1 at byte 12 in "
            "cells[18446744073709551615][0].corners[1].flag");
  EXPECT_EQ(e.detail(), "bool byte is 7, not 0 or 1");
  // A failure site's message, whole: the reader's numbers printed in decimal.
  try {
    (void)bale::deserialize<std::uint64_t>(std::vector<std::byte>(3));
    FAIL();
  } catch (const bale::error& thrown) {
    EXPECT_EQ(std::string(thrown.what()), "bale: end_of_input: need 8 bytes, 3 left at byte 0");
  }
}

TEST(Error, TextOfPartsPrintsNumbersInDecimal) {
  using bale::detail::error_text;
  EXPECT_EQ(error_text({}), "");
  EXPECT_EQ(error_text({"a", std::string_view("b"), std::string("c")}), "abc");
  EXPECT_EQ(error_text({std::uint64_t{0}, " ", 18446744073709551615u}), "0 18446744073709551615");
  EXPECT_EQ(error_text({std::int64_t{-9223372036854775807 - 1}, " ", -1, " ", std::int8_t{-128}}),
            "-9223372036854775808 -1 -128");
  EXPECT_EQ(error_text({std::uint8_t{255}, " ", std::int16_t{32767}}), "255 32767");
  // A char is text, not a number: it is passed as a view of one character.
  const char c = 'x';
  EXPECT_EQ(error_text({"'", std::string_view(&c, 1), "'"}), "'x'");
  static_assert(!std::is_constructible_v<bale::detail::message_part, char>);
  static_assert(!std::is_constructible_v<bale::detail::message_part, bool>);
}

TEST(Error, ResultAccessors) {
  bale::result<int> good = bale::try_deserialize<int>(bale::serialize(5));
  ASSERT_TRUE(good.has_value());
  EXPECT_EQ(*good, 5);
  EXPECT_EQ(good.value(), 5);
  bale::result<int> bad = bale::try_deserialize<int>(std::string_view("ab"));
  EXPECT_FALSE(bad);
  EXPECT_THROW((void)bad.value(), bale::error);
  EXPECT_EQ(bale::to_string(bale::errc::depth_exceeded), "depth_exceeded");
}

}  // namespace
