// SPDX-License-Identifier: BSL-1.0
// Which messages the writer compiles as a pass apart (core/element_loops.hpp): those that run a
// loop of archive calls over elements. The choice changes no byte: each kind is written both ways
// by the round trips elsewhere; here the choice itself is checked for every kind of type.
#include <gtest/gtest.h>

#include <array>
#include <bale/all.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace {

struct point {
  float x = 0, y = 0;
};
struct named {
  std::string name;
  std::vector<std::uint8_t> bytes;
};
struct with_list {
  std::vector<named> items;
};
struct tree {
  std::vector<tree> children;
};
struct by_hand {
  int value = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value);
  }
};

using bale::detail::loops_over_elements;

// No loop: scalars, text, runs copied as bytes, structs and tuples of those.
static_assert(!loops_over_elements<int>);
static_assert(!loops_over_elements<std::string>);
static_assert(!loops_over_elements<std::vector<double>>);
static_assert(!loops_over_elements<std::vector<point>>);
static_assert(!loops_over_elements<point>);
static_assert(!loops_over_elements<named>);
static_assert(!loops_over_elements<std::tuple<int, std::vector<std::uint8_t>, std::string>>);
static_assert(!loops_over_elements<std::optional<std::string>>);
static_assert(!loops_over_elements<std::array<point, 4>>);
static_assert(!loops_over_elements<int, std::string>);
// A loop: elements written one call at a time, node containers, pointers, recursion, types
// described by hand, and anything holding one of those.
static_assert(loops_over_elements<std::vector<std::string>>);
static_assert(loops_over_elements<std::vector<named>>);
static_assert(loops_over_elements<with_list>);
static_assert(loops_over_elements<std::map<int, int>>);
static_assert(loops_over_elements<std::shared_ptr<point>>);
static_assert(loops_over_elements<tree>);
static_assert(loops_over_elements<by_hand>);
static_assert(loops_over_elements<std::variant<int, std::vector<named>>>);
static_assert(loops_over_elements<std::array<named, 2>>);
static_assert(loops_over_elements<int, std::vector<std::string>>);

TEST(ElementLoops, BothKindsOfPassWriteTheSameBytes) {
  // A message of each kind, written into a new, a kept and a fixed buffer.
  const with_list looping{{{"a", {1, 2}}, {"bc", {}}}};
  const named flat{"flat", {3, 4, 5}};
  const auto check = [](const auto& value) {
    const auto bytes = bale::serialize(value);
    std::vector<std::byte> kept(1);
    bale::serialize_assign(kept, value);
    EXPECT_EQ(kept, bytes);
    std::vector<std::byte> fixed(bytes.size());
    EXPECT_EQ(bale::serialize_to(fixed, value), bytes.size());
    EXPECT_EQ(fixed, bytes);
  };
  check(looping);
  check(flat);
  const auto back = bale::deserialize<with_list>(bale::serialize(looping));
  ASSERT_EQ(back.items.size(), 2u);
  EXPECT_EQ(back.items[1].name, "bc");
}

}  // namespace
