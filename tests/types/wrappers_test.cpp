// SPDX-License-Identifier: BSL-1.0
// optional, variant, monostate, unique_ptr, shared_ptr, span.
#include <bale/types/memory.hpp>
#include <bale/types/optional.hpp>
#include <bale/types/span.hpp>
#include <bale/types/string.hpp>
#include <bale/types/variant.hpp>
#include <bale/types/vector.hpp>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;

TEST(Optional, FlagThenValue) {
  EXPECT_EQ(expect_roundtrip(std::optional<int>{}).size(), 1u);
  EXPECT_EQ(expect_roundtrip(std::optional<int>{5}).size(), 5u);
  expect_roundtrip(std::optional<std::optional<std::string>>{std::optional<std::string>{}});
  std::vector<std::byte> bad{std::byte{2}};
  auto r = bale::try_deserialize<std::optional<int>>(bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
}

TEST(Variant, IndexThenValue) {
  using v = std::variant<std::monostate, int, std::string, std::vector<double>>;
  EXPECT_EQ(expect_roundtrip(v{}).size(), 4u);
  expect_roundtrip(v{42});
  expect_roundtrip(v{std::string("alt")});
  expect_roundtrip(v{std::vector<double>{1.0, 2.0}});
  const auto bytes = bale::serialize(v{7});
  EXPECT_EQ(bytes, (std::vector<std::byte>{std::byte{1}, {}, {}, {}, std::byte{7}, {}, {}, {}}));
}

TEST(Variant, IndexOutOfRange) {
  const std::vector<std::byte> bad{std::byte{4}, {}, {}, {}};
  auto r = bale::try_deserialize<std::variant<int, float, char, bool>>(bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(r.error().offset(), 0u);
  EXPECT_NE(r.error().message().find("variant index 4"), std::string::npos);
}

TEST(Monostate, ManyTakeNoBytesButAreLimited) {
  expect_roundtrip(std::vector<std::monostate>(1000));
  EXPECT_EQ(bale::serialized_size(std::vector<std::monostate>(1000)), 8u);
  const auto bytes = bale::serialize(std::uint64_t{1} << 40);
  auto r = bale::try_deserialize<std::vector<std::monostate>>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
  bale::limits tight;
  tight.max_empty_elements = 10;
  auto r2 = bale::try_deserialize<std::vector<std::monostate>>(
      bale::serialize(std::vector<std::monostate>(11)), tight);
  ASSERT_FALSE(r2);
  EXPECT_EQ(r2.error().code(), bale::errc::length_too_large);
}

TEST(SmartPointers, ValueSemantics) {
  expect_roundtrip(std::unique_ptr<int>{});
  expect_roundtrip(std::make_unique<std::string>("owned"));
  expect_roundtrip(std::shared_ptr<std::vector<int>>{});
  expect_roundtrip(std::make_shared<std::vector<int>>(std::vector<int>{1, 2, 3}));
  const auto back =
      bale::deserialize<std::unique_ptr<double>>(bale::serialize(std::make_unique<double>(2.5)));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, 2.5);
}

struct tree {
  int value = 0;
  std::vector<std::unique_ptr<tree>> children;
};

TEST(SmartPointers, RecursiveTypes) {
  tree root{1, {}};
  root.children.push_back(std::make_unique<tree>(tree{2, {}}));
  root.children.push_back(nullptr);
  const auto bytes = bale::serialize(root);
  const auto back = bale::deserialize<tree>(bytes);
  ASSERT_EQ(back.children.size(), 2u);
  EXPECT_EQ(back.children[0]->value, 2);
  EXPECT_EQ(back.children[1], nullptr);
}

TEST(Span, WritesLikeVectorReadsAsView) {
  const std::vector<std::int32_t> data{1, -2, 3};
  const auto bytes = bale::serialize(std::span<const std::int32_t>(data));
  EXPECT_EQ(bytes, bale::serialize(data));
  const auto view = bale::deserialize<std::span<const std::int32_t>>(bytes);
  ASSERT_EQ(view.size(), 3u);
  EXPECT_EQ(view[1], -2);
  EXPECT_EQ(static_cast<const void*>(view.data()), static_cast<const void*>(bytes.data() + 8));
}

TEST(Span, AFormatWithoutTheMemoryLayoutSaysSo) {
  const std::vector<std::uint64_t> data{1, 2, 3};
  const auto bytes = bale::serialize<bale::compact>(data);
  auto r = bale::try_deserialize<std::span<const std::uint64_t>, bale::compact>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::wrong_type);
  EXPECT_NE(r.error().detail().find("read it from binary"), std::string::npos);
  // Bytes are bytes in compact too: a span of them is still a view.
  const std::vector<std::uint8_t> small{7, 8};
  const auto packed = bale::serialize<bale::compact>(small);
  const auto view = bale::deserialize<std::span<const std::uint8_t>, bale::compact>(packed);
  ASSERT_EQ(view.size(), 2u);
  EXPECT_EQ(view[1], 8);
}

TEST(Span, MisalignedInputIsAClearError) {
  std::vector<std::byte> bytes(1);
  bale::serialize_into(bytes, std::vector<double>{1.0, 2.0});
  auto r =
      bale::try_deserialize<std::span<const double>>(std::span<const std::byte>(bytes).subspan(1));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::misaligned);
}

}  // namespace
