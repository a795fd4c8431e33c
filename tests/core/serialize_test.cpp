// SPDX-License-Identifier: BSL-1.0
// The entry points: serialize, serialize_into, serialize_to, serialized_size, deserialize into an
// existing object, writer and reader.
#include <bale/all.hpp>

#include "support/roundtrip.hpp"

namespace {

TEST(EntryPoints, FormatTagIsOptional) {
  const std::vector<int> v{1, 2, 3};
  EXPECT_EQ(bale::serialize(v), bale::serialize<bale::binary>(v));
  const auto bytes = bale::serialize(v);
  EXPECT_EQ((bale::deserialize<std::vector<int>, bale::binary>(bytes)), v);
  bale_test::expect_entry_points_agree(v);
}

TEST(EntryPoints, EveryInputType) {
  const std::string text = [] {
    std::string s;
    bale::serialize_into(s, std::string("in a string"));
    return s;
  }();
  EXPECT_EQ(bale::deserialize<std::string>(text), "in a string");
  EXPECT_EQ(bale::deserialize<std::string>(std::string_view(text)), "in a string");
  EXPECT_EQ(bale::deserialize<std::string>(std::span<const char>(text)), "in a string");
  const std::vector<unsigned char> uchars(text.begin(), text.end());
  EXPECT_EQ(bale::deserialize<std::string>(uchars), "in a string");
  EXPECT_EQ(bale::deserialize<std::string>(std::span<const unsigned char>(uchars)), "in a string");
  const std::vector<char> chars(text.begin(), text.end());
  EXPECT_EQ(bale::deserialize<std::string>(chars), "in a string");
}

TEST(EntryPoints, SerializeIntoAppends) {
  std::vector<std::byte> buffer = bale::serialize(1);
  const std::size_t added = bale::serialize_into(buffer, std::string("x"));
  EXPECT_EQ(added, 9u);
  EXPECT_EQ(buffer.size(), 13u);
}

TEST(EntryPoints, SerializeToAFixedSpan) {
  std::array<std::byte, 16> out{};
  EXPECT_EQ(bale::serialize_to(out, std::uint64_t{7}, std::uint32_t{9}), 12u);
  EXPECT_EQ(out[8], std::byte{9});
  std::array<std::byte, 4> small{};
  try {
    bale::serialize_to(small, std::uint64_t{7});
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::buffer_too_small);
  }
}

TEST(EntryPoints, WriterAndReaderForSeveralValues) {
  std::vector<std::byte> buffer;
  bale::writer w(buffer);
  w(1, std::string("two"));
  w(3.0);
  EXPECT_EQ(w.size(), 4u + 8u + 3u + 8u);

  bale::reader r(buffer);
  int one = 0;
  std::string two;
  double three = 0;
  r(one, two);
  EXPECT_EQ(r.remaining(), 8u);
  r(three);
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_EQ(one, 1);
  EXPECT_EQ(two, "two");
  EXPECT_EQ(three, 3.0);
  EXPECT_THROW(r(one), bale::error);
}

TEST(EntryPoints, SerializedSizeIsExactForComposites) {
  const std::tuple<std::map<int, std::string>, std::vector<std::optional<double>>,
                   std::variant<int, std::string>>
      value{{{1, "a"}, {2, "bb"}}, {1.0, std::nullopt}, std::string("v")};
  EXPECT_EQ(bale::serialized_size(value), bale::serialize(value).size());
  EXPECT_EQ(bale::serialized_size(1, 2.0, std::string("x")), 4u + 8u + 9u);
}

TEST(EntryPoints, TryDeserializeIntoExisting) {
  std::vector<int> existing{5};
  EXPECT_TRUE(bale::try_deserialize(bale::serialize(std::vector<int>{1, 2}), existing).has_value());
  EXPECT_EQ(existing, (std::vector<int>{1, 2}));
  EXPECT_FALSE(bale::try_deserialize(std::string_view("x"), existing).has_value());
}

// JSON's writer stores ahead of its text into a growing buffer: into memory of exactly the text's
// size it must still write nothing past the end (the sanitizer build checks).
TEST(EntryPoints, SerializeToJsonFillsExactlyTheBuffer) {
  const std::vector<int> value{1, 22, 333, -4444};
  const std::string text = bale::to_json(value);
  std::vector<std::byte> exact(text.size());
  ASSERT_EQ(bale::serialize_to<bale::json>(exact, value), text.size());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(exact.data()), exact.size()), text);
  std::vector<std::byte> short_by_one(text.size() - 1);
  try {
    bale::serialize_to<bale::json>(short_by_one, value);
    ADD_FAILURE() << "no error";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::buffer_too_small);
  }
}

}  // namespace

