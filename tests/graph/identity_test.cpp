// SPDX-License-Identifier: BSL-1.0
// Shared identity: two shared_ptrs to one object come back as one object, in every format, through
// DAGs, diamonds, cycles closed by weak_ptr, self-references and containers of several kinds.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bale/json/format.hpp>
#include <bale/msgpack/format.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph_formats.hpp"

namespace {

template <class Format>
class Identity : public ::testing::Test {};
TYPED_TEST_SUITE(Identity, graph_formats, format_names);

struct node {
  int value = 0;
  std::vector<std::shared_ptr<node>> children;
  std::weak_ptr<node> parent;
  std::weak_ptr<node> self;
};

struct holder {
  std::shared_ptr<node> first;
  std::map<std::string, std::shared_ptr<node>> by_name;
  std::vector<std::shared_ptr<const node>> read_only;
  std::unique_ptr<node> owned;
};

template <class Format>
holder round_trip(const holder& h) {
  return bale::deserialize<holder, Format>(bale::serialize<Format>(h));
}

TYPED_TEST(Identity, DiamondIsOneObject) {
  using Format = TypeParam;
  auto top = std::make_shared<node>();
  auto left = std::make_shared<node>();
  auto right = std::make_shared<node>();
  auto bottom = std::make_shared<node>();
  top->value = 1, left->value = 2, right->value = 3, bottom->value = 4;
  top->children = {left, right};
  left->children = {bottom};
  right->children = {bottom};
  holder h;
  h.first = top;
  h.by_name = {{"bottom", bottom}, {"left", left}};
  h.read_only = {bottom, top};
  h.owned = std::make_unique<node>();
  h.owned->children = {right, std::make_shared<node>()};

  const holder back = round_trip<Format>(h);
  ASSERT_TRUE(back.first);
  const auto& b_top = back.first;
  ASSERT_EQ(b_top->children.size(), 2u);
  const auto& b_bottom = b_top->children[0]->children.at(0);
  EXPECT_EQ(b_bottom, b_top->children[1]->children.at(0));  // the diamond closes
  EXPECT_EQ(b_bottom->value, 4);
  EXPECT_EQ(back.by_name.at("bottom"), b_bottom);
  EXPECT_EQ(back.by_name.at("left"), b_top->children[0]);
  EXPECT_EQ(back.read_only.at(0).get(), b_bottom.get());
  EXPECT_EQ(back.read_only.at(1).get(), b_top.get());
  ASSERT_TRUE(back.owned);
  EXPECT_EQ(back.owned->children.at(0), b_top->children[1]);
  EXPECT_EQ(back.owned->children.at(1)->value, 0);
  EXPECT_NE(back.owned->children.at(1), b_top);
  // Counts: every object is held once by the graph, as before writing.
  EXPECT_EQ(b_bottom.use_count(), 4);  // left, right, by_name, read_only
}

TYPED_TEST(Identity, CyclesThroughWeakPtrAndSelf) {
  using Format = TypeParam;
  auto root = std::make_shared<node>();
  root->self = root;
  for (int i = 0; i < 3; ++i) {
    auto child = std::make_shared<node>();
    child->value = i + 10;
    child->parent = root;
    child->self = child;
    root->children.push_back(child);
  }
  const auto bytes = bale::serialize<Format>(root);
  const auto back = bale::deserialize<std::shared_ptr<node>, Format>(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->self.lock(), back);
  ASSERT_EQ(back->children.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(back->children[i]->value, i + 10);
    EXPECT_EQ(back->children[i]->parent.lock(), back);
    EXPECT_EQ(back->children[i]->self.lock(), back->children[i]);
  }
  EXPECT_EQ(back.use_count(), 1);  // weak references do not own
}

TYPED_TEST(Identity, ObjectReachedOnlyByWeakPtrExpires) {
  using Format = TypeParam;
  auto only_weak = std::make_shared<node>();
  auto root = std::make_shared<node>();
  root->parent = only_weak;
  const auto back = bale::deserialize<std::shared_ptr<node>, Format>(bale::serialize<Format>(root));
  EXPECT_TRUE(back->parent.expired());
}

TYPED_TEST(Identity, UniqueAndNullPointers) {
  using Format = TypeParam;
  holder h;
  const holder back = round_trip<Format>(h);
  EXPECT_FALSE(back.first);
  EXPECT_FALSE(back.owned);
  auto shared = std::make_shared<node>();
  h.by_name = {{"a", shared}, {"b", nullptr}, {"c", shared}};
  const holder again = round_trip<Format>(h);
  EXPECT_EQ(again.by_name.at("a"), again.by_name.at("c"));
  EXPECT_FALSE(again.by_name.at("b"));
}

// Values written one after another into one buffer (bale::writer) are separate messages.
TEST(IdentityBytes, SeparateCallsAreSeparateMessages) {
  auto shared = std::make_shared<node>();
  std::vector<std::byte> bytes;
  bale::writer out(bytes);
  out(shared);
  out(shared);
  bale::reader in(bytes);
  std::shared_ptr<node> a, b;
  in(a, b);
  EXPECT_NE(a, b);
}

// The bytes: a shared object is written once, a reference is its number.
TEST(IdentityBytes, BinaryBytes) {
  auto leaf = std::make_shared<int>(7);
  const std::vector<std::shared_ptr<int>> twice{leaf, leaf, nullptr};
  const auto bytes = bale::serialize(twice);
  const std::vector<std::uint8_t> expected{3, 0, 0, 0, 0, 0, 0, 0,  // length
                                           1, 0, 0, 0, 7, 0, 0, 0,  // new object 0, its body
                                           2, 0, 0, 0,              // object 0 again
                                           0, 0, 0, 0};             // null
  ASSERT_EQ(bytes.size(), expected.size());
  for (std::size_t i = 0; i < bytes.size(); ++i)
    EXPECT_EQ(std::to_integer<std::uint8_t>(bytes[i]), expected[i]) << i;
}

// A save() that meets other pointers when writing than when its size was counted is an error,
// not a message whose references name the wrong objects.
struct fickle {
  std::shared_ptr<int> a = std::make_shared<int>(1);
  std::shared_ptr<int> b = std::make_shared<int>(2);
  mutable int calls = 0;
  template <class Archive>
  void save(Archive& ar) const {
    if (++calls % 2)
      ar(a, b);
    else
      ar(b, a);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(a, b);
  }
};

TEST(IdentityBytes, SaveThatChangesBetweenPassesIsAnError) {
  const fickle f;
  try {
    (void)bale::serialize(f);
    FAIL() << "wrote a message whose references do not match its objects";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("another order"), std::string::npos) << e.what();
  }
}

TEST(IdentityBytes, JsonForm) {
  auto leaf = std::make_shared<int>(7);
  const std::vector<std::shared_ptr<int>> twice{leaf, leaf, nullptr};
  const auto text = bale::to_json(twice);
  EXPECT_EQ(text, R"([{"$id":0,"$objects":[7]},{"$ref":0},null])");
  EXPECT_EQ(bale::to_json(std::make_unique<int>(5)), R"({"$id":0,"$objects":[5]})");
}

}  // namespace
