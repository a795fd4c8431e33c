// SPDX-License-Identifier: BSL-1.0
// bale::owning_ptr<T>: a raw pointer that owns its object, written and read as a unique_ptr (same
// bytes), in every format, polymorphic through a registry; reading replaces and deletes what it
// held.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bale/registry.hpp>
#include <string>

#include "graph/graph_formats.hpp"

namespace {

struct tree {  // the shape of a code base that owns children through raw pointers
  int value = 0;
  bale::owning_ptr<tree> left;
  bale::owning_ptr<tree> right;
  tree() = default;
  tree(const tree&) = delete;
  tree& operator=(const tree&) = delete;
  ~tree() {
    delete left;
    delete right;
  }
};

}  // namespace
BALE_REFLECT(tree, value, left, right)
namespace {

struct unique_tree {
  int value = 0;
  std::unique_ptr<unique_tree> left;
  std::unique_ptr<unique_tree> right;
};

tree* leaf(int value) {
  auto* t = new tree;
  t->value = value;
  return t;
}

template <class Format>
class Owning : public ::testing::Test {};
TYPED_TEST_SUITE(Owning, graph_formats, format_names);

TYPED_TEST(Owning, TreeRoundTrip) {
  using Format = TypeParam;
  tree root;
  root.value = 1;
  root.left = leaf(2);
  root.left->right = leaf(3);
  const auto bytes = bale::serialize<Format>(root);
  tree back;
  bale::deserialize<Format>(bytes, back);
  EXPECT_EQ(back.value, 1);
  ASSERT_NE(back.left, nullptr);
  EXPECT_EQ(back.left->value, 2);
  EXPECT_EQ(back.right, nullptr);
  EXPECT_EQ(back.left->left, nullptr);
  ASSERT_NE(back.left->right, nullptr);
  EXPECT_EQ(back.left->right->value, 3);
  EXPECT_NE(back.left.get(), root.left.get());  // a new object, owned by back
}

TEST(OwningBytes, SameBytesAsUniquePtr) {
  tree root;
  root.value = 1;
  root.right = leaf(4);
  unique_tree same{1, nullptr, std::make_unique<unique_tree>()};
  same.right->value = 4;
  EXPECT_EQ(bale::serialize(root), bale::serialize(same));
  EXPECT_EQ(bale::serialize<bale::json>(root), bale::serialize<bale::json>(same));
}

struct counted {
  static inline int alive = 0;
  int value = 0;
  counted() { ++alive; }
  counted(const counted&) = delete;
  counted& operator=(const counted&) = delete;
  ~counted() { --alive; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value);
  }
};

TEST(OwningBytes, ReadingReplacesAndDeletesTheOldObject) {
  bale::owning_ptr<counted> written = new counted;
  written->value = 7;
  const auto bytes = bale::serialize(written);
  bale::owning_ptr<counted> target = new counted;
  ASSERT_EQ(counted::alive, 2);
  bale::deserialize(bytes, target);
  EXPECT_EQ(counted::alive, 2);  // the old object went, the read one came
  EXPECT_EQ(target->value, 7);
  delete target;
  delete written;
  EXPECT_EQ(counted::alive, 0);
}

struct animal {
  virtual ~animal() = default;
  std::string name;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name));
  }
};
struct dog : animal {
  int barks = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    animal::serialize(ar);
    ar(bale::field("barks", barks));
  }
};
struct kennel {
  bale::owning_ptr<animal> resident;
  ~kennel() { delete resident; }
};

TYPED_TEST(Owning, PolymorphicThroughARegistry) {
  using Format = TypeParam;
  const auto animals = bale::registry<animal>{}.add<dog>("dog");
  kennel k;
  auto* d = new dog;
  d->name = "rex";
  d->barks = 3;
  k.resident = d;
  const auto bytes = bale::serialize<Format>(bale::with(k, animals));
  kennel back;
  auto into = bale::with(back, animals);
  bale::deserialize<Format>(bytes, into);
  const auto* read = dynamic_cast<const dog*>(back.resident.get());
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->name, "rex");
  EXPECT_EQ(read->barks, 3);
  kennel unlisted;  // without the registry, a dog is refused, not sliced
  unlisted.resident = new dog;
  EXPECT_THROW((void)bale::serialize<Format>(unlisted), bale::error);
}

}  // namespace
