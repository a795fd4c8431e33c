// SPDX-License-Identifier: BSL-1.0
// The five ways to describe a type, each through every entry point.
#include <bale/all.hpp>
#include <stdexcept>

#include "support/roundtrip.hpp"

namespace users_app {

struct point {  // an aggregate: nothing to write
  double x, y;
  std::string label;
  bool operator==(const point&) const = default;
};
struct cell {
  int id;
  std::vector<point> corners;
  bool operator==(const cell&) const = default;
};
BALE_REFLECT(cell, id, corners)

class account {  // intrusive, private members
 public:
  account() = default;
  account(std::string owner, std::int64_t cents) : owner_(std::move(owner)), cents_(cents) {}
  bool operator==(const account&) const = default;

 private:
  friend struct bale::access;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(owner_, cents_);
  }
  std::string owner_;
  std::int64_t cents_ = 0;
};

class range {  // split, to keep an invariant on load
 public:
  range() = default;
  range(int lo, int hi) : lo_(lo), hi_(hi) {}
  bool operator==(const range&) const = default;

 private:
  friend struct bale::access;
  template <class Archive>
  void save(Archive& ar) const {
    ar(lo_, hi_);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(lo_, hi_);
    if (lo_ > hi_) throw std::invalid_argument("lo > hi");
  }
  int lo_ = 0, hi_ = 0;
};

class named_fields {  // intrusive with field names
 public:
  bool operator==(const named_fields&) const = default;
  int a = 1;
  std::string b = "two";
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("a", a), bale::field("b", b));
  }
};

}  // namespace users_app

namespace theirs {
struct vec3 {  // a type you cannot edit
  float x, y, z;
  bool operator==(const vec3&) const = default;
};
struct rgb {
  std::uint8_t r, g, b;
  bool operator==(const rgb&) const = default;
};
template <class Archive>
void save(Archive& ar, const rgb& c) {
  ar(c.r, c.g, c.b);
}
template <class Archive>
void load(Archive& ar, rgb& c) {
  ar(c.r, c.g, c.b);
}
}  // namespace theirs

// Free function at global scope, as a user would write it for a type they do not own.
template <class Archive>
void serialize(Archive& ar, theirs::vec3& v) {
  ar(v.x, v.y, v.z);
}

namespace {

using bale_test::expect_roundtrip;

static_assert(bale::detail::description_of<users_app::point>() ==
              bale::detail::description::aggregate);
static_assert(bale::detail::description_of<users_app::cell>() ==
              bale::detail::description::reflect_macro);
static_assert(bale::detail::description_of<users_app::account>() ==
              bale::detail::description::member_serialize);
static_assert(bale::detail::description_of<users_app::range>() ==
              bale::detail::description::member_save_load);
static_assert(bale::detail::description_of<theirs::vec3>() ==
              bale::detail::description::free_serialize);
static_assert(bale::detail::description_of<theirs::rgb>() ==
              bale::detail::description::free_save_load);
static_assert(bale::serializable<users_app::cell>);
static_assert(!bale::serializable<int*>);

TEST(UserTypes, Aggregate) {
  const users_app::point p{1.5, -2, "corner"};
  const auto bytes = expect_roundtrip(p);
  EXPECT_EQ(bytes.size(), 8u + 8u + 8u + 6u);
}

TEST(UserTypes, ReflectMacro) {
  const users_app::cell c{7, {{0, 0, "a"}, {1, 0, "b"}, {1, 1, ""}}};
  expect_roundtrip(c);
  EXPECT_EQ(bale::serialize(c), bale::serialize(std::tuple{c.id, c.corners}));
}

TEST(UserTypes, MemberSerializePrivate) {
  expect_roundtrip(users_app::account("ada", 1234567));
  EXPECT_EQ(bale::serialize(users_app::account("ada", 5)),
            bale::serialize(std::tuple{std::string("ada"), std::int64_t{5}}));
}

TEST(UserTypes, SplitSaveLoadKeepsInvariant) {
  expect_roundtrip(users_app::range(1, 9));
  const auto bad = bale::serialize(std::tuple{9, 1});
  // deserialize lets the user's exception through unchanged.
  EXPECT_THROW((void)bale::deserialize<users_app::range>(bad), std::invalid_argument);
  // try_deserialize turns it into invalid_value and keeps the message.
  auto r = bale::try_deserialize<users_app::range>(bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_NE(r.error().message().find("lo > hi"), std::string::npos);
  EXPECT_EQ(r.error().offset(), 8u);
}

TEST(UserTypes, FreeFunctions) {
  expect_roundtrip(theirs::vec3{1, 2, 3});
  expect_roundtrip(theirs::rgb{1, 2, 3});
  EXPECT_EQ(bale::serialized_size(theirs::vec3{}), 12u);
  expect_roundtrip(std::vector<theirs::vec3>(10, theirs::vec3{4, 5, 6}));
}

TEST(UserTypes, NamedFieldsInBinaryAreJustValues) {
  expect_roundtrip(users_app::named_fields{});
  EXPECT_EQ(bale::serialize(users_app::named_fields{}),
            bale::serialize(std::tuple{1, std::string("two")}));
}

TEST(UserTypes, NestedEverywhere) {
  std::map<std::string, std::vector<std::optional<users_app::cell>>> deep;
  deep["a"].push_back(users_app::cell{1, {{1, 2, "x"}}});
  deep["a"].push_back(std::nullopt);
  deep["b"];
  expect_roundtrip(deep);
}

}  // namespace
