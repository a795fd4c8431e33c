// SPDX-License-Identifier: BSL-1.0
// Pointers to a base class through a registry passed to the call: several levels of derivation,
// unique_ptr and shared_ptr, every format, and the errors: an unlisted type on writing, an unknown
// id or name on reading, a reference to an object of another type.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/registry.hpp>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/graph_formats.hpp"

namespace {

struct shape {
  virtual ~shape() = default;
  virtual std::string kind() const = 0;
  double x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("x", x));
  }
};
struct circle : shape {
  double radius = 0;
  std::string kind() const override { return "circle"; }
  template <class Archive>
  void serialize(Archive& ar) {
    shape::serialize(ar);
    ar(bale::field("radius", radius));
  }
};
struct ring : circle {  // two levels below shape
  double inner = 0;
  std::shared_ptr<shape> inside;  // polymorphic members of polymorphic objects
  std::string kind() const override { return "ring"; }
  template <class Archive>
  void serialize(Archive& ar) {
    circle::serialize(ar);
    ar(bale::field("inner", inner), bale::field("inside", inside));
  }
};
struct label : shape {  // described by BALE_REFLECT-free save/load pair
  std::string text;
  std::string kind() const override { return "label"; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(bale::field("x", x), bale::field("text", text));
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(bale::field("x", x), bale::field("text", text));
  }
};
struct unlisted : shape {
  std::string kind() const override { return "unlisted"; }
};

struct scene {
  std::vector<std::unique_ptr<shape>> owned;
  std::vector<std::shared_ptr<shape>> shared;
  std::shared_ptr<circle> favourite;  // a pointer to a derived type, holding a more derived one
};

const auto shapes =
    bale::registry<shape>{}.add<circle>("circle").add<ring>("ring").add<label>("label");

template <class Format>
class Polymorphic : public ::testing::Test {};
TYPED_TEST_SUITE(Polymorphic, graph_formats, format_names);

scene make_scene() {
  scene s;
  auto c = std::make_unique<circle>();
  c->x = 1, c->radius = 2;
  s.owned.push_back(std::move(c));
  auto l = std::make_unique<label>();
  l->text = "hello";
  s.owned.push_back(std::move(l));
  auto r = std::make_shared<ring>();
  r->radius = 5, r->inner = 4;
  auto small = std::make_shared<circle>();
  small->radius = 0.5;
  r->inside = small;
  s.shared = {r, small, r};
  s.favourite = r;
  return s;
}

TYPED_TEST(Polymorphic, RoundTripThroughRegistry) {
  using Format = TypeParam;
  const scene s = make_scene();
  const auto bytes = bale::serialize<Format>(bale::with(s, shapes));
  scene back;
  auto into = bale::with(back, shapes);
  bale::deserialize<Format>(bytes, into);
  ASSERT_EQ(back.owned.size(), 2u);
  EXPECT_EQ(back.owned[0]->kind(), "circle");
  EXPECT_EQ(dynamic_cast<circle&>(*back.owned[0]).radius, 2);
  EXPECT_EQ(back.owned[0]->x, 1);
  EXPECT_EQ(dynamic_cast<label&>(*back.owned[1]).text, "hello");
  ASSERT_EQ(back.shared.size(), 3u);
  auto* r = dynamic_cast<ring*>(back.shared[0].get());
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->inner, 4);
  EXPECT_EQ(r->radius, 5);
  EXPECT_EQ(back.shared[2], back.shared[0]);
  EXPECT_EQ(r->inside, back.shared[1]);
  EXPECT_EQ(back.shared[1]->kind(), "circle");
  EXPECT_EQ(static_cast<shape*>(back.favourite.get()), back.shared[0].get());
  // The wrapper may be a temporary, as when writing.
  scene again;
  bale::deserialize<Format>(bytes, bale::with(again, shapes));
  ASSERT_EQ(again.owned.size(), 2u);
  EXPECT_EQ(dynamic_cast<label&>(*again.owned[1]).text, "hello");
  scene tried;
  ASSERT_TRUE(bale::try_deserialize<Format>(bytes, bale::with(tried, shapes)));
  EXPECT_EQ(tried.shared.size(), 3u);
}

TEST(PolymorphicFile, AFileWrittenWithARegistryReadsWithOne) {
  const scene s = make_scene();
  const auto path = std::filesystem::temp_directory_path() /
                    ("bale_polymorphic_" + std::to_string(::getpid()) + ".bale");
  bale::save_file<bale::compact>(path, bale::with(s, shapes));
  // The file's schema is the scene's: the registry is how to read it, not part of its layout.
  EXPECT_EQ(bale::schema_of<decltype(bale::with(s, shapes))>(), bale::schema_of<scene>());
  scene back;
  auto into = bale::with(back, shapes);
  bale::load_file(path, into);
  ASSERT_EQ(back.owned.size(), 2u);
  EXPECT_EQ(dynamic_cast<label&>(*back.owned[1]).text, "hello");
  std::filesystem::remove(path);
}

