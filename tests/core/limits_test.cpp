// SPDX-License-Identifier: BSL-1.0
#include <bale/all.hpp>

#include "support/roundtrip.hpp"

namespace {

struct node {
  std::vector<node> children;
};

node chain(int depth) {
  node root;
  node* at = &root;
  for (int i = 0; i < depth; ++i) {
    at->children.emplace_back();
    at = &at->children.back();
  }
  return root;
}

TEST(Limits, HostileLengthFailsAtOnce) {
  // 12 bytes claiming 2^60 elements.
  std::vector<std::byte> bytes = bale::serialize(std::uint64_t{1} << 60);
  bytes.resize(12);
  for (auto r : {bale::try_deserialize<std::vector<double>>(bytes).has_value(),
                 bale::try_deserialize<std::vector<std::string>>(bytes).has_value(),
                 bale::try_deserialize<std::list<int>>(bytes).has_value(),
                 bale::try_deserialize<std::map<int, int>>(bytes).has_value(),
                 bale::try_deserialize<std::vector<node>>(bytes).has_value()})
    EXPECT_FALSE(r);
  auto r = bale::try_deserialize<std::vector<double>>(bytes);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
  EXPECT_EQ(r.error().offset(), 0u);
}

TEST(Limits, NestingDepth) {
  const auto ok = bale::serialize(chain(100));
  EXPECT_TRUE(bale::try_deserialize<node>(ok).has_value());
  bale::limits shallow;
  shallow.max_depth = 50;
  auto r = bale::try_deserialize<node>(ok, shallow);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::depth_exceeded);
  // Hand-made: 100000 nested "one child" headers would recurse without a limit.
  std::vector<std::byte> deep;
  for (int i = 0; i < 100000; ++i) bale::serialize_into(deep, std::uint64_t{1});
  auto d = bale::try_deserialize<node>(deep);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code(), bale::errc::depth_exceeded);
}

TEST(Limits, OneAllocationBudgetForTheWholeMessage) {
  // Each inner vector is small, but together they pass the budget.
  std::vector<std::vector<double>> many(64, std::vector<double>(1000, 1.0));
  const auto bytes = bale::serialize(many);
  bale::limits budget;
  budget.max_allocation = 64 * 1000 * sizeof(double) / 2;
  auto r = bale::try_deserialize<decltype(many)>(bytes, budget);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::allocation_limit);
  budget.max_allocation = 1 << 20;
  EXPECT_TRUE(bale::try_deserialize<decltype(many)>(bytes, budget).has_value());
}

TEST(Limits, NestedLengthsDoNotMultiply) {
  // An outer length of 1000 inner vectors, each claiming 1000 strings: the input is short, so
  // every level is refused by the bytes that are actually there.
  std::vector<std::byte> bytes;
  bale::serialize_into(bytes, std::uint64_t{1000});
  for (int i = 0; i < 20; ++i) bale::serialize_into(bytes, std::uint64_t{1000});
  auto r = bale::try_deserialize<std::vector<std::vector<std::string>>>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
}

}  // namespace
