// SPDX-License-Identifier: BSL-1.0
// Writing into a buffer that grows (serialize, serialize_into, serialize_assign): a large node
// container is sized from its first elements and the buffer grows past the estimate if it must.
// The bytes are always those of the exact path (serialize_to after serialized_size), whether the
// estimate was too small, too large or right; errors the sizing pass could miss (an observed
// object owned past the elements it walked) are the writing pass's to find.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bale/all.hpp>
#include <cstddef>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

template <class Format, class T>
std::vector<std::byte> exact_bytes(const T& value) {
  std::vector<std::byte> out(bale::serialized_size<Format>(value));
  EXPECT_EQ(bale::serialize_to<Format>(out, value), out.size());
  return out;
}

// Every way of writing into a growable buffer gives the exact path's bytes, and they read back.
template <class Format, class T>
void expect_growable_writes_exact(const T& value) {
  const std::vector<std::byte> expected = exact_bytes<Format>(value);
  EXPECT_EQ(bale::serialize<Format>(value), expected);
  EXPECT_EQ(bale::serialize<Format>(value, bale::limits{}), expected);

  std::vector<std::byte> appended{std::byte{1}, std::byte{2}, std::byte{3}};
  EXPECT_EQ(bale::serialize_into<Format>(appended, value), expected.size());
  ASSERT_EQ(appended.size(), 3 + expected.size());
  EXPECT_EQ(appended[0], std::byte{1});
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), appended.begin() + 3));

  std::string text(5 * expected.size() + 100, 'x');  // a kept buffer larger than the message
  EXPECT_EQ(bale::serialize_assign<Format>(text, value), expected.size());
  ASSERT_EQ(text.size(), expected.size());
  EXPECT_EQ(std::memcmp(text.data(), expected.data(), expected.size()), 0);

  std::vector<unsigned char> small(7);  // and one smaller
  EXPECT_EQ(bale::serialize_assign<Format>(small, value), expected.size());
  ASSERT_EQ(small.size(), expected.size());
  EXPECT_EQ(std::memcmp(small.data(), expected.data(), expected.size()), 0);

  std::vector<std::byte> counted(expected.size());  // a size counted before: no second count
  bale::detail::write_counted<Format>(counted, value);
  EXPECT_EQ(counted, expected);

  EXPECT_TRUE((bale::deserialize<T, Format>(expected) == value));
}

template <class Format>
class GrowableWrite : public ::testing::Test {};
using byte_formats = ::testing::Types<bale::binary, bale::compact>;
TYPED_TEST_SUITE(GrowableWrite, byte_formats);

TYPED_TEST(GrowableWrite, HashMapOfStrings) {
  std::unordered_map<std::string, double> map;
  for (int i = 0; i < 5000; ++i) map.emplace("key_" + std::to_string(i * 7919), i * 0.25);
  expect_growable_writes_exact<TypeParam>(map);
}

TYPED_TEST(GrowableWrite, FirstElementsSmallerThanTheRest) {
  // Ordered by key: the sampled first entries are short, the others 200 times longer.
  std::map<int, std::string> map;
  for (int i = 0; i < 1000; ++i)
    map[i] = std::string(i < 64 ? 1 : 200, static_cast<char>('a' + i % 26));
  expect_growable_writes_exact<TypeParam>(map);
}

TYPED_TEST(GrowableWrite, FirstElementsLargerThanTheRest) {
  std::list<std::vector<int>> list;
  for (int i = 0; i < 1000; ++i) list.emplace_back(i < 64 ? 5000 : 0, i);
  expect_growable_writes_exact<TypeParam>(list);
}

TYPED_TEST(GrowableWrite, NestedNodeContainers) {
  std::map<std::string, std::set<std::vector<int>>> nested;
  for (int i = 0; i < 300; ++i) {
    auto& set = nested["group " + std::to_string(i)];
    for (int j = 0; j < i % 90; ++j) set.insert(std::vector<int>(static_cast<std::size_t>(j), i));
  }
  expect_growable_writes_exact<TypeParam>(nested);
  // Beside a value that is sized exactly, and with fewer elements than a sample.
  const std::pair<std::vector<double>, std::list<int>> mixed{std::vector<double>(1000, 1.5),
                                                             std::list<int>(10, 7)};
  expect_growable_writes_exact<TypeParam>(mixed);
}

TYPED_TEST(GrowableWrite, LargeBlocksAmongSmallWrites) {
  // Arrays past the sink's step are copied into the buffer's capacity, not zero-filled first.
  const std::tuple<std::string, std::vector<double>, int, std::vector<std::uint8_t>, std::string>
      mixed{"head", std::vector<double>(50000, 2.5), 7, std::vector<std::uint8_t>(70000, 3),
            std::string(20000, 't')};
  expect_growable_writes_exact<TypeParam>(mixed);
  expect_growable_writes_exact<TypeParam>(std::vector<double>(100000, -1.0));
  // A large block among mostly small writes (the buffer is then zero-filled at once).
  std::pair<std::vector<double>, std::vector<std::string>> mostly_small{
      std::vector<double>(3000, 1.25), std::vector<std::string>(20000, "name")};
  expect_growable_writes_exact<TypeParam>(mostly_small);
}

