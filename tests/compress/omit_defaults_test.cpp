// SPDX-License-Identifier: BSL-1.0
#include <bale/all.hpp>

#include "support/roundtrip.hpp"

namespace defaults_app {

struct settings {
  int width = 800;
  int height = 600;
  std::string title = "bale";
  std::vector<int> palette{};
  double gamma = 2.2;
  bool operator==(const settings&) const = default;
};

// 70 members: the mask is 9 bytes.
struct wide {
  int a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9;
  int c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, d0, d1, d2, d3, d4, d5, d6, d7, d8, d9;
  int e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9;
  int g0, g1, g2, g3, g4, g5, g6, g7, g8, g9;
  bool operator==(const wide&) const = default;
};

struct listed {
  int a = 1;
  std::string b = "x";
  listed() = default;
};
BALE_REFLECT(listed, a, b)

// C array members compare and reset element by element; small_float members too.
struct particle {
  bale::small_float<float> position[4];
  int id = 0;
  float mass[2] = {1.0f, 1.0f};
  bool operator==(const particle&) const = default;
};

}  // namespace defaults_app

template <>
inline constexpr bool bale::omit_defaults<defaults_app::settings> = true;
template <>
inline constexpr bool bale::omit_defaults<defaults_app::wide> = true;
template <>
inline constexpr bool bale::omit_defaults<defaults_app::listed> = true;
template <>
inline constexpr bool bale::omit_defaults<defaults_app::particle> = true;

namespace {

using defaults_app::settings;

TEST(OmitDefaults, NoneChangedIsJustTheMask) {
  EXPECT_EQ(bale::serialize(settings{}), std::vector<std::byte>{std::byte{0}});
  bale_test::expect_roundtrip(settings{});
  EXPECT_EQ(bale::serialized_size(defaults_app::wide{}), 9u);
}

TEST(OmitDefaults, SomeAndAllChanged) {
  settings one;
  one.height = 1080;
  EXPECT_EQ(bale::serialize(one),
            (std::vector<std::byte>{std::byte{0x02}, std::byte{0x38}, std::byte{0x04}, std::byte{0},
                                    std::byte{0}}));
  bale_test::expect_roundtrip(one);
  const settings all{1, 2, "t", {1, 2, 3}, 1.0};
  const auto bytes = bale_test::expect_roundtrip(all);
  EXPECT_EQ(bytes.size(), 1u + bale::serialized_size(std::tuple{1, 2, std::string("t"),
                                                                std::vector<int>{1, 2, 3}, 1.0}));
  defaults_app::wide w{};
  w.a0 = 1;
  w.g9 = 69;
  EXPECT_EQ(bale_test::expect_roundtrip(w).size(), 9u + 8u);
  defaults_app::listed l;
  l.b = "changed";
  EXPECT_EQ(bale::deserialize<defaults_app::listed>(bale::serialize(l)).b, "changed");
}

TEST(OmitDefaults, ReadingFillsDefaultsAndRejectsStrayBits) {
  settings target{5, 5, "old", {9}, 9.0};
  bale::deserialize(bale::serialize(settings{}), target);  // absent members take their defaults
  EXPECT_EQ(target, settings{});
  auto r = bale::try_deserialize<settings>(
      std::vector<std::byte>{std::byte{0x80}});  // bit 7: no member 7
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  settings named;
  named.title = "x";
  auto bytes = bale::serialize(named);
  bytes.resize(bytes.size() - 1);
  auto cut = bale::try_deserialize<settings>(bytes);
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().path(), "title");
}

TEST(OmitDefaults, ArrayMembers) {
  using defaults_app::particle;
  EXPECT_EQ(bale::serialized_size(particle{}), 1u);
  particle moved;
  moved.position[2] = 0.5f;
  // mask, then four small floats (one byte each in the one-byte set)
  EXPECT_EQ(bale_test::expect_roundtrip(moved).size(), 1u + 4u);
  particle heavy;
  heavy.mass[1] = 3.0f;
  EXPECT_EQ(bale_test::expect_roundtrip(heavy).size(), 1u + 8u);
  particle target = moved;
  target.mass[0] = 7.0f;
  bale::deserialize(bale::serialize(heavy), target);  // absent arrays go back to their defaults
  EXPECT_EQ(target, heavy);
}

}  // namespace
