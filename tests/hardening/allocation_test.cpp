// SPDX-License-Identifier: BSL-1.0
// Every byte a decode allocates is charged to limits::max_allocation before it is allocated, and
// nothing is allocated that the input has not paid for: measured by the heap itself.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bale/compress/compress.hpp>
#include <cstring>
#include <forward_list>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "counting_allocator.hpp"

namespace {

using hardening::measure_heap;
using hardening::mib;

// Five bytes on the wire (its id), a megabyte in memory.
struct blob {
  int id = 0;
  char scratch[1 << 20];
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};

// No bytes on the wire at all, a kilobyte in memory.
struct silent {
  char pad[1024];
  template <class Archive>
  void serialize(Archive&) {}
};

template <class T, class Format>
bale::result<T> decode(const std::vector<std::byte>& bytes, const bale::limits& lim) {
  return bale::try_deserialize<T, Format>(bytes, lim);
}

template <class Format>
void pointees_are_charged() {
  SCOPED_TRACE(std::string(Format::name));
  std::vector<std::unique_ptr<blob>> many;
  for (int i = 0; i < 64; ++i) many.push_back(std::make_unique<blob>());
  const auto bytes = bale::serialize<Format>(many);
  ASSERT_LT(bytes.size(), 2048u);  // 64 MiB of pointees from a few hundred bytes
  const bale::limits one_mib{.max_allocation = mib};
  bale::result<std::vector<std::unique_ptr<blob>>> r = bale::error(bale::errc::io_error, "", 0);
  const auto use =
      measure_heap([&] { r = decode<std::vector<std::unique_ptr<blob>>, Format>(bytes, one_mib); });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::allocation_limit);
  EXPECT_LE(use.peak_bytes, 2 * mib);

  std::vector<std::shared_ptr<blob>> shared;
  for (int i = 0; i < 64; ++i) shared.push_back(std::make_shared<blob>());
  const auto shared_bytes = bale::serialize<Format>(shared);
  const auto use2 = measure_heap([&] {
    auto r2 = decode<std::vector<std::shared_ptr<blob>>, Format>(shared_bytes, one_mib);
    ASSERT_FALSE(r2);
    EXPECT_EQ(r2.error().code(), bale::errc::allocation_limit);
  });
  EXPECT_LE(use2.peak_bytes, 2 * mib);
  // Within the budget they read.
  EXPECT_TRUE(
      (decode<std::vector<std::unique_ptr<blob>>, Format>(bytes, {.max_allocation = 80 * mib})));
}

TEST(Allocation, PointeesAreChargedInEveryFormat) {
  pointees_are_charged<bale::binary>();
  pointees_are_charged<bale::compact>();
  pointees_are_charged<bale::msgpack>();
  pointees_are_charged<bale::json>();
}

TEST(Allocation, ElementsThatTakeNoBytesGrowAsTheyArrive) {
  // Eight bytes claiming 2^20 elements of a type that writes nothing.
  for (const auto& bytes : {bale::serialize(std::uint64_t{1} << 20),
                            bale::serialize<bale::compact>(std::uint64_t{1} << 20)}) {
    const bool compact = bytes.size() < 8;
    for (int kind = 0; kind < 2; ++kind) {
      const auto use = measure_heap([&] {
        bale::result<void> r;
        if (kind == 0) {
          std::vector<silent> v;
          r = compact ? bale::try_deserialize<bale::compact>(bytes, v)
                      : bale::try_deserialize(bytes, v);
        } else {
          std::list<silent> l;
          r = compact ? bale::try_deserialize<bale::compact>(bytes, l)
                      : bale::try_deserialize(bytes, l);
        }
        ASSERT_FALSE(r);
        EXPECT_TRUE(r.error().code() == bale::errc::element_limit ||
                    r.error().code() == bale::errc::allocation_limit);
      });
      // max_empty_bytes (1 MiB), three times over while the vector doubles.
      EXPECT_LE(use.peak_bytes, 3 * mib + 64 * 1024) << kind;
    }
  }
  // As many as the limits allow still read.
  const std::vector<silent> fine(1000);
  EXPECT_EQ(bale::deserialize<std::vector<silent>>(bale::serialize(fine)).size(), 1000u);
}

template <class Container, class Format>
void nodes_are_charged_in(const Container& value) {
  SCOPED_TRACE(std::string(Format::name));
  const auto bytes = bale::serialize<Format>(value);
  bale::result<Container> r = bale::error(bale::errc::io_error, "", 0);
  const auto use = measure_heap(
      [&] { r = bale::try_deserialize<Container, Format>(bytes, {.max_allocation = mib}); });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::allocation_limit);
  // The error's own message and the nodes' malloc rounding aside, within the budget.
  EXPECT_LE(use.peak_bytes, mib + 64 * 1024);
}

template <class Container>
void nodes_are_charged(const Container& value) {
  nodes_are_charged_in<Container, bale::binary>(value);
  nodes_are_charged_in<Container, bale::compact>(value);
  nodes_are_charged_in<Container, bale::msgpack>(value);
  nodes_are_charged_in<Container, bale::json>(value);
}

