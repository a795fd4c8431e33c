// SPDX-License-Identifier: BSL-1.0
// Decoding stays linear in the input whatever its shape. Nothing here is timed: each test counts
// work (allocations, keys compared) or would run for minutes if the quadratic path came back.
#include <gtest/gtest.h>

#include <algorithm>
#include <bale/all.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "counting_allocator.hpp"

namespace {

struct sample {
  std::int32_t id;
  double value;
  std::int64_t count;
};

// Text as Python's json.dumps writes it: a space after ':' and ','.
std::string spaced(std::size_t n) {
  std::string text = "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (i != 0) text += ", ";
    text += "{\"id\": " + std::to_string(i) + ", \"value\": 1.5, \"count\": -" + std::to_string(i) +
            "}";
  }
  return text + "]";
}

TEST(LinearTime, SpacedJsonCostsNoWorkPerObjectBeyondItsOwn) {
  // An error is built (and allocates its message) only when one is thrown: a fast path that gave
  // up by throwing would allocate for every object, and compute its line from byte 0 each time.
  const std::string small = spaced(1000), large = spaced(16000);
  std::vector<sample> a, b;
  const auto use_small = hardening::measure_heap([&] { bale::from_json(small, a); });
  const auto use_large = hardening::measure_heap([&] { bale::from_json(large, b); });
  ASSERT_EQ(b.size(), 16000u);
  EXPECT_EQ(b[15999].count, -15999);
  // The vector's doublings, a few more for the larger one: not one per object.
  EXPECT_LT(use_large.allocations, use_small.allocations + 16);
  EXPECT_LT(use_large.allocations, 64u);
}

// A hand-described type with two named fields; texts with many unknown members are skipped.
struct account {
  std::string owner;
  std::int64_t balance = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("owner", owner), bale::field("balance", balance));
  }
};

std::string many_members(std::size_t n, bool repeat_last) {
  std::string text = "{\"owner\":\"x\",\"balance\":7";
  for (std::size_t i = 0; i < n; ++i) text += ",\"m" + std::to_string(i) + "\":0";
  if (repeat_last) text += ",\"m0\":1";
  return text + "}";
}

TEST(LinearTime, ManyMembersOfAFieldTypeAreSortedNotScanned) {
  // 300,000 members: comparing each with all before it is 4.5e10 comparisons (minutes).
  account a;
  bale::from_json(many_members(300'000, false), a, {.skip_unknown_members = true});
  EXPECT_EQ(a.balance, 7);
  auto r =
      bale::try_from_json<account>(many_members(300'000, true), {.skip_unknown_members = true});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().detail().find("duplicate member \"m0\""), std::string::npos);
  // Reported at the repeated name, as the scan of a small object reports it.
  const std::string small = many_members(3, true);
  auto s = bale::try_from_json<account>(small, {.skip_unknown_members = true});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().offset(), small.rfind("\"m0\""));
  auto big = many_members(40, true);
  auto t = bale::try_from_json<account>(big, {.skip_unknown_members = true});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().offset(), big.rfind("\"m0\""));
}

// Integer keys whose standard hash is the identity, chosen to share one bucket of the table the
// decoder builds: multiples of its bucket count.
std::vector<std::uint64_t> colliding_keys(std::size_t n) {
  std::unordered_set<std::uint64_t> probe;
  probe.reserve(n);
  const std::uint64_t buckets = probe.bucket_count();
  std::vector<std::uint64_t> keys;
  for (std::uint64_t i = 0; i < n; ++i) keys.push_back(i * buckets);
  return keys;
}

struct spread {
  std::size_t operator()(std::uint64_t k) const noexcept { return k * 0x9E3779B97F4A7C15ULL >> 7; }
};

template <class Format>
void flooding_is_refused() {
  SCOPED_TRACE(std::string(Format::name));
  const std::size_t n = 40'000;  // 8e8 key comparisons if let in
  const std::vector<std::uint64_t> keys = colliding_keys(n);
  // Built with a hash that spreads them (the bytes do not depend on the hash): the attacker's
  // side needs no quadratic time either.
  std::unordered_map<std::uint64_t, bool, spread> map;
  std::unordered_set<std::uint64_t, spread> set;
  std::unordered_multiset<std::uint64_t, spread> multi;
  for (auto k : keys) {
    map.emplace(k, true);
    set.insert(k);
    multi.insert(k);
  }
  auto m = bale::try_deserialize<std::unordered_map<std::uint64_t, bool>, Format>(
      bale::serialize<Format>(map));
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code(), bale::errc::element_limit);
  auto s = bale::try_deserialize<std::unordered_set<std::uint64_t>, Format>(
      bale::serialize<Format>(set));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), bale::errc::element_limit);
  auto u = bale::try_deserialize<std::unordered_multiset<std::uint64_t>, Format>(
      bale::serialize<Format>(multi));
  ASSERT_FALSE(u);
  EXPECT_EQ(u.error().code(), bale::errc::element_limit);

  // What real data looks like reads: consecutive keys, random keys, and one key repeated
  // 100,000 times in a multi container.
  std::unordered_map<std::uint64_t, int> consecutive;
  for (std::uint64_t i = 0; i < 100'000; ++i) consecutive.emplace(i, 1);
  EXPECT_TRUE(
      (bale::try_deserialize<decltype(consecutive), Format>(bale::serialize<Format>(consecutive))));
  std::unordered_set<std::uint64_t> random;
  std::uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 100'000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    random.insert(x);
  }
  EXPECT_TRUE((bale::try_deserialize<decltype(random), Format>(bale::serialize<Format>(random))));
  std::unordered_multiset<std::uint64_t> repeated;
  // With the first as the hint: libc++ walks a key's whole group to insert without one.
  for (int i = 0; i < 100'000; ++i) repeated.emplace_hint(repeated.begin(), 42);
  auto back = bale::try_deserialize<decltype(repeated), Format>(bale::serialize<Format>(repeated));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->count(42), 100'000u);
}