// Counts the bytes a container value-initialises (zero-fills) rather than copies into.
template <class T>
struct fill_counting_allocator {
  using value_type = T;
  static inline std::size_t filled = 0;
  static inline std::size_t allocations = 0;
  fill_counting_allocator() = default;
  template <class U>
  fill_counting_allocator(const fill_counting_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    ++allocations;
    return std::allocator<T>{}.allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>{}.deallocate(p, n); }
  void construct(T* p) {
    ++filled;
    ::new (static_cast<void*>(p)) T();
  }
  template <class... Args>
  void construct(T* p, Args&&... args) {
    ::new (static_cast<void*>(p)) T(std::forward<Args>(args)...);
  }
  friend bool operator==(fill_counting_allocator, fill_counting_allocator) noexcept { return true; }
};

TYPED_TEST(GrowableWrite, LargeArraysAreNotZeroFilledBeforeBeingWritten) {
  using counted_buffer = std::vector<std::byte, fill_counting_allocator<std::byte>>;
  const std::vector<double> values(200000, 0.5);  // 1.6 MB
  counted_buffer buffer;
  fill_counting_allocator<std::byte>::filled = 0;
  bale::serialize_into<TypeParam>(buffer, values);
  EXPECT_GE(buffer.size(), values.size() * sizeof(double));
  EXPECT_LT(fill_counting_allocator<std::byte>::filled, std::size_t{64} * 1024);
  EXPECT_TRUE((bale::deserialize<std::vector<double>, TypeParam>(buffer) == values));
}

// Sized exactly, a message is one allocation of its size: no run of varints or block asks the
// buffer for more room than the message takes.
template <class Format, class T>
void expect_one_exact_allocation(const T& value) {
  using counted_buffer = std::vector<std::byte, fill_counting_allocator<std::byte>>;
  counted_buffer buffer;
  fill_counting_allocator<std::byte>::allocations = 0;
  bale::serialize_into<Format>(buffer, value);
  EXPECT_EQ(fill_counting_allocator<std::byte>::allocations, 1u);
  EXPECT_EQ(buffer.capacity(), buffer.size());
  EXPECT_EQ(buffer.size(), bale::serialized_size<Format>(value));
}

TYPED_TEST(GrowableWrite, ExactSizeIsOneAllocation) {
  std::vector<int> integers(100000);
  for (std::size_t i = 0; i < integers.size(); ++i)
    integers[i] = static_cast<int>(i * 7919 % 2001) - 1000;
  expect_one_exact_allocation<TypeParam>(integers);
  expect_one_exact_allocation<TypeParam>(std::vector<std::uint64_t>(30000, ~std::uint64_t{0}));
  expect_one_exact_allocation<TypeParam>(std::vector<double>(50000, 0.5));
  const std::tuple<std::string, std::vector<int>, std::vector<double>> mixed{
      "name", integers, std::vector<double>(4000, 1.0)};
  expect_one_exact_allocation<TypeParam>(mixed);
}

// A buffer with no insert() to copy into its capacity: every byte goes through resize().
struct resize_only_buffer {
  using value_type = std::byte;
  std::vector<std::byte> bytes;
  void resize(std::size_t n) { bytes.resize(n); }
  std::size_t size() const noexcept { return bytes.size(); }
  std::byte* data() noexcept { return bytes.data(); }
  const std::byte* data() const noexcept { return bytes.data(); }
};

TYPED_TEST(GrowableWrite, BufferWithoutInsert) {
  const std::pair<std::string, std::vector<double>> value{"name", std::vector<double>(30000, 4.0)};
  resize_only_buffer buffer{{std::byte{5}}};
  const std::size_t written = bale::serialize_into<TypeParam>(buffer, value);
  ASSERT_EQ(buffer.size(), 1 + written);
  const std::vector<std::byte> expected = exact_bytes<TypeParam>(value);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), buffer.bytes.begin() + 1));
  EXPECT_EQ(bale::serialize_assign<TypeParam>(buffer, value), expected.size());
  EXPECT_EQ(buffer.bytes, expected);
}

struct cell {
  int value = 0;
  BALE_REFLECT(cell, value)
};

// The observed object's owner is past the elements a sizing pass walks.
struct watched_list {
  bale::observer<cell> watched;
  std::list<std::unique_ptr<cell>> owners;
  BALE_REFLECT(watched_list, watched, owners)
};

