// SPDX-License-Identifier: BSL-1.0
// A registry built in a shared library (tests/graph_plugin, linked as a .so) and merged by the
// program with one of its own: objects of both round trip through a base pointer.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bale/registry.hpp>
#include <memory>
#include <vector>

#include "graph/graph_formats.hpp"
#include "graph_plugin/plugin_shapes.hpp"

namespace {

struct local_moon : plugin_shape {  // the program's own type
  double phase = 0;
  std::string describe() const override { return "moon"; }
  template <class Archive>
  void serialize(Archive& ar) {
    plugin_shape::serialize(ar);
    ar(bale::field("phase", phase));
  }
};

template <class Format>
class Plugin : public ::testing::Test {};
TYPED_TEST_SUITE(Plugin, graph_formats, format_names);

TYPED_TEST(Plugin, RegistryFromASharedLibrary) {
  using Format = TypeParam;
  const auto all = plugin_shapes().merge(bale::registry<plugin_shape>{}.add<local_moon>("moon"));
  std::vector<std::shared_ptr<plugin_shape>> sky;
  auto star = std::make_shared<plugin_star>();
  star->id = 1;
  star->points = 7;
  auto moon = std::make_shared<local_moon>();
  moon->id = 2;
  moon->phase = 0.5;
  sky = {star, moon, star};
  const auto bytes = bale::serialize<Format>(bale::with(sky, all));
  std::vector<std::shared_ptr<plugin_shape>> back;
  auto into = bale::with(back, all);
  bale::deserialize<Format>(bytes, into);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0]->describe(), "star with 7 points");  // the library's virtual function
  EXPECT_EQ(back[0]->id, 1);
  EXPECT_EQ(back[1]->describe(), "moon");
  EXPECT_EQ(dynamic_cast<local_moon&>(*back[1]).phase, 0.5);
  EXPECT_EQ(back[0], back[2]);
  // The program's registry alone does not know the library's type: refused, not sliced.
  const auto program_only = bale::registry<plugin_shape>{}.add<local_moon>("moon");
  EXPECT_THROW((void)bale::serialize<Format>(bale::with(sky, program_only)), bale::error);
}

}  // namespace
