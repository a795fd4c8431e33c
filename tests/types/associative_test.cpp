// set, multiset, map, multimap and their unordered forms, with custom comparators and hashers.
#include <bale/types/map.hpp>
#include <bale/types/set.hpp>
#include <bale/types/string.hpp>
#include <bale/types/unordered_map.hpp>
#include <bale/types/unordered_set.hpp>
#include <bale/types/vector.hpp>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;

struct case_blind_hash {
  std::size_t operator()(const std::string& s) const {
    std::size_t h = 0;
    for (char c : s) h = h * 31 + static_cast<unsigned char>(c | 0x20);
    return h;
  }
};

TEST(Set, OrderedAndUnordered) {
  std::set<int> s;
  for (int i = 0; i < 1000; ++i) s.insert(bale_test::random_integer<int>());
  expect_roundtrip(s);
  expect_roundtrip(std::set<std::string, std::greater<>>{"a", "b", "c"});
  expect_roundtrip(std::multiset<int>{1, 1, 2, 2, 2});
  expect_roundtrip(std::unordered_set<std::string>{"x", "y", "zz"});
  expect_roundtrip(std::unordered_multiset<int>{4, 4, 4});
  expect_roundtrip(std::unordered_set<std::string, case_blind_hash>{"Alpha", "beta"});
}

TEST(Map, OrderedAndUnordered) {
  std::map<std::string, double> m{{"pi", 3.14159}, {"e", 2.71828}, {"", 0.0}};
  expect_roundtrip(m);
  expect_roundtrip(std::multimap<int, std::string>{{1, "a"}, {1, "b"}, {2, "c"}});
  std::unordered_map<std::string, std::vector<int>> u;
  for (int i = 0; i < 300; ++i) u[bale_test::random_string(12)] = {i, i + 1};
  expect_roundtrip(u);
  expect_roundtrip(std::unordered_multimap<int, int>{{1, 2}, {1, 3}});
  expect_roundtrip(std::map<int, std::map<int, int>, std::greater<>>{{1, {{2, 3}}}, {4, {}}});
}

TEST(Map, LayoutIsLengthThenKeyValuePairs) {
  const auto bytes = bale::serialize(std::map<std::uint8_t, std::uint16_t>{{1, 0x0203}});
  EXPECT_EQ(
      bytes,
      (std::vector<std::byte>{
          std::byte{1}, {}, {}, {}, {}, {}, {}, {}, std::byte{1}, std::byte{3}, std::byte{2}}));
}

TEST(Map, DuplicateKeyIsInvalid) {
  // Two entries with key 1: a multimap writes it, a map must refuse it.
  const auto bytes = bale::serialize(std::multimap<int, int>{{1, 10}, {1, 11}});
  auto r = bale::try_deserialize<std::map<int, int>>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(r.error().path(), "[1]");
  auto s = bale::try_deserialize<std::set<int>>(bale::serialize(std::vector<int>{3, 3}));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), bale::errc::invalid_value);
}

}  // namespace