TYPED_TEST(GrowableWrite, ObjectOwnedPastTheSampledElements) {
  watched_list value;
  for (int i = 0; i < 500; ++i) value.owners.push_back(std::make_unique<cell>(cell{i}));
  value.watched = value.owners.back().get();
  const auto bytes = bale::serialize<TypeParam>(value);
  EXPECT_EQ(bytes, exact_bytes<TypeParam>(value));
  const auto back = bale::deserialize<watched_list, TypeParam>(bytes);
  ASSERT_EQ(back.owners.size(), 500u);
  EXPECT_EQ(back.watched.get(), back.owners.back().get());
}

TYPED_TEST(GrowableWrite, SharedObjectsMetAgainPastTheSampledElements) {
  std::list<std::shared_ptr<cell>> shared;
  for (int i = 0; i < 300; ++i)
    shared.push_back(i < 150 ? std::make_shared<cell>(cell{i}) : *std::next(shared.begin(), i % 7));
  const auto bytes = bale::serialize<TypeParam>(shared);
  EXPECT_EQ(bytes, exact_bytes<TypeParam>(shared));
  const auto back = bale::deserialize<std::list<std::shared_ptr<cell>>, TypeParam>(bytes);
  ASSERT_EQ(back.size(), 300u);
  EXPECT_EQ(std::next(back.begin(), 299)->get(), std::next(back.begin(), 299 % 7)->get());
  EXPECT_EQ(back.front()->value, 0);
}

// `owners` cells owned by the list, and an observer of a cell nothing owns.
struct watched_stray {
  cell stray{-1};
  watched_list value;
  explicit watched_stray(int owners) {
    for (int i = 0; i < owners; ++i) value.owners.push_back(std::make_unique<cell>(cell{i}));
    value.watched = &stray;
  }
  watched_stray(const watched_stray&) = delete;
  watched_stray& operator=(const watched_stray&) = delete;
};

TYPED_TEST(GrowableWrite, ObjectOwnedByNothingIsStillAnError) {
  const watched_stray written(500);
  const watched_list& value = written.value;
  std::vector<std::byte> buffer{std::byte{9}};
  try {
    bale::serialize_into<TypeParam>(buffer, value);
    FAIL() << "an observer of an object nothing owns was written";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("observers"), std::string::npos) << e.what();
  }
  EXPECT_EQ(buffer, std::vector<std::byte>{std::byte{9}});  // left as it was
}

TYPED_TEST(GrowableWrite, ObjectOwnedByNothingIsAnErrorInAKeptBufferToo) {
  const watched_stray written(1);
  const watched_list& value = written.value;
  std::vector<std::byte> kept(64, std::byte{9});
  EXPECT_THROW(bale::serialize_assign<TypeParam>(kept, value), bale::error);
  EXPECT_TRUE(kept.empty());
}

// Counts the passes over a message: each pass calls save() once.
struct pass_counter {
  static inline int saves = 0;
  std::string name = "counted";
  template <class Archive>
  void save(Archive& ar) const {
    ++saves;
    ar(name);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(name);
  }
};

TYPED_TEST(GrowableWrite, ABufferWithRoomIsWrittenInOnePass) {
  const std::vector<pass_counter> value(3);
  const auto passes = [](auto&& write) {
    pass_counter::saves = 0;
    write();
    return pass_counter::saves / 3;
  };
  std::vector<std::byte> fresh;
  EXPECT_EQ(passes([&] { bale::serialize_assign<TypeParam>(fresh, value); }), 2);  // sized first
  const std::vector<std::byte> expected = fresh;
  // Kept: its room is written into straight away, and it grows when the message is larger.
  EXPECT_EQ(passes([&] { bale::serialize_assign<TypeParam>(fresh, value); }), 1);
  EXPECT_EQ(fresh, expected);
  std::vector<std::byte> tight;
  tight.reserve(4);
  EXPECT_EQ(passes([&] { bale::serialize_assign<TypeParam>(tight, value); }), 1);
  EXPECT_EQ(tight, expected);
  // Appending: a buffer with spare capacity takes the message in one pass, a full one sizes it.
  std::vector<std::byte> appended{std::byte{7}};
  appended.reserve(2);
  EXPECT_EQ(passes([&] { bale::serialize_into<TypeParam>(appended, value); }), 1);
  appended.shrink_to_fit();
  ASSERT_EQ(appended.capacity(), appended.size());
  EXPECT_EQ(passes([&] { bale::serialize_into<TypeParam>(appended, value); }), 2);
  ASSERT_EQ(appended.size(), 1 + 2 * expected.size());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), appended.begin() + 1));
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), appended.end() - std::ssize(expected)));
}

