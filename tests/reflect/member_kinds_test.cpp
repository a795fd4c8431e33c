// SPDX-License-Identifier: BSL-1.0
// Member counting for every kind of member, first, in the middle and last: members `{}` cannot
// initialize (an explicit or missing default constructor), C arrays, [[no_unique_address]] and
// bit-fields. A count too low would save nothing of the members it missed.

#include <bale/all.hpp>
#include <bale/json/format.hpp>
#include <string>

#include "support/roundtrip.hpp"

namespace {

struct explicit_default {
  explicit explicit_default() = default;
  int v = 0;
  bool operator==(const explicit_default&) const = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(v);
  }
};

struct no_default {
  explicit no_default(int x) : v(x) {}
  int v;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(v);
  }
};

struct nothing {};

struct explicit_first {
  explicit_default f;
  int n;
  std::string name;
  bool operator==(const explicit_first&) const = default;
};
struct explicit_middle {
  int n;
  explicit_default f;
  std::string name;
  bool operator==(const explicit_middle&) const = default;
};
struct explicit_last {
  int n;
  std::string name;
  explicit_default f;
  bool operator==(const explicit_last&) const = default;
};
struct explicit_everywhere {
  explicit_default a;
  int n;
  explicit_default b;
  double c_array[3];
  explicit_default c;
  bool operator==(const explicit_everywhere&) const = default;
};
struct no_default_first {
  no_default f;
  int n;
};
struct no_default_middle {
  int n;
  no_default f;
  std::string name;
};
struct no_default_last {
  int n;
  std::string name;
  no_default f;
};
struct array_before_no_default {
  int grid[2][3];
  no_default f;
  char tail[5];
};
struct arrays_of_explicit {
  int n;
  explicit_default a[2];
  int m;
};
struct arrays_without_default {
  explicit_default a[3];
  no_default b[2];
  int m;
};
struct unique_address {
  int n;
  [[no_unique_address]] nothing e;
  std::string name;
  [[no_unique_address]] nothing last;
};
struct bit_fields {
  int low : 3;
  int high : 5;
  int whole;
};

static_assert(bale::member_count<explicit_first> == 3);
static_assert(bale::member_count<explicit_middle> == 3);
static_assert(bale::member_count<explicit_last> == 3);
static_assert(bale::member_count<explicit_everywhere> == 5);
static_assert(bale::member_count<no_default_first> == 2);
static_assert(bale::member_count<no_default_middle> == 3);
static_assert(bale::member_count<no_default_last> == 3);
static_assert(bale::member_count<array_before_no_default> == 3);
static_assert(bale::member_count<arrays_of_explicit> == 3);
static_assert(bale::member_count<arrays_without_default> == 3);
static_assert(bale::member_count<unique_address> == 4);
static_assert(bale::member_count<bit_fields> == 3);

template <class T>
T with(int n, int v) {
  T value = T();
  value.n = n;
  value.f.v = v;
  if constexpr (requires { value.name; }) value.name = "grid";
  return value;
}

TEST(MemberKinds, AMemberWithAnExplicitDefaultConstructorIsSavedAndRead) {
  bale_test::expect_roundtrip(with<explicit_first>(1, 2));
  bale_test::expect_roundtrip(with<explicit_middle>(1, 2));
  bale_test::expect_roundtrip(with<explicit_last>(1, 2));
  EXPECT_EQ(bale::to_json(with<explicit_middle>(1, 2)), R"({"n":1,"f":[2],"name":"grid"})");
  explicit_everywhere all = explicit_everywhere();
  all.c.v = 7;
  all.c_array[2] = 1.5;
  const auto back = bale::deserialize<explicit_everywhere>(bale_test::expect_roundtrip(all));
  EXPECT_EQ(back.c.v, 7);
  EXPECT_EQ(back.c_array[2], 1.5);
}

TEST(MemberKinds, AMemberWithoutADefaultConstructorIsSaved) {
  // Reading needs a default-constructed value to read into; saving needs nothing.
  EXPECT_EQ(bale::to_json(no_default_first{no_default(4), 5}), R"({"f":[4],"n":5})");
  EXPECT_EQ(bale::to_json(no_default_middle{1, no_default(2), "x"}),
            R"({"n":1,"f":[2],"name":"x"})");
  EXPECT_EQ(bale::to_json(no_default_last{1, "x", no_default(3)}), R"({"n":1,"name":"x","f":[3]})");
  const array_before_no_default arrays{{{1, 2, 3}, {4, 5, 6}}, no_default(9), "abcd"};
  EXPECT_EQ(bale::serialized_size(arrays), 6 * sizeof(int) + sizeof(int) + 5);
  EXPECT_EQ(bale::to_json(arrays), R"({"grid":[[1,2,3],[4,5,6]],"f":[9],"tail":[97,98,99,100,0]})");
}

TEST(MemberKinds, CArraysOfElementsWithoutAUsableDefaultConstructorAreCounted) {
  arrays_of_explicit value = arrays_of_explicit();
  value.a[1].v = 4;
  value.m = 5;
  const auto back = bale::deserialize<arrays_of_explicit>(bale_test::expect_roundtrip(value));
  EXPECT_EQ(back.a[1].v, 4);
  EXPECT_EQ(back.m, 5);
  const explicit_default zero;
  const arrays_without_default saved{{zero, zero, zero}, {no_default(1), no_default(2)}, 3};
  EXPECT_EQ(bale::to_json(saved), R"({"a":[[0],[0],[0]],"b":[[1],[2]],"m":3})");
}

TEST(MemberKinds, NoUniqueAddressMembersAreCounted) {
  const unique_address value{3, {}, "x", {}};
  EXPECT_EQ(bale::to_json(value), R"({"n":3,"e":{},"name":"x","last":{}})");
  const auto back = bale::deserialize<unique_address>(bale::serialize(value));
  EXPECT_EQ(back.n, 3);
  EXPECT_EQ(back.name, "x");
}

}  // namespace
