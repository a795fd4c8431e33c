// SPDX-License-Identifier: BSL-1.0
#include <bale/all.hpp>
#include <bale/json/format.hpp>
#include <string>

#include "support/roundtrip.hpp"

namespace {

struct seed_struct {
  float vec[4];
  int i;
  float f;
  bool operator==(const seed_struct&) const = default;
};
struct mixed {
  std::optional<int> maybe;
  std::unique_ptr<int> owned;
  std::map<int, int> table;
  double grid[2][3];
  std::array<int, 3> arr;
};
struct empty {};

// 70 members: more than the 64 the core issue asks for.
struct wide {
  int a0, a1, a2, a3, a4, a5, a6, a7, a8, a9;
  int b0, b1, b2, b3, b4, b5, b6, b7, b8, b9;
  int c0, c1, c2, c3, c4, c5, c6, c7, c8, c9;
  int d0, d1, d2, d3, d4, d5, d6, d7, d8, d9;
  int e0, e1, e2, e3, e4, e5, e6, e7, e8, e9;
  int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9;
  std::string g0, g1, g2, g3, g4, g5, g6, g7, g8, g9;
  bool operator==(const wide&) const = default;
};

// 128 members: the most an aggregate may have without a description.
struct widest {
  int a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15;
  int b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15;
  int c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15;
  int d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15;
  int e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15;
  int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15;
  int g0, g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11, g12, g13, g14, g15;
  std::string h0, h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11, h12, h13, h14, h15;
  bool operator==(const widest&) const = default;
};

static_assert(bale::member_count<seed_struct> == 3);
static_assert(bale::member_count<mixed> == 5);
static_assert(bale::member_count<empty> == 0);
static_assert(bale::member_count<wide> == 70);
static_assert(bale::member_count<widest> == 128);
static_assert(bale::wire_compatible<seed_struct>);

TEST(Aggregate, MemberNames) {
  EXPECT_EQ(bale::member_names<seed_struct>[0], "vec");
  EXPECT_EQ(bale::member_names<seed_struct>[1], "i");
  EXPECT_EQ(bale::member_names<seed_struct>[2], "f");
  const auto& names = bale::member_names<mixed>;
  EXPECT_EQ(names[0], "maybe");
  EXPECT_EQ(names[3], "grid");
  EXPECT_EQ(names[4], "arr");
  EXPECT_EQ(bale::member_names<wide>[69], "g9");
  EXPECT_EQ(bale::member_names<wide>[0], "a0");
}

TEST(Aggregate, WideRoundTrip) {
  wide w{};
  w.a0 = 1;
  w.f9 = 69;
  w.g9 = "last";
  bale_test::expect_roundtrip(w);
}

TEST(Aggregate, WidestRoundTrip) {
  widest w{};
  w.a0 = 1;
  w.g15 = 112;
  w.h0 = "first text";
  w.h15 = "last";
  EXPECT_EQ(bale::member_names<widest>[127], "h15");
  bale_test::expect_roundtrip(w);
}

TEST(Aggregate, SeedStructIsOneMemcpy) {
  const seed_struct s{{1, 2, 3, 4}, 5, 6};
  const auto bytes = bale_test::expect_roundtrip(s);
  ASSERT_EQ(bytes.size(), sizeof(seed_struct));
  EXPECT_EQ(std::memcmp(bytes.data(), &s, sizeof s), 0);
}

TEST(Aggregate, EmptyStructTakesNoBytes) {
  EXPECT_EQ(bale::serialized_size(empty{}), 0u);
  (void)bale::deserialize<empty>(std::vector<std::byte>{});
}

TEST(Aggregate, MixedMembers) {
  mixed m;
  m.maybe = 3;
  m.owned = std::make_unique<int>(4);
  m.table = {{1, 2}};
  m.grid[1][2] = 9.5;
  m.arr = {7, 8, 9};
  const auto bytes = bale_test::expect_roundtrip(m);
  const auto back = bale::deserialize<mixed>(bytes);
  EXPECT_EQ(*back.owned, 4);
  EXPECT_EQ(back.grid[1][2], 9.5);
}

// Methods named save and load that take no archive, and members named so, are the type's own
// business: the aggregate's members are reflected. A save(ar) without load(ar) is refused at
// compile time (tests/compile_fail/aggregate_save_without_load.cpp).
struct settings_file {
  std::string path;
  int level = 0;
  void save() const {}
  bool load() { return true; }
};
struct battery {
  double load = 0;
  double save = 0;
};

TEST(Aggregate, MethodsAndMembersNamedSaveOrLoadAreNotDescriptions) {
  const auto file = bale::deserialize<settings_file>(bale::serialize(settings_file{"p", 2}));
  EXPECT_EQ(file.path, "p");
  EXPECT_EQ(file.level, 2);
  const auto cell = bale::deserialize<battery>(bale::serialize(battery{1.5, 2.5}));
  EXPECT_EQ(cell.load, 1.5);
  EXPECT_EQ(cell.save, 2.5);
  EXPECT_EQ(bale::to_json(battery{1, 2}), R"({"load":1,"save":2})");
}

}  // namespace