// A fixed buffer is written into straight away, each put checked against its end; only a buffer
// too small is sized, for the size its error names.
TYPED_TEST(GrowableWrite, AFixedBufferIsWrittenInOnePass) {
  const std::vector<pass_counter> value(3);
  const std::vector<std::byte> expected = bale::serialize<TypeParam>(value);
  std::array<std::byte, 256> roomy{};
  pass_counter::saves = 0;
  EXPECT_EQ(bale::serialize_to<TypeParam>(roomy, value), expected.size());
  EXPECT_EQ(pass_counter::saves, 3);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), roomy.begin()));
  std::vector<std::byte> exact(expected.size());
  EXPECT_EQ(bale::serialize_to<TypeParam>(exact, value), expected.size());
  EXPECT_EQ(exact, expected);
  const std::string needs = "needs " + std::to_string(expected.size()) + " bytes";
  for (std::size_t n = 0; n < expected.size(); ++n) {
    std::vector<std::byte> small(n);
    try {
      bale::serialize_to<TypeParam>(small, value);
      ADD_FAILURE() << n << " bytes were enough";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::buffer_too_small) << n;
      EXPECT_NE(std::string(e.what()).find(needs), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("holds " + std::to_string(n)), std::string::npos)
          << e.what();
    }
  }
}

TYPED_TEST(GrowableWrite, AFixedBufferKeepsTheWritingPassChecks) {
  const watched_stray written(1);
  const watched_list& value = written.value;
  std::array<std::byte, 256> roomy{};
  try {
    bale::serialize_to<TypeParam>(roomy, value);
    FAIL() << "an observer of an object nothing owns was written";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("observers"), std::string::npos) << e.what();
  }
}

TEST(GrowableWriteMessagePack, IsAlwaysSizedFirst) {
  // MessagePack learns in its sizing pass what a pointer graph's bodies need.
  const std::vector<pass_counter> value(3);
  std::vector<std::byte> kept(256);
  pass_counter::saves = 0;
  bale::serialize_assign<bale::msgpack>(kept, value);
  // Two passes; in each, a type described by hand is saved twice (its members counted first).
  EXPECT_EQ(pass_counter::saves, 12);
  std::array<std::byte, 256> fixed{};
  pass_counter::saves = 0;
  EXPECT_EQ(bale::serialize_to<bale::msgpack>(fixed, value), kept.size());
  EXPECT_EQ(pass_counter::saves, 12);
}

// Runs of every short length (copied with word moves, not memcpy) and some longer ones, through
// the fixed, the kept and the growing buffer.
TYPED_TEST(GrowableWrite, RunsOfEveryLength) {
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string text(n, 'a');
    std::vector<std::uint8_t> bytes(n);
    for (std::size_t i = 0; i < n; ++i) {
      text[i] = static_cast<char>('a' + i % 26);
      bytes[i] = static_cast<std::uint8_t>(i * 37);
    }
    const std::tuple<std::uint8_t, std::string, std::vector<std::uint8_t>, std::uint8_t> value{
        1, text, bytes, 2};
    expect_growable_writes_exact<TypeParam>(value);
    std::vector<std::byte> kept(3);
    bale::serialize_assign<TypeParam>(kept, value);
    EXPECT_TRUE((bale::deserialize<std::remove_const_t<decltype(value)>, TypeParam>(kept) == value))
        << n;
  }
}

// A save() that writes more the second time than when it was counted is an error, not a buffer
// silently grown or overrun.
struct unsteady {
  mutable int calls = 0;
  template <class Archive>
  void save(Archive& ar) const {
    ar(std::vector<int>(static_cast<std::size_t>(++calls), 1));
  }
  template <class Archive>
  void load(Archive& ar) {
    std::vector<int> ignored;
    ar(ignored);
  }
};

TYPED_TEST(GrowableWrite, SaveWritingOtherBytesTheSecondTimeFails) {
  const unsteady value;
  try {
    (void)bale::serialize<TypeParam>(value);
    FAIL() << "a save() that wrote more the second time went unnoticed";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("same bytes every time"), std::string::npos) << e.what();
  }
}

TYPED_TEST(GrowableWrite, SaveWritingOtherBytesThanCountedFailsInTheCountedWrite) {
  const unsteady value;
  std::vector<std::byte> out(bale::serialized_size<TypeParam>(value));  // counted: one int
  try {
    bale::detail::write_counted<TypeParam>(out, value);  // writes two: past the buffer's end
    FAIL() << "a save() that wrote more than counted went unnoticed";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("same bytes every time"), std::string::npos) << e.what();
  }
  const unsteady fewer;
  fewer.calls = 5;
  std::vector<std::byte> larger(bale::serialized_size<TypeParam>(value) + 64);
  EXPECT_THROW(bale::detail::write_counted<TypeParam>(larger, fewer), bale::error);  // short
}

}  // namespace
