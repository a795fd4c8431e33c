// SPDX-License-Identifier: BSL-1.0
#include <bale/bale.hpp>

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

namespace {

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
