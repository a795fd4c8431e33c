// SPDX-License-Identifier: BSL-1.0
#include <bale/types/string.hpp>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;

TEST(String, EveryCharacterType) {
  expect_roundtrip(std::string("hello, bale"));
  expect_roundtrip(std::string());
  expect_roundtrip(std::string(100000, 'z'));
  expect_roundtrip(std::wstring(L"wide \u00e9"));
  expect_roundtrip(std::u8string(u8"utf-8 \u00e9"));
  expect_roundtrip(std::u16string(u"utf-16 \u00e9"));
  expect_roundtrip(std::u32string(U"utf-32 \U0001F600"));
  for (int i = 0; i < 50; ++i) expect_roundtrip(bale_test::random_string(300));
}

TEST(String, LayoutIsLengthThenBytes) {
  const auto bytes = bale::serialize(std::string("string"));
  ASSERT_EQ(bytes.size(), 14u);
  EXPECT_EQ(bytes[0], std::byte{6});
  for (int i = 1; i < 8; ++i) EXPECT_EQ(bytes[i], std::byte{0});
  EXPECT_EQ(static_cast<char>(bytes[8]), 's');
  EXPECT_EQ(static_cast<char>(bytes[13]), 'g');
  EXPECT_EQ(bale::serialized_size(std::u16string(u"ab")), 8u + 4u);
}

TEST(String, ViewPointsIntoTheInput) {
  const auto bytes = bale::serialize(std::string_view("zero copy"));
  const auto view = bale::deserialize<std::string_view>(bytes);
  EXPECT_EQ(view, "zero copy");
  EXPECT_EQ(static_cast<const void*>(view.data()), static_cast<const void*>(bytes.data() + 8));
}

TEST(String, MisalignedWideViewIsAnError) {
  std::vector<std::byte> bytes(1);  // shift the payload by one byte
  bale::serialize_into(bytes, std::u32string(U"abc"));
  bale::reader r(std::span<const std::byte>(bytes).subspan(1));
  std::u32string_view view;
  // The payload sits at offset 9 of the original buffer, which is not 4-aligned.
  try {
    r(view);
    FAIL() << "expected misaligned";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::misaligned);
  }
}

TEST(String, HostileLengthFailsBeforeAllocating) {
  std::vector<std::byte> bytes = bale::serialize(std::uint64_t{1} << 60);
  bytes.resize(12);
  auto r = bale::try_deserialize<std::string>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
  EXPECT_EQ(r.error().offset(), 0u);
}

}  // namespace
