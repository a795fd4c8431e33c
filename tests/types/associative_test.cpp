// SPDX-License-Identifier: BSL-1.0
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

// Ordered containers take each element at the end when the input is in order, as bale writes
// it; input in any other order reads the same, and a repeated key is found wherever it lies.
TEST(Map, OrderedContainersReadFromAnyOrder) {
  EXPECT_EQ((bale::from_json<std::map<std::string, int>>(R"({"c":1,"a":2,"b":3})")),
            (std::map<std::string, int>{{"a", 2}, {"b", 3}, {"c", 1}}));
  EXPECT_EQ((bale::from_json<std::multimap<std::string, int>>(R"({"b":1,"a":2,"b":3,"a":4})")),
            (std::multimap<std::string, int>{{"a", 2}, {"a", 4}, {"b", 1}, {"b", 3}}));
  const auto repeated =
      bale::try_from_json<std::map<std::string, int>>(R"({"b":1,"c":2,"a":3,"b":4})");
  ASSERT_FALSE(repeated);
  EXPECT_EQ(repeated.error().path(), "[3]");
  EXPECT_EQ(repeated.error().offset(), 24u);  // just past the repeating entry
  const auto set =
      bale::try_deserialize<std::set<int>>(bale::serialize(std::vector<int>{5, 1, 3, 1}));
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().path(), "[3]");
  EXPECT_EQ(
      (bale::deserialize<std::set<int, std::greater<>>>(bale::serialize(std::set<int>{1, 2, 3}))),
      (std::set<int, std::greater<>>{1, 2, 3}));
  std::multimap<int, int> many;
  for (int i = 0; i < 50000; ++i) many.emplace(i / 3, i);
  expect_roundtrip(many);  // equal keys keep their order
}

// Hashed containers of more than 32,768 elements are filled in bucket order: the same contents,
// repeated keys kept in the multi forms, any hasher.
TEST(Map, LargeHashedContainers) {
  std::unordered_map<std::string, int> map;
  std::unordered_multimap<int, int> multimap;
  std::unordered_set<std::string, case_blind_hash> set;
  std::unordered_multiset<int> multiset;
  for (int i = 0; i < 40000; ++i) {
    map.emplace("key_" + std::to_string(i), i);
    multimap.emplace(i % 3000, i);
    set.insert("Item" + std::to_string(i));
    multiset.insert(i % 7000);
  }
  expect_roundtrip(map);
  expect_roundtrip(multimap);
  expect_roundtrip(set);
  expect_roundtrip(multiset);
}

// A repeated key is reported where it would be if every entry were inserted as read: at the end
// of the first repeating entry in input order, with its index. Hashed containers keep entries
// aside past the first thousand (unless told of fewer than 32,768 up front) and insert them in
// bucket order from 32,768 on: each scenario's repeat lies before, within or past that.
TEST(Map, RepeatedKeyInALargeHashMapIsTheFirstInInputOrder) {
  struct scenario {
    int size;
    std::vector<std::pair<int, int>> repeats;  // entry index, the earlier key it repeats
    std::size_t first;
  };
  auto entries = [](const scenario& s) {
    std::vector<std::pair<int, int>> v;
    for (int i = 0; i < s.size; ++i) v.emplace_back(i, i);
    for (auto [at, key] : s.repeats) v[static_cast<std::size_t>(at)].first = key;
    return v;
  };
  // Twenty repeats in reverse order of their keys, so that bucket order is unlikely to match
  // input order; one among the first entries; one past them repeating one of the first.
  scenario reversed{40000, {}, 39000};
  for (int k = 0; k < 20; ++k) reversed.repeats.emplace_back(39000 + k, 5019 - k);
  const scenario scenarios[] = {reversed,
                                {40000, {{1000, 10}, {39000, 20}}, 1000},
                                {40000, {{38000, 3}}, 38000},
                                {10000, {{9000, 5000}, {9500, 3}}, 9000}};
  for (const scenario& s : scenarios) {
    const auto pairs = entries(s);
    // Binary: an 8-byte count, then 8 bytes an entry.
    auto binary = bale::try_deserialize<std::unordered_map<int, int>>(bale::serialize(pairs));
    ASSERT_FALSE(binary);
    EXPECT_EQ(binary.error().code(), bale::errc::invalid_value);
    EXPECT_NE(binary.error().message().find("duplicate key"), std::string::npos);
    EXPECT_EQ(binary.error().path(), "[" + std::to_string(s.first) + "]");
    EXPECT_EQ(binary.error().offset(), 8 + 8 * (s.first + 1));
    // JSON: an object, the error at the end of the repeating entry.
    std::string text = "{";
    std::size_t end_of_first = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      text += (i ? ",\"" : "\"") + std::to_string(pairs[i].first) + "\":" + std::to_string(i);
      if (i == s.first) end_of_first = text.size();
    }
    text += "}";
    auto json = bale::try_from_json<std::unordered_map<std::string, int>>(text);
    ASSERT_FALSE(json);
    EXPECT_EQ(json.error().code(), bale::errc::invalid_value);
    EXPECT_EQ(json.error().path(), "[" + std::to_string(s.first) + "]");
    EXPECT_EQ(json.error().offset(), end_of_first);
    auto set = bale::try_deserialize<std::unordered_set<int>>(bale::serialize([&] {
      std::vector<int> keys;
      for (auto [key, value] : pairs) keys.push_back(key);
      return keys;
    }()));
    ASSERT_FALSE(set);
    EXPECT_EQ(set.error().path(), "[" + std::to_string(s.first) + "]");
    EXPECT_EQ(set.error().offset(), 8 + 4 * (s.first + 1));
  }
}

}  // namespace