// Every key in one bucket, and every node passed in a bucket walk counted: a library compares
// the keys of the nodes it passes (all hashes are equal).
std::size_t comparisons = 0;
struct one_bucket {
  std::size_t operator()(std::uint64_t) const noexcept { return 7; }
};
struct counted_equal {
  bool operator()(std::uint64_t a, std::uint64_t b) const noexcept {
    ++comparisons;
    return a == b;
  }
};
using crowded_multiset = std::unordered_multiset<std::uint64_t, one_bucket, counted_equal>;
using crowded_multimap = std::unordered_multimap<std::uint64_t, int, one_bucket, counted_equal>;

std::vector<std::uint64_t> runs(std::initializer_list<std::pair<std::uint64_t, std::size_t>> keys) {
  std::vector<std::uint64_t> out;
  for (const auto& [key, times] : keys) out.insert(out.end(), times, key);
  return out;
}

// Keys that share a bucket and repeat, in the orders a writer chooses (a multi container's bytes
// are its elements in any order): reading compares at most 65,536 plus max_bucket_keys keys per
// element, read or refused; walked node by node, the repeats below would take seconds.
template <class Format, class Multi>
void repeats_cost_at_most_the_budget(const std::vector<std::uint64_t>& keys, bool must_read) {
  std::vector<typename Multi::value_type> elements;
  for (const std::uint64_t k : keys) {
    if constexpr (std::is_same_v<Multi, crowded_multiset>)
      elements.push_back(k);
    else
      elements.emplace_back(k, static_cast<int>(k));
  }
  // A vector of the elements has the bytes of the container holding them in this order.
  const std::vector<std::byte> bytes = bale::serialize<Format>(elements);
  comparisons = 0;
  auto read = bale::try_deserialize<Multi, Format>(bytes);
  EXPECT_LE(comparisons, 4 * (65'536 + 64 * keys.size()));
  if (must_read) {
    ASSERT_TRUE(read) << read.error().what();
  } else if (!read) {
    EXPECT_EQ(read.error().code(), bale::errc::element_limit);
  }
  if (read) {
    EXPECT_EQ(read->size(), keys.size());
    for (const std::uint64_t k : {1, 2, 3})
      EXPECT_EQ(read->count(k), static_cast<std::size_t>(std::count(keys.begin(), keys.end(), k)));
  }
}

template <class Format, class Multi>
void repeated_keys_in_one_bucket() {
  SCOPED_TRACE(std::string(Format::name));
  const std::size_t n = 20'000;
  // Grouped, as any writer of a std container writes them: read in linear time.
  repeats_cost_at_most_the_budget<Format, Multi>(runs({{1, n}}), true);
  repeats_cost_at_most_the_budget<Format, Multi>(runs({{1, 1}, {2, n}, {1, n}}), true);
  repeats_cost_at_most_the_budget<Format, Multi>(runs({{1, n}, {2, 30}}), true);
  // A key's group deep in its bucket (where libc++ puts a new key), or keys alternating: read
  // or refused, never walked for long.
  repeats_cost_at_most_the_budget<Format, Multi>(runs({{1, 1}, {2, n}, {3, n}}), false);
  repeats_cost_at_most_the_budget<Format, Multi>(runs({{1, n}, {2, 100}}), false);
  std::vector<std::uint64_t> alternating;
  for (std::size_t i = 0; i < n; ++i) alternating.push_back(1 + i % 2);
  repeats_cost_at_most_the_budget<Format, Multi>(alternating, false);
}

TEST(LinearTime, RepeatedKeysSharingABucketAreNeverWalkedForLong) {
  repeated_keys_in_one_bucket<bale::binary, crowded_multiset>();
  repeated_keys_in_one_bucket<bale::binary, crowded_multimap>();
  repeated_keys_in_one_bucket<bale::compact, crowded_multiset>();
  repeated_keys_in_one_bucket<bale::compact, crowded_multimap>();
  repeated_keys_in_one_bucket<bale::msgpack, crowded_multiset>();  // a map is not an array here
  repeated_keys_in_one_bucket<bale::json, crowded_multiset>();
}

TEST(LinearTime, HashFloodingIsRefusedInEveryFormat) {
  flooding_is_refused<bale::binary>();
  flooding_is_refused<bale::compact>();
  flooding_is_refused<bale::msgpack>();
  flooding_is_refused<bale::json>();
}

// A type that asks for its members by name is a named composite in JSON and MessagePack: each
// level indexes its members by stepping over their values. Stepped over again at every level,
// 400 levels above 4 million numbers would take half a minute; each container is stepped over
// once. (400 levels fit the stack of a Clang -O0 ASan build, whose frames are the largest.)
struct named_level {
  std::vector<named_level> inner;
  std::vector<std::int64_t> payload;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("payload", payload), bale::field("inner", inner));
  }
};