TEST(Allocation, NodeContainersAreChargedWhatTheyAllocate) {
  // 100,000 one-byte elements: 100 KB by sizeof, 3-5 MB as nodes.
  std::list<char> list(100'000, 'x');
  nodes_are_charged(list);
  std::forward_list<char> forward(100'000, 'y');
  nodes_are_charged(forward);
  std::multiset<std::uint8_t> set;
  for (int i = 0; i < 100'000; ++i) set.insert(static_cast<std::uint8_t>(i));
  nodes_are_charged(set);
  std::map<std::int32_t, bool> map;
  for (int i = 0; i < 100'000; ++i) map.emplace(i, true);
  nodes_are_charged(map);
  std::unordered_set<std::int32_t> hashed;
  for (int i = 0; i < 100'000; ++i) hashed.insert(i);
  nodes_are_charged(hashed);
}

TEST(Allocation, PeakOfADecodeStaysWithinTheBudget) {
  // The formula of docs/limitations.md: peak <= max_allocation + max_empty_bytes (x2 while a
  // vector doubles) + the containers' own bookkeeping, for values that fit.
  std::map<std::string, std::vector<std::list<int>>> value;
  for (int i = 0; i < 200; ++i)
    value["key" + std::to_string(i)] = {std::list<int>(50, i), std::list<int>(20, -i)};
  const auto bytes = bale::serialize(value);
  for (std::size_t budget : {std::size_t{64} << 10, std::size_t{256} << 10, std::size_t{4} << 20}) {
    bool ok = false;
    const auto use = measure_heap([&] {
      ok = bale::try_deserialize<decltype(value)>(bytes, {.max_allocation = budget}).has_value();
    });
    EXPECT_LE(use.peak_bytes, budget + 2 * mib) << budget;
    if (budget == (std::size_t{4} << 20)) {
      EXPECT_TRUE(ok);
    }
  }
}

TEST(Allocation, DecompressionBombsAreRefusedBeforeAllocating) {
  // A frame claiming 1 GiB from a few bytes of payload.
  for (auto codec : {bale::codec::lz4, bale::codec::zstd, bale::codec::none}) {
    if (!bale::codec_available(codec)) continue;
    std::vector<std::byte> frame = bale::compress(std::vector<std::byte>(100), codec);
    bale::detail::put_u64(frame.data() + 5, std::uint64_t{1} << 30);
    const auto use = measure_heap([&] {
      auto r = bale::try_decompress(frame, {.max_allocation = std::size_t{2} << 30});
      ASSERT_FALSE(r) << bale::to_string(codec);
    });
    EXPECT_LE(use.peak_bytes, mib) << bale::to_string(codec);
  }
  // A real zstd frame of 64 MiB of zeros is a few KB; its output grows as it is decoded, so a
  // frame cut short costs what it produced.
  if (bale::codec_available(bale::codec::zstd)) {
    const std::vector<std::byte> zeros(64 * mib);
    std::vector<std::byte> frame = bale::compress(zeros, bale::codec::zstd);
    EXPECT_LT(frame.size(), 16 * 1024u);
    frame.resize(frame.size() / 4);
    const auto use = measure_heap([&] { EXPECT_FALSE(bale::try_decompress(frame)); });
    EXPECT_LE(use.peak_bytes, 40 * mib);
  }
}

TEST(Allocation, CompressKeepsNoWorstCaseCapacity) {
  std::vector<std::byte> zeros(4 * mib);
  for (auto codec : {bale::codec::lz4, bale::codec::zstd}) {
    if (!bale::codec_available(codec)) continue;
    const auto frame = bale::compress(zeros, codec);
    EXPECT_LE(frame.capacity(), frame.size() + frame.size() / 8) << bale::to_string(codec);
  }
}

// The ends of containers a named composite steps over are kept (core/skip_memo.hpp), and each is
// charged: an unknown member of many large containers, with nothing else to pay for, runs out of
// budget there, in JSON and MessagePack alike.
struct two_named {
  std::int64_t a = 0;
  std::string b;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("a", a), bale::field("b", b));
  }
};
struct with_unknown {
  std::int64_t a = 1;
  std::string b = "b";
  std::vector<std::vector<std::int64_t>> x;  // not a member of two_named: stepped over
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("a", a), bale::field("b", b), bale::field("x", x));
  }
};

with_unknown many_large_containers() {
  with_unknown sent;
  sent.x.assign(100, std::vector<std::int64_t>(64, 1234567));  // each over 256 bytes
  return sent;
}

TEST(Allocation, KeptEndsOfSkippedContainersAreCharged) {
  const bale::limits ample{.max_allocation = 1 << 16}, tight{.max_allocation = 2048};
  // JSON, told to skip unknown members: the 101 ends kept fit an ample budget, not a tight one.
  const std::string text = bale::to_json(many_large_containers());
  const bale::json_options skip{.skip_unknown_members = true};
  EXPECT_EQ(bale::from_json<two_named>(text, skip, ample).b, "b");
  const auto json = bale::try_from_json<two_named>(text, skip, tight);
  ASSERT_FALSE(json);
  EXPECT_EQ(json.error().code(), bale::errc::allocation_limit) << json.error().what();
  // MessagePack: the member is indexed before it is found unknown, so the budget refuses first.
  const auto bytes = bale::serialize<bale::msgpack>(many_large_containers());
  const auto unknown = bale::try_deserialize<two_named, bale::msgpack>(bytes, ample);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code(), bale::errc::invalid_value) << unknown.error().what();
  const auto refused = bale::try_deserialize<two_named, bale::msgpack>(bytes, tight);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), bale::errc::allocation_limit) << refused.error().what();
}

}  // namespace
