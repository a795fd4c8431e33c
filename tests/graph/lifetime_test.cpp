// SPDX-License-Identifier: BSL-1.0
// What outlives a read: an observed object must be owned through a chain of owning pointers from
// the values read (an owner that only weak_ptrs hold dies when the read returns, and so does all
// it owns), and a cycle of owning pointers, which would never be freed, is refused unless
// limits::allow_owning_cycles says otherwise. In every format.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <cstdint>
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

// Counts the objects alive, to prove that a refused message frees every object it made.
struct counted {
  static inline int alive = 0;
  std::int32_t value = 0;
  std::shared_ptr<counted> next;
  std::shared_ptr<counted> side;
  counted() { ++alive; }
  counted(const counted& other) : value(other.value), next(other.next), side(other.side) {
    ++alive;
  }
  counted& operator=(const counted&) = default;
  ~counted() { --alive; }
};
}  // namespace
BALE_REFLECT(counted, value, next, side)
namespace {

// Each pointer of a chain made writable: the writer's cycles are broken before the test ends.
std::vector<std::shared_ptr<counted>> chain(std::size_t length) {
  std::vector<std::shared_ptr<counted>> nodes(length);
  for (auto& n : nodes) n = std::make_shared<counted>();
  for (std::size_t i = 0; i + 1 < length; ++i) nodes[i]->next = nodes[i + 1];
  return nodes;
}
void unlink(std::vector<std::shared_ptr<counted>>& nodes) {
  for (auto& n : nodes) n->next.reset(), n->side.reset();
}

template <class Format, class T>
void expect_refused_freeing_all(const T& value, bale::errc code, const std::string& says) {
  const auto bytes = bale::serialize<Format>(value);
  const int before = counted::alive;
  {
    auto r = bale::try_deserialize<T, Format>(bytes);
    ASSERT_FALSE(r) << "read what should say: " << says;
    EXPECT_EQ(r.error().code(), code) << r.error().what();
    EXPECT_NE(std::string(r.error().what()).find(says), std::string::npos) << r.error().what();
  }
  EXPECT_EQ(counted::alive, before) << "a refused message left objects alive";
}

// A cycle closed through later owners (each object's first owner is the values read), or
// through more objects than a walk up first owners would look at, is refused as its last
// pointer is read: nothing it made stays alive.
TYPED_TEST(Lifetime, EveryCycleIsRefusedBeforeItHolds) {
  using Format = TypeParam;
  auto pair = chain(2);
  pair[1]->next = pair[0];
  expect_refused_freeing_all<Format>(pair, bale::errc::invalid_value, "cycle of shared_ptrs");
  auto sides = chain(3);  // 0 -> 1 -> 2 by first owners, 2 back to 1 as a later owner of 1
  sides[2]->side = sides[1];
  expect_refused_freeing_all<Format>(sides[0], bale::errc::invalid_value, "cycle of shared_ptrs");
  auto ring = chain(300);
  ring.back()->next = ring.front();
  expect_refused_freeing_all<Format>(ring.front(), bale::errc::invalid_value,
                                     "cycle of shared_ptrs");
  auto through_later = chain(300);  // the values read hold every node: all owners are later
  through_later.back()->side = through_later.front();
  expect_refused_freeing_all<Format>(through_later, bale::errc::invalid_value,
                                     "cycle of shared_ptrs");
  for (auto* nodes : {&pair, &sides, &ring, &through_later}) unlink(*nodes);
}

// Pointers back to objects that own others, without a cycle, read; so does a shape whose check
// would cost more than the message pays for (many pointers from deep in one long chain to the
// top of another), when the reader allows cycles. Without that, it is refused, freeing all.
struct two_chains {
  std::shared_ptr<counted> b;
  std::shared_ptr<counted> a;
};

TYPED_TEST(Lifetime, BackPointersWithoutCyclesAndTheirCost) {
  using Format = TypeParam;
  const bale::limits deep{.max_depth = 10000};
  auto long_one = chain(2000), short_one = chain(5);  // cheap: the pointee owns little
  for (auto& n : long_one) n->side = short_one.front();
  const auto back = bale::deserialize<two_chains, Format>(
      bale::serialize<Format>(two_chains{short_one.front(), long_one.front()}, deep), deep);
  EXPECT_EQ(back.a->next->next->side, back.b);
  auto a = chain(2000), b = chain(2000);
  for (auto& n : a) n->side = b.front();
  const two_chains tangled{b.front(), a.front()};
  const auto bytes = bale::serialize<Format>(tangled, deep);
  const int before = counted::alive;
  {
    auto r = bale::try_deserialize<two_chains, Format>(bytes, deep);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code(), bale::errc::element_limit) << r.error().what();
  }
  EXPECT_EQ(counted::alive, before);
  bale::limits trusted = deep;
  trusted.allow_owning_cycles = true;
  const auto read = bale::deserialize<two_chains, Format>(bytes, trusted);
  EXPECT_EQ(read.a->next->side, read.b);
  for (auto* nodes : {&long_one, &short_one, &a, &b}) unlink(*nodes);
}

}  // namespace
