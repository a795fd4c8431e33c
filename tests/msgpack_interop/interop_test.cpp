// SPDX-License-Identifier: BSL-1.0
// bale's MessagePack against msgpack-cxx: what one writes, the other reads as the same values.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <cstdint>
#include <limits>
#include <map>
#include <msgpack.hpp>
#include <optional>
#include <string>
#include <vector>

namespace {

// The same record, described once for each library; msgpack-cxx lists its members in another
// order, which a map of names allows.
struct record {
  std::int32_t id = 0;
  std::string name;
  std::vector<double> values;
  std::map<std::string, std::int64_t> counts;
  std::vector<unsigned char> blob;
  std::optional<std::uint64_t> big;
  bool flag = false;
  float ratio = 0;
  bool operator==(const record&) const = default;
};

struct peer_record {
  std::string name;
  bool flag = false;
  std::vector<unsigned char> blob;
  std::int32_t id = 0;
  std::optional<std::uint64_t> big;
  float ratio = 0;
  std::map<std::string, std::int64_t> counts;
  std::vector<double> values;
  MSGPACK_DEFINE_MAP(name, flag, blob, id, big, ratio, counts, values)
};

record sample() {
  return {-70000,
          "bale",
          {0.5, -2.25, 1e300},
          {{"a", 1}, {"b", -200}, {"c", 1LL << 40}},
          {0, 255, 7},
          std::numeric_limits<std::uint64_t>::max(),
          true,
          0.75f};
}

peer_record as_peer(const record& r) {
  return {r.name, r.flag, r.blob, r.id, r.big, r.ratio, r.counts, r.values};
}

void expect_same(const record& r, const peer_record& p) {
  EXPECT_EQ(r.id, p.id);
  EXPECT_EQ(r.name, p.name);
  EXPECT_EQ(r.values, p.values);
  EXPECT_EQ(r.counts, p.counts);
  EXPECT_EQ(r.blob, p.blob);
  EXPECT_EQ(r.big, p.big);
  EXPECT_EQ(r.flag, p.flag);
  EXPECT_EQ(r.ratio, p.ratio);
}

template <class T>
std::vector<std::byte> peer_pack(const T& value) {
  ::msgpack::sbuffer buffer;
  ::msgpack::pack(buffer, value);
  const auto* data = reinterpret_cast<const std::byte*>(buffer.data());
  return {data, data + buffer.size()};
}

template <class T>
T peer_unpack(const std::vector<std::byte>& bytes) {
  const ::msgpack::object_handle handle =
      ::msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return handle.get().as<T>();
}

TEST(MsgpackInterop, PeerReadsWhatBaleWrites) {
  const record r = sample();
  expect_same(r, peer_unpack<peer_record>(bale::serialize<bale::msgpack>(r)));
  record empty;
  expect_same(empty, peer_unpack<peer_record>(bale::serialize<bale::msgpack>(empty)));
}

TEST(MsgpackInterop, BaleReadsWhatThePeerWritesInItsOrder) {
  const record r = sample();
  EXPECT_EQ((bale::deserialize<record, bale::msgpack>(peer_pack(as_peer(r)))), r);
  EXPECT_EQ((bale::deserialize<record, bale::msgpack>(peer_pack(as_peer(record{})))), record{});
}

// For std types, both libraries choose the same bytes: smallest integers, str, bin, arrays, maps.
TEST(MsgpackInterop, SameBytesForStdTypes) {
  std::vector<std::int64_t> integers;
  for (const std::int64_t edge :
       {0LL, 127LL, 128LL, 255LL, 256LL, 65535LL, 65536LL, 4294967295LL, 4294967296LL, -1LL, -32LL,
        -33LL, -128LL, -129LL, -32768LL, -32769LL, -2147483648LL, -2147483649LL})
    integers.push_back(edge);
  integers.push_back(std::numeric_limits<std::int64_t>::min());
  integers.push_back(std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(bale::serialize<bale::msgpack>(integers), peer_pack(integers));
  const std::vector<std::uint64_t> unsigned_edges{0, 200, 70000, std::uint64_t{1} << 63};
  EXPECT_EQ(bale::serialize<bale::msgpack>(unsigned_edges), peer_pack(unsigned_edges));

  const std::map<std::string, std::vector<std::string>> words{
      {"short", {"", "a"}}, {"long", {std::string(40, 'x'), std::string(300, 'y')}}};
  EXPECT_EQ(bale::serialize<bale::msgpack>(words), peer_pack(words));
  const std::vector<std::vector<unsigned char>> blobs{{}, {1, 2}, std::vector<unsigned char>(300)};
  EXPECT_EQ(bale::serialize<bale::msgpack>(blobs), peer_pack(blobs));
  const std::vector<std::optional<double>> maybe{std::nullopt, 2.5};
  EXPECT_EQ(bale::serialize<bale::msgpack>(maybe), peer_pack(maybe));
  const std::tuple<bool, float, std::string> tuple{true, 1.25f, "t"};
  EXPECT_EQ(bale::serialize<bale::msgpack>(tuple), peer_pack(tuple));
  const std::vector<int> many(70000, 3);
  EXPECT_EQ(bale::serialize<bale::msgpack>(many), peer_pack(many));
}

// A writer may choose wider forms than needed; bale reads any form whose value fits.
TEST(MsgpackInterop, WiderFormsThanNeededRead) {
  ::msgpack::sbuffer buffer;
  ::msgpack::packer<::msgpack::sbuffer> packer(buffer);
  packer.pack_array(5);
  packer.pack_fix_int64(5);
  packer.pack_fix_uint32(6);
  packer.pack_fix_int8(-7);
  packer.pack_fix_uint64(8);
  packer.pack_fix_int16(9);
  const auto* data = reinterpret_cast<const std::byte*>(buffer.data());
  const std::vector<std::byte> bytes(data, data + buffer.size());
  EXPECT_EQ((bale::deserialize<std::vector<std::int8_t>, bale::msgpack>(bytes)),
            (std::vector<std::int8_t>{5, 6, -7, 8, 9}));
}

// msgpack-cxx's MSGPACK_DEFINE writes a struct as an array of its members in order: bale reads it.
struct pair_of {
  int first = 0;
  std::string second;
  bool operator==(const pair_of&) const = default;
};
struct peer_pair_of {
  int first = 0;
  std::string second;
  MSGPACK_DEFINE(first, second)
};

TEST(MsgpackInterop, StructsAsArraysRead) {
  EXPECT_EQ((bale::deserialize<pair_of, bale::msgpack>(peer_pack(peer_pair_of{4, "four"}))),
            (pair_of{4, "four"}));
}

// Random values both ways.
TEST(MsgpackInterop, RandomRecordsBothWays) {
  std::uint64_t state = 20261124;
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 17;
  };
  for (int round = 0; round < 200; ++round) {
    record r;
    r.id = static_cast<std::int32_t>(next());
    r.name.assign(next() % 40, static_cast<char>('a' + next() % 26));
    for (std::uint64_t i = next() % 20; i > 0; --i)
      r.values.push_back(static_cast<double>(static_cast<std::int64_t>(next())) / 7.0);
    for (std::uint64_t i = next() % 5; i > 0; --i)
      r.counts[std::to_string(next() % 100)] = static_cast<std::int64_t>(next()) - (1LL << 45);
    r.blob.assign(next() % 300, static_cast<unsigned char>(next()));
    if (next() % 2 != 0) r.big = next() << (next() % 20);
    r.flag = next() % 2 != 0;
    r.ratio = static_cast<float>(next() % 1000) / 8.0f;
    expect_same(r, peer_unpack<peer_record>(bale::serialize<bale::msgpack>(r)));
    ASSERT_EQ((bale::deserialize<record, bale::msgpack>(peer_pack(as_peer(r)))), r);
  }
}

}  // namespace
