// SPDX-License-Identifier: BSL-1.0
// Graph messages that nobody should trust: every prefix and every bit flip fails cleanly or reads
// a valid graph, references to objects of another type or past the table are errors with their
// offset, limits hold, and a list of 10^7 nodes saves and loads on a 256 KiB stack.
#include <gtest/gtest.h>
#include <pthread.h>

#include <bale/all.hpp>
#include <bale/registry.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph_formats.hpp"

namespace {

// Shared pointers only to strings, back references weak: no input can make a reference cycle
// that would outlive a failed read.
struct item {
  std::int32_t value = 0;
  std::unique_ptr<item> next;
  std::weak_ptr<item> back;
  std::vector<std::shared_ptr<std::string>> names;
};

struct two_kinds {
  std::shared_ptr<item> an_item;
  std::shared_ptr<std::string> a_string;
};

std::shared_ptr<item> sample() {
  auto a = std::make_shared<item>();
  auto name = std::make_shared<std::string>("shared name");
  a->value = 1;
  a->names = {name, name};
  a->back = a;
  a->next = std::make_unique<item>();
  a->next->value = 2;
  a->next->back = a;
  a->next->names = {name, nullptr};
  return a;
}

template <class Format>
class Hostile : public ::testing::Test {};
TYPED_TEST_SUITE(Hostile, graph_formats, format_names);

TYPED_TEST(Hostile, EveryPrefixAndBitFlipFailsCleanly) {
  using Format = TypeParam;
  const auto a = sample();
  const auto bytes = bale::serialize<Format>(a);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<std::byte> prefix(bytes.begin(), bytes.begin() + static_cast<long>(n));
    auto r = bale::try_deserialize<std::shared_ptr<item>, Format>(prefix);
    EXPECT_FALSE(r) << "prefix " << n;
  }
  std::size_t read_back = 0;
  for (std::size_t i = 0; i < bytes.size() * 8; ++i) {
    auto flipped = bytes;
    flipped[i / 8] ^= std::byte(1U << (i % 8));
    auto r = bale::try_deserialize<std::shared_ptr<item>, Format>(flipped);
    if (r) ++read_back;
  }
  EXPECT_LT(read_back, bytes.size() * 8);
}

// Hand-made binary messages.
std::vector<std::byte> words(std::initializer_list<std::uint32_t> ws) {
  std::vector<std::byte> out;
  for (std::uint32_t w : ws)
    for (int i = 0; i < 4; ++i) out.push_back(std::byte((w >> (8 * i)) & 0xFF));
  return out;
}

TEST(HostileBinary, ReferenceToAnObjectOfAnotherTypeIsAnError) {
  // two_kinds: an item (new object 0: value 5, next null, back null, names empty), then a string
  // pointer that refers to object 0.
  std::vector<std::byte> bytes = words({1, 5});  // tag new, value
  bytes.push_back(std::byte{0});                 // next: a unique_ptr's flag
  const auto rest = words({0, 0, 0, 2});  // back null, names length (u64), a_string: object 0
  bytes.insert(bytes.end(), rest.begin(), rest.end());
  auto r = bale::try_deserialize<two_kinds>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::wrong_type);
  EXPECT_EQ(r.error().offset(), 21u);
  EXPECT_NE(std::string(r.error().what()).find("a_string"), std::string::npos) << r.error().what();
}

TEST(HostileBinary, ReferencePastTheTableIsAnError) {
  std::vector<std::byte> bytes = words({1, 5});
  bytes.push_back(std::byte{0});
  const auto rest = words({0, 0, 0, 7});  // a_string: object 5, of 1
  bytes.insert(bytes.end(), rest.begin(), rest.end());
  auto r = bale::try_deserialize<two_kinds>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  // A reference to the object being read is an earlier object: allowed (a weak self-reference).
  std::vector<std::byte> self = words({1, 5});
  self.push_back(std::byte{0});
  const auto self_rest = words({2, 0, 0});
  self.insert(self.end(), self_rest.begin(), self_rest.end());
  auto s = bale::try_deserialize<std::shared_ptr<item>>(self);
  ASSERT_TRUE(s);
  EXPECT_EQ((*s)->back.lock(), *s);
}