namespace {

// Any contiguous range of a byte type is a place to write into.
TEST(EntryPoints, SerializeToAnyByteRange) {
  const auto expected = bale::serialize(std::uint32_t{0x01020304});
  unsigned char c_array[4];
  EXPECT_EQ(bale::serialize_to(c_array, std::uint32_t{0x01020304}), 4u);
  EXPECT_EQ(std::memcmp(c_array, expected.data(), 4), 0);
  std::array<std::uint8_t, 8> array{};
  EXPECT_EQ(bale::serialize_to(array, std::uint32_t{0x01020304}), 4u);
  EXPECT_EQ(std::memcmp(array.data(), expected.data(), 4), 0);
  std::vector<char> chars(4);
  EXPECT_EQ(bale::serialize_to<bale::compact>(chars, 300), 2u);
  EXPECT_EQ(bale::serialize_to(std::span<unsigned char>(array), std::uint16_t{1}), 2u);
  std::string text(8, ' ');
  EXPECT_EQ(bale::serialize_to<bale::json>(text, 12), 2u);
  EXPECT_EQ(text.substr(0, 2), "12");
  static_assert(!bale::byte_output<const std::vector<std::byte>>);
  static_assert(!bale::byte_output<std::vector<int>>);
}

// A buffer that counts the bytes its resizes add (which std::vector zero-fills).
struct counting_buffer {
  using value_type = std::byte;
  std::vector<std::byte> bytes;
  std::size_t added = 0;
  void resize(std::size_t n) {
    if (n > bytes.size()) added += n - bytes.size();
    bytes.resize(n);
  }
  std::size_t size() const { return bytes.size(); }
  std::size_t capacity() const { return bytes.capacity(); }
  void reserve(std::size_t n) { bytes.reserve(n); }
  std::byte* data() { return bytes.data(); }
};

template <class Format>
void check_assign() {
  const std::vector<std::string> large{"alpha", "beta", "gamma", "delta"};
  const std::vector<std::string> small{"x"};
  counting_buffer buffer;
  bale::serialize_assign<Format>(buffer, large);
  EXPECT_EQ(buffer.bytes, bale::serialize<Format>(large));
  // The same message again is written over the bytes already there: nothing is added.
  std::size_t added = buffer.added;
  bale::serialize_assign<Format>(buffer, large);
  EXPECT_EQ(buffer.bytes, bale::serialize<Format>(large));
  EXPECT_EQ(buffer.added, added);
  bale::serialize_assign<Format>(buffer, small);
  EXPECT_EQ(buffer.bytes, bale::serialize<Format>(small));
  EXPECT_EQ(buffer.added, added);
  bale::serialize_assign<Format>(buffer, large);
  EXPECT_EQ(buffer.bytes, bale::serialize<Format>(large));
  if constexpr (bale::detail::sizes_first<Format>) {  // only the bytes past the small message
    EXPECT_EQ(buffer.added - added, buffer.bytes.size() - bale::serialize<Format>(small).size());
  }
}

TEST(EntryPoints, SerializeAssignWritesOverAKeptBuffer) {
  check_assign<bale::binary>();
  check_assign<bale::compact>();
  check_assign<bale::msgpack>();
  check_assign<bale::json>();
  std::string text = "previous contents, longer than the new ones";
  bale::serialize_assign<bale::json>(text, std::vector<int>{1, 2});
  EXPECT_EQ(text, "[1,2]");
}

struct fails_on_save {
  template <class Archive>
  void save(Archive&) const {
    throw std::runtime_error("no");
  }
  template <class Archive>
  void load(Archive&) {}
};

TEST(EntryPoints, SerializeAssignLeavesTheBufferEmptyOnError) {
  std::vector<std::byte> buffer = bale::serialize(std::string("kept?"));
  EXPECT_THROW(bale::serialize_assign(buffer, fails_on_save{}), std::runtime_error);
  EXPECT_TRUE(buffer.empty());
}

}  // namespace
