// SPDX-License-Identifier: BSL-1.0
// What outlives a read: an observed object must be owned through a chain of owning pointers from
// the values read (an owner that only weak_ptrs hold dies when the read returns, and so does all
// it owns), and a cycle of owning pointers, which would never be freed, is refused unless
// limits::allow_owning_cycles says otherwise. In every format.
#include <gtest/gtest.h>

#include <bale/bale.hpp>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph_formats.hpp"

namespace {

template <class Format>
class Lifetime : public ::testing::Test {};
TYPED_TEST_SUITE(Lifetime, graph_formats, format_names);

struct holder {
  std::unique_ptr<int> p;
};
struct weak_top {  // the holder of what o observes is held by a weak_ptr only
  std::weak_ptr<holder> w;
  bale::observer<int> o;
};
struct strong_top {  // the same, with a shared_ptr that keeps the holder
  std::shared_ptr<holder> s;
  std::weak_ptr<holder> w;
  bale::observer<int> o;
};
struct weak_first {
  std::weak_ptr<holder> w;
  std::shared_ptr<holder> s;
  bale::observer<int> o;
};
struct middle {
  std::shared_ptr<holder> h;
};
struct two_levels {  // weak_ptr -> middle -(shared)-> holder -(unique)-> int
  std::weak_ptr<middle> w;
  bale::observer<int> o;
};

// Written without complaint (the writer's program keeps its objects alive), refused on reading.
template <class Format, class T>
void expect_refused(const T& value, const std::string& says) {
  const auto bytes = bale::serialize<Format>(value);
  auto r = bale::try_deserialize<T, Format>(bytes);
  ASSERT_FALSE(r) << "read what should say: " << says;
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_NE(std::string(r.error().what()).find(says), std::string::npos) << r.error().what();
}
template <class Format, class T>
void expect_dangling_refused(const T& value) {
  expect_refused<Format>(value, "would dangle");
}

TYPED_TEST(Lifetime, AnObservedObjectWhoseOwnerOnlyWeakPointersHoldIsRefused) {
  using Format = TypeParam;
  const auto kept = std::make_shared<holder>();  // the writer's owner, outside the message
  kept->p = std::make_unique<int>(7);
  expect_dangling_refused<Format>(weak_top{kept, kept->p.get()});
}

TYPED_TEST(Lifetime, TheWholeChainOfOwnersIsFollowed) {
  using Format = TypeParam;
  const auto kept = std::make_shared<middle>();
  kept->h = std::make_shared<holder>();
  kept->h->p = std::make_unique<int>(8);
  expect_dangling_refused<Format>(two_levels{kept, kept->h->p.get()});
}

TYPED_TEST(Lifetime, AnObservedObjectOwnedFromTheValuesReads) {
  using Format = TypeParam;
  strong_top t;
  t.s = std::make_shared<holder>();
  t.s->p = std::make_unique<int>(9);
  t.w = t.s;
  t.o = t.s->p.get();
  const auto back = bale::deserialize<strong_top, Format>(bale::serialize<Format>(t));
  ASSERT_TRUE(back.s && back.s->p);
  EXPECT_EQ(back.o.get(), back.s->p.get());
  EXPECT_EQ(*back.o, 9);
  EXPECT_EQ(back.w.lock(), back.s);
  // The weak_ptr met first, the shared_ptr after it: the object is still owned.
  weak_first f{t.s, t.s, t.s->p.get()};
  const auto again = bale::deserialize<weak_first, Format>(bale::serialize<Format>(f));
  EXPECT_EQ(again.o.get(), again.s->p.get());
}

struct link {
  std::int32_t value = 0;
  std::shared_ptr<link> next;
};
struct boxed;
struct inner {
  std::shared_ptr<boxed> back;
};
struct boxed {
  std::unique_ptr<inner> in;
};

template <class Format, class T>
void expect_cycle_refused(const T& value) {
  expect_refused<Format>(value, "cycle of shared_ptrs");
}

TYPED_TEST(Lifetime, CyclesOfOwningPointersAreRefusedByDefault) {
  using Format = TypeParam;
  auto a = std::make_shared<link>();
  auto b = std::make_shared<link>();
  a->value = 1, b->value = 2;
  a->next = b;
  b->next = a;
  expect_cycle_refused<Format>(a);
  auto self = std::make_shared<link>();
  self->next = self;
  expect_cycle_refused<Format>(self);
  auto box = std::make_shared<boxed>();  // shared -> unique -> shared back
  box->in = std::make_unique<inner>();
  box->in->back = box;
  expect_cycle_refused<Format>(box);
  // Allowed, they read (and the reader frees them by breaking the cycle).
  bale::limits allow;
  allow.allow_owning_cycles = true;
  auto back = bale::deserialize<std::shared_ptr<link>, Format>(bale::serialize<Format>(a), allow);
  ASSERT_TRUE(back && back->next);
  EXPECT_EQ(back->next->next, back);
  EXPECT_EQ(back->next->value, 2);
  back->next->next.reset();
  auto self_back =
      bale::deserialize<std::shared_ptr<link>, Format>(bale::serialize<Format>(self), allow);
  EXPECT_EQ(self_back->next, self_back);
  self_back->next.reset();
  // The writer's own cycles, broken so the test leaks nothing.
  a->next.reset();
  self->next.reset();
  box->in->back.reset();
}

TYPED_TEST(Lifetime, SharedObjectsWithoutCyclesRead) {
  using Format = TypeParam;
  // A diamond and a list: later owners, no cycle.
  auto bottom = std::make_shared<link>();
  bottom->value = 3;
  std::vector<std::shared_ptr<link>> list;
  for (int i = 0; i < 4; ++i) {
    auto l = std::make_shared<link>();
    l->value = i;
    l->next = bottom;
    list.push_back(l);
  }
  list.push_back(list[0]);
  const auto back =
      bale::deserialize<std::vector<std::shared_ptr<link>>, Format>(bale::serialize<Format>(list));
  ASSERT_EQ(back.size(), 5u);
  EXPECT_EQ(back[4], back[0]);
  EXPECT_EQ(back[1]->next, back[3]->next);
}

}  // namespace