TEST(HostileBinary, UniquePointerCannotBeReferenced) {
  struct mixed {
    std::unique_ptr<item> owned;
    std::shared_ptr<item> shared;
  };
  std::vector<std::byte> m;
  m.push_back(std::byte{1});  // unique flag: present
  const auto value = words({7});
  m.insert(m.end(), value.begin(), value.end());
  m.push_back(std::byte{0});           // next
  const auto body = words({0, 0, 0});  // back, names length
  m.insert(m.end(), body.begin(), body.end());
  const auto ref = words({2});  // shared: object 0, which the unique_ptr owns
  m.insert(m.end(), ref.begin(), ref.end());
  auto r = bale::try_deserialize<mixed>(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::wrong_type);
}

struct base {
  virtual ~base() = default;
  int v = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(v);
  }
};
struct derived : base {};

TEST(HostileBinary, UnknownTypeIdIsAnError) {
  const auto registry = bale::registry<base>{}.add<derived>("derived");
  std::shared_ptr<base> p;
  auto into = bale::with(p, registry);
  const auto bytes = words({1, 0, 12345, 0});  // new object, new type with id 12345
  auto r = bale::try_deserialize(bytes, into);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::wrong_type);
  EXPECT_NE(std::string(r.error().what()).find("12345"), std::string::npos);
  const auto bad_index = words({1, 3, 0});  // a type index the message never named
  EXPECT_FALSE(bale::try_deserialize(bad_index, into));
}

TYPED_TEST(Hostile, ObjectLimitHoldsOnWritingAndReading) {
  using Format = TypeParam;
  std::vector<std::shared_ptr<int>> many;
  for (int i = 0; i < 100; ++i) many.push_back(std::make_shared<int>(i));
  const bale::limits few{.max_objects = 50};
  try {
    (void)bale::serialize<Format>(many, few);
    FAIL() << "wrote past max_objects";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::element_limit);
  }
  const auto bytes = bale::serialize<Format>(many);
  auto r = bale::try_deserialize<std::vector<std::shared_ptr<int>>, Format>(bytes, few);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::element_limit);
  // Each object is charged to the allocation budget.
  auto tight = bale::try_deserialize<std::vector<std::shared_ptr<int>>, Format>(
      bytes, {.max_allocation = 2000});
  ASSERT_FALSE(tight);
  EXPECT_EQ(tight.error().code(), bale::errc::allocation_limit);
}

// A long list through shared_ptr and through unique_ptr, on a thread with a 256 KiB stack.
struct shared_link {
  std::uint32_t value = 0;
  std::shared_ptr<shared_link> next;
};
struct unique_link {
  std::uint32_t value = 0;
  std::unique_ptr<unique_link> next;
};

template <class Link, class Make>
std::size_t long_list_round_trip(std::size_t n, Make make) {
  auto head = make();
  {
    auto* at = head.get();
    for (std::size_t i = 1; i < n; ++i) {
      at->next = make();
      at = at->next.get();
      at->value = static_cast<std::uint32_t>(i);
    }
  }
  const auto bytes =
      bale::serialize<bale::compact>(head, bale::limits{.max_allocation = 1ULL << 32});
  while (head) head = std::move(head->next);  // freed without recursion
  auto back =
      bale::deserialize<decltype(head), bale::compact>(bytes, {.max_allocation = 1ULL << 32});
  std::size_t count = 0;
  bool in_order = true;
  for (auto* at = back.get(); at != nullptr; at = at->next.get()) in_order &= at->value == count++;
  while (back) back = std::move(back->next);
  return in_order ? count : 0;
}

void* run_long_lists(void* out) {
  constexpr std::size_t n = 10'000'000;
  auto* counts = static_cast<std::size_t*>(out);
  counts[0] = long_list_round_trip<shared_link>(n, [] { return std::make_shared<shared_link>(); });
  counts[1] = long_list_round_trip<unique_link>(n, [] { return std::make_unique<unique_link>(); });
  return nullptr;
}

TEST(Stack, TenMillionNodeListsOnA256KiBStack) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  std::size_t counts[2] = {0, 0};
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attr, run_long_lists, counts), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  EXPECT_EQ(counts[0], 10'000'000u);
  EXPECT_EQ(counts[1], 10'000'000u);
}

}  // namespace
