// SPDX-License-Identifier: BSL-1.0
#include <bale/all.hpp>
#include <bale/json/format.hpp>
#include <bale/msgpack/format.hpp>

#include "support/roundtrip.hpp"

namespace macro_app {
struct sensor {
  std::string name;
  double reading = 0;
  int not_listed = 99;  // BALE_REFLECT may describe a subset
  sensor() = default;   // not an aggregate any more: only the macro describes it
  sensor(std::string n, double r) : name(std::move(n)), reading(r) {}
};
BALE_REFLECT(sensor, name, reading)
}  // namespace macro_app

struct global_type {
  int a;
  std::vector<int> b;
  bool operator==(const global_type&) const = default;
};
BALE_REFLECT(global_type, a, b)

// A derived class writes its base part: an aggregate lists the inherited members in
// BALE_REFLECT (reflecting it alone is a compile error,
// tests/compile_fail/aggregate_with_base.cpp); a class with serialize calls its base's first.
struct point {
  double x = 0, y = 0;
};
struct labelled_point : point {
  int label = 0;
  bool operator==(const labelled_point& o) const {
    return x == o.x && y == o.y && label == o.label;
  }
};
BALE_REFLECT(labelled_point, x, y, label)

class shape_base {
 public:
  int corners = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("corners", corners));
  }
};
class square_shape : public shape_base {
 public:
  double side = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    shape_base::serialize(ar);
    ar(bale::field("side", side));
  }
  bool operator==(const square_shape& o) const { return corners == o.corners && side == o.side; }
};

namespace {

TEST(ReflectMacro, DerivedClassesWriteTheirBasePart) {
  static_assert(bale::aggregate_with_base<labelled_point>);
  static_assert(!bale::reflectable_aggregate<labelled_point>);
  static_assert(!bale::aggregate_with_base<point>);
  labelled_point p;
  p.x = 1.5, p.y = -2, p.label = 7;
  bale_test::expect_roundtrip(p);
  EXPECT_EQ(bale::to_json(p), R"({"x":1.5,"y":-2,"label":7})");
  EXPECT_EQ(bale::from_json<labelled_point>(bale::to_json(p)), p);
  EXPECT_EQ((bale::deserialize<labelled_point, bale::msgpack>(bale::serialize<bale::msgpack>(p))),
            p);
  square_shape sq;
  sq.corners = 4, sq.side = 2.5;
  bale_test::expect_roundtrip(sq);
  EXPECT_EQ(bale::to_json(sq), R"({"corners":4,"side":2.5})");
  EXPECT_EQ(bale::from_json<square_shape>(bale::to_json(sq)), sq);
}

TEST(ReflectMacro, NamesAndSubset) {
  static_assert(bale::detail::description_of<macro_app::sensor>() ==
                bale::detail::description::reflect_macro);
  constexpr auto names = bale::detail::macro_names<macro_app::sensor>::value;
  EXPECT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], "name");
  EXPECT_EQ(names[1], "reading");
  const auto bytes = bale::serialize(macro_app::sensor("t1", 21.5));
  EXPECT_EQ(bytes.size(), 8u + 2u + 8u);
  const auto back = bale::deserialize<macro_app::sensor>(bytes);
  EXPECT_EQ(back.name, "t1");
  EXPECT_EQ(back.reading, 21.5);
  EXPECT_EQ(back.not_listed, 99);
}

TEST(ReflectMacro, GlobalNamespaceTypeAndErrorPath) {
  bale_test::expect_roundtrip(global_type{1, {2, 3}});
  auto bytes = bale::serialize(global_type{1, {2, 3}});
  bytes.resize(bytes.size() - 2);
  auto r = bale::try_deserialize<global_type>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path(), "b");
  // Length 2 of 4-byte ints with 6 bytes left: refused before reading an element.
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
}

}  // namespace
