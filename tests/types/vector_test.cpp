// SPDX-License-Identifier: BSL-1.0
#include <bale/types/string.hpp>
#include <bale/types/vector.hpp>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;

struct packed {
  float vec[4];
  int i;
  float f;
  bool operator==(const packed&) const = default;
};
struct padded {
  double d;
  std::int32_t i;
  bool operator==(const padded&) const = default;
};

template <class T>
struct counting_allocator {
  using value_type = T;
  counting_allocator() = default;
  template <class U>
  counting_allocator(const counting_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
  template <class U>
  bool operator==(const counting_allocator<U>&) const noexcept {
    return true;
  }
};

static_assert(bale::wire_compatible<packed>);
static_assert(!bale::wire_compatible<padded>);
static_assert(bale::wire_size_of<bale::detail::binary_codec, padded>.fixed);
static_assert(bale::wire_size_of<bale::detail::binary_codec, padded>.min == 12);

TEST(Vector, Scalars) {
  std::vector<double> doubles(10000);
  for (auto& d : doubles) d = static_cast<double>(bale_test::rng()()) / 3.0;
  expect_roundtrip(doubles);
  expect_roundtrip(std::vector<int>{});
  expect_roundtrip(std::vector<std::uint8_t>{1, 2, 3});
  EXPECT_EQ(bale::serialized_size(doubles), 8u + 8u * doubles.size());
}

TEST(Vector, Bools) {
  std::vector<bool> bits;
  for (int i = 0; i < 1000; ++i) bits.push_back(bale_test::random_integer<bool>());
  const auto bytes = expect_roundtrip(bits);
  EXPECT_EQ(bytes.size(), 8u + 1000u);
  std::vector<std::byte> bad = bale::serialize(std::vector<bool>{true, false});
  bad[9] = std::byte{2};
  auto r = bale::try_deserialize<std::vector<bool>>(bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(r.error().offset(), 9u);
  EXPECT_EQ(r.error().path(), "[1]");
}

TEST(Vector, StructsWithAndWithoutPadding) {
  std::vector<packed> a(100, packed{{1, 2, 3, 4}, 5, 6});
  const auto bytes = expect_roundtrip(a);
  EXPECT_EQ(bytes.size(), 8u + 24u * 100u);
  std::vector<padded> b(100, padded{1.5, -7});
  // No padding on the wire: 12 bytes each, not sizeof(padded) == 16.
  EXPECT_EQ(expect_roundtrip(b).size(), 8u + 12u * 100u);
}

TEST(Vector, Nested) {
  std::vector<std::vector<std::string>> nested{{"a", "bc"}, {}, {"", std::string(70, 'x')}};
  expect_roundtrip(nested);
  bale_test::expect_entry_points_agree(nested);
}

TEST(Vector, CustomAllocator) {
  std::vector<int, counting_allocator<int>> v{1, 2, 3};
  const auto bytes = bale::serialize(v);
  EXPECT_EQ(bale::deserialize<std::vector<int>>(bytes), (std::vector<int>{1, 2, 3}));
  const auto back = bale::deserialize<std::vector<int, counting_allocator<int>>>(bytes);
  EXPECT_EQ(back, v);
  using string = std::basic_string<char, std::char_traits<char>, counting_allocator<char>>;
  bale_test::expect_roundtrip(std::vector<string, counting_allocator<string>>{"a", "bc"});
}

TEST(Vector, DeserializeIntoExistingReplacesContents) {
  std::vector<int> existing{9, 9, 9, 9};
  bale::deserialize(bale::serialize(std::vector<int>{1, 2}), existing);
  EXPECT_EQ(existing, (std::vector<int>{1, 2}));
}

TEST(Vector, UnalignedInputStillReads) {
  std::vector<std::byte> bytes(1);
  bale::serialize_into(bytes, std::vector<double>{1.0, 2.0, 3.0});
  const auto v =
      bale::deserialize<std::vector<double>>(std::span<const std::byte>(bytes).subspan(1));
  EXPECT_EQ(v, (std::vector<double>{1.0, 2.0, 3.0}));
}

}  // namespace