TYPED_TEST(Polymorphic, WritingAnUnlistedTypeIsAnError) {
  using Format = TypeParam;
  scene s;
  s.owned.push_back(std::make_unique<unlisted>());
  try {
    (void)bale::serialize<Format>(bale::with(s, shapes));
    FAIL() << "wrote an unlisted type";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_NE(std::string(e.what()).find("unlisted"), std::string::npos) << e.what();
  }
  // Without a registry, a pointer to a base holding a derived type is an error, not a slice.
  scene t = make_scene();
  EXPECT_THROW((void)bale::serialize<Format>(t), bale::error);
}

TYPED_TEST(Polymorphic, ReadingOnlyMakesListedTypes) {
  using Format = TypeParam;
  const scene s = make_scene();
  const auto bytes = bale::serialize<Format>(bale::with(s, shapes));
  const auto fewer = bale::registry<shape>{}.add<circle>("circle").add<label>("label");
  scene back;
  auto into = bale::with(back, fewer);
  const auto r = bale::try_deserialize<Format>(bytes, into);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::wrong_type);
  // Without the registry the type information is not expected: an error, never a guess.
  scene plain;
  EXPECT_FALSE(bale::try_deserialize<Format>(bytes, plain));
}

// Data written through a registry holds a type tag before each object; read without the
// registry, the tag reads as the object's first member. The error says what is missing.
struct named_base {
  virtual ~named_base() = default;
  std::string name;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name));
  }
};
struct named_derived : named_base {};
struct holds_named {
  std::unique_ptr<named_base> p;
};

TEST(Registry, ReadingWithoutTheRegistrySaysItIsNeeded) {
  holds_named written;
  written.p = std::make_unique<named_derived>();
  written.p->name = "derived";
  const auto registry = bale::registry<named_base>{}.add<named_derived>("derived");
  const auto bytes = bale::serialize(bale::with(written, registry));
  holds_named read;
  try {
    bale::deserialize(bytes, read);
    ADD_FAILURE() << "read without the registry";
  } catch (const bale::error& e) {
    EXPECT_NE(std::string(e.what()).find("no registry for it"), std::string::npos) << e.what();
  }
  auto with_registry = bale::with(read, registry);
  bale::deserialize(bytes, with_registry);
  EXPECT_EQ(read.p->name, "derived");
}

// However the misread surfaces (inside the objects, or only as bytes left after the value), the
// error says that the data holds polymorphic objects and names the registry as what is missing.
template <class Format>
void expect_registry_named(const holds_named& written) {
  const auto registry = bale::registry<named_base>{}.add<named_derived>("derived");
  const auto bytes = bale::serialize<Format>(bale::with(written, registry));
  holds_named read;
  const auto outcome = bale::try_deserialize<Format>(bytes, read);
  ASSERT_FALSE(outcome) << Format::name << ": read without the registry";
  EXPECT_NE(std::string(outcome.error().what()).find("no registry for it"), std::string::npos)
      << Format::name << ": " << outcome.error().what();
}

TEST(Registry, EveryMisreadWithoutTheRegistryNamesIt) {
  for (const char* name : {"", "d", "derived", "a longer name of thirty-one chars"}) {
    holds_named written;
    written.p = std::make_unique<named_derived>();
    written.p->name = name;
    expect_registry_named<bale::binary>(written);
    expect_registry_named<bale::compact>(written);
  }
}

TEST(Registry, CollisionsAndDuplicatesAreRefused) {
  EXPECT_THROW((void)bale::registry<shape>{}.add<circle>("a", 7).add<ring>("b", 7),
               std::invalid_argument);
  EXPECT_THROW((void)bale::registry<shape>{}.add<circle>("a").add<ring>("a"),
               std::invalid_argument);
  EXPECT_THROW((void)bale::registry<shape>{}.add<circle>(""), std::invalid_argument);
  const auto a = bale::registry<shape>{}.add<circle>("circle");
  const auto b = bale::registry<shape>{}.add<ring>("circle");
  EXPECT_THROW((void)a.merge(b), std::invalid_argument);
  const auto c = bale::registry<shape>{}.add<ring>("ring");
  const auto merged = a.merge(c);
  EXPECT_EQ(merged.size, 2u);
  EXPECT_EQ(merged.ids()[1], bale::registry<shape>{}.add<ring>("ring").ids()[0]);
  // Two registries for one base in one call: merge them instead.
  scene s;
  EXPECT_THROW((void)bale::serialize(bale::with(s, a, c)), std::invalid_argument);
}

TEST(Registry, IdsAreStableNamesNotPositions) {
  const scene s = make_scene();
  const auto reordered =
      bale::registry<shape>{}.add<label>("label").add<ring>("ring").add<circle>("circle");
  const auto bytes = bale::serialize(bale::with(s, shapes));
  EXPECT_EQ(bytes, bale::serialize(bale::with(s, reordered)));
  scene back;
  auto into = bale::with(back, reordered);
  bale::deserialize(bytes, into);
  EXPECT_EQ(dynamic_cast<label&>(*back.owned[1]).text, "hello");
}

TEST(Registry, JsonNamesTheType) {
  std::vector<std::unique_ptr<shape>> one;
  auto c = std::make_unique<circle>();
  c->radius = 3;
  one.push_back(std::move(c));
  EXPECT_EQ(bale::to_json(bale::with(one, shapes)),
            R"([{"$id":0,"$type":"circle","$objects":[{"x":0,"radius":3}]}])");
}

}  // namespace