template <class Format>
void deep_named_composites_read_once() {
  named_level top;
  named_level* at = &top;
  for (int i = 0; i < 400; ++i) {
    at->inner.resize(1);
    at->payload = {i};
    at = &at->inner[0];
  }
  at->payload.assign(4'000'000, 12345);
  const bale::limits deep{.max_depth = 2100};
  const auto bytes = bale::serialize<Format>(top, deep);
  const auto back = bale::deserialize<named_level, Format>(bytes, deep);
  const named_level* level = &back;
  for (int i = 0; i < 400; ++i) {
    ASSERT_EQ(level->payload, std::vector<std::int64_t>{i});
    ASSERT_EQ(level->inner.size(), 1u);
    level = &level->inner[0];
  }
  EXPECT_EQ(level->payload.size(), 4'000'000u);
}

TEST(LinearTime, DeepNamedCompositesStepOverEachValueOnce) {
  deep_named_composites_read_once<bale::json>();
  deep_named_composites_read_once<bale::msgpack>();
}

TEST(LinearTime, TheBucketLimitIsALimit) {
  const std::vector<std::uint64_t> keys = colliding_keys(50);
  const std::unordered_set<std::uint64_t> set(keys.begin(), keys.end());
  const auto bytes = bale::serialize(set);
  EXPECT_TRUE(bale::try_deserialize<std::unordered_set<std::uint64_t>>(bytes));
  auto r = bale::try_deserialize<std::unordered_set<std::uint64_t>>(bytes, {.max_bucket_keys = 20});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::element_limit);
}

}  // namespace
