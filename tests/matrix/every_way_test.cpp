// SPDX-License-Identifier: BSL-1.0
// Every way of writing (serialize, serialize_into and serialize_assign into every buffer type,
// serialize_to, writer, save_file with every codec, record_writer) in every format, over one
// value of every type family, read back every way (deserialize from every byte range, into an
// existing value, try_, reader, load_file with and without the format, load_file_owned,
// record_reader). Every way must produce the same bytes and read back the same value.
#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>

#include <array>
#include <bitset>
#include <chrono>
#include <complex>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <forward_list>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace matrix {

enum class mode : std::uint8_t { idle, busy };

struct leaf {
  std::int16_t id;
  float weight;
  bool operator==(const leaf&) const = default;
};

// An aggregate holding one member of every family.
struct everything {
  std::uint8_t u8;
  std::int64_t i64;
  double real;
  char letter;
  mode state;
  std::string name;
  std::u16string wide;
  std::vector<int> ints;
  std::vector<leaf> leaves;
  std::vector<bool> flags;
  std::array<std::int32_t, 3> triple;
  std::deque<std::uint16_t> queue;
  std::forward_list<int> chain;
  std::set<std::string> tags;
  std::multimap<int, std::string> pairs;
  std::unordered_map<std::string, double> scores;
  std::optional<leaf> maybe;
  std::variant<std::monostate, int, std::string> either;
  std::shared_ptr<leaf> shared;
  std::unique_ptr<std::string> owned_text;
  std::tuple<int, std::string> tuple;
  std::bitset<12> bits;
  std::complex<double> z;
  std::chrono::milliseconds elapsed;
  std::chrono::sys_time<std::chrono::milliseconds> stamp;
  std::vector<std::byte> blob;
};

// Private members, one serialize().
class account {
 public:
  account() = default;
  account(std::string owner, long long cents) : owner_(std::move(owner)), cents_(cents) {}
  bool operator==(const account&) const = default;

 private:
  friend struct bale::access;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("owner", owner_), bale::field("cents", cents_));
  }
  std::string owner_;
  long long cents_ = 0;
};

// save/load that checks an invariant.
class range {
 public:
  range() = default;
  range(int lo, int hi) : lo_(lo), hi_(hi) {}
  bool operator==(const range&) const = default;
  template <class Archive>
  void save(Archive& ar) const {
    ar(lo_, hi_);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(lo_, hi_);
    if (lo_ > hi_) throw std::invalid_argument("lo > hi");
  }

 private:
  int lo_ = 0, hi_ = 0;
};

struct reflected {
  int a;
  std::string b;
  bool operator==(const reflected&) const = default;
};

}  // namespace matrix

BALE_REFLECT(matrix::reflected, a, b)

namespace {

using namespace matrix;
namespace fs = std::filesystem;

everything full() {
  everything e{};
  e.u8 = 200;
  e.i64 = -1234567890123;
  e.real = 0.1;
  e.letter = 'q';
  e.state = mode::busy;
  e.name = "bale";
  e.wide = u"wide";
  e.ints = {1, -2, 300, -40000, 5000000};
  e.leaves = {{1, 0.5f}, {-2, 1e9f}};
  e.flags = {true, false, true};
  e.triple = {7, -8, 9};
  e.queue = {1, 65535};
  e.chain = {3, 2, 1};
  e.tags = {"a", "b"};
  e.pairs = {{1, "x"}, {1, "y"}};
  e.scores = {{"k", 2.5}};
  e.maybe = leaf{3, 3.5f};
  e.either = std::string("right");
  e.shared = std::make_shared<leaf>(leaf{4, 4.5f});
  e.owned_text = std::make_unique<std::string>("owned");
  e.tuple = {5, "five"};
  e.bits = 0xA5A;
  e.z = {1.5, -2.5};
  e.elapsed = std::chrono::milliseconds(1500);
  e.stamp =
      std::chrono::sys_time<std::chrono::milliseconds>(std::chrono::milliseconds(1764028800125));
  e.blob = {std::byte{0}, std::byte{255}};
  return e;
}

// One value of each family at the top level; `everything` holds them all nested.
template <class T>
T sample();
template <>
int sample() {
  return -33;
}
template <>
std::string sample() {
  return "text";
}
template <>
std::vector<int> sample() {
  return {1, -2, 3, 1 << 20, -(1 << 30)};
}
template <>
std::vector<double> sample() {
  return {0.5, -1e300, 3.25};
}
template <>
std::vector<std::string> sample() {
  return {"", "one", "two"};
}
template <>
std::map<std::string, std::vector<int>> sample() {
  return {{"a", {1}}, {"b", {}}};
}
template <>
std::unordered_set<int> sample() {
  return {1, 2, 3};
}
template <>
std::list<short> sample() {
  return {1, -1};
}
template <>
std::optional<std::string> sample() {
  return "present";
}
template <>
std::variant<int, std::string> sample() {
  return std::string("alt");
}
template <>
std::tuple<int, double, std::string> sample() {
  return {1, 2.5, "three"};
}
template <>
std::array<std::uint8_t, 5> sample() {
  return {1, 2, 3, 4, 5};
}
template <>
std::vector<std::byte> sample() {
  return {std::byte{1}, std::byte{0}, std::byte{0xff}};
}
template <>
everything sample() {
  return full();
}
template <>
account sample() {
  return {"ada", 4200};
}
template <>
range sample() {
  return {-1, 1};
}
template <>
reflected sample() {
  return {7, "seven"};
}

template <class Format, class T>
struct combination {
  using format = Format;
  using type = T;
};

// The same value, read back: equal to the value the reference bytes decode to, or, for types
// without ==, encoding to the reference bytes again (an unordered container's order may change
// when it is rebuilt, so its bytes are compared only through ==).
template <class Format, class T>
void expect_same(const T& back, const std::vector<std::byte>& reference, const char* way) {
  if constexpr (requires { std::declval<const T&>() == std::declval<const T&>(); }) {
    EXPECT_TRUE((back == bale::deserialize<T, Format>(reference))) << way;
  } else {
    EXPECT_EQ(bale::serialize<Format>(back), reference) << way;
  }
}

template <class Buffer>
std::vector<std::byte> as_bytes_of(const Buffer& buffer, std::size_t from = 0) {
  const auto* data = reinterpret_cast<const std::byte*>(buffer.data());
  return {data + from, data + buffer.size()};
}

class EveryWay : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("bale_every_way_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

template <class Format, class T, class Buffer>
void expect_buffer_ways(const T& value, const std::vector<std::byte>& reference) {
  const Buffer junk(3, typename Buffer::value_type{7});
  Buffer appended = junk;
  EXPECT_EQ(bale::serialize_into<Format>(appended, value), reference.size());
  EXPECT_EQ(as_bytes_of(appended, 3), reference) << "serialize_into";
  EXPECT_EQ(as_bytes_of(appended).size(), reference.size() + 3);

  Buffer kept(reference.size() + 100, typename Buffer::value_type{9});  // longer than needed
  bale::serialize_assign<Format>(kept, value);
  EXPECT_EQ(as_bytes_of(kept), reference) << "serialize_assign over a longer buffer";
  Buffer short_kept = junk;  // shorter than needed
  bale::serialize_assign<Format>(short_kept, value);
  EXPECT_EQ(as_bytes_of(short_kept), reference) << "serialize_assign over a shorter buffer";

  Buffer exact(reference.size(), typename Buffer::value_type{});
  EXPECT_EQ(bale::serialize_to<Format>(exact, value), reference.size());
  EXPECT_EQ(as_bytes_of(exact), reference) << "serialize_to";

  Buffer several;
  bale::writer<Format, Buffer> w(several);
  w(value)(value);
  EXPECT_EQ(as_bytes_of(several).size(), 2 * reference.size()) << "writer";

  // Read back from this buffer type, every way.
  expect_same<Format>(bale::deserialize<T, Format>(exact), reference, "deserialize");
  T into{};
  bale::deserialize<Format>(exact, into);
  expect_same<Format>(into, reference, "deserialize into an existing value");
  auto tried = bale::try_deserialize<T, Format>(exact);
  ASSERT_TRUE(tried) << tried.error().what();
  expect_same<Format>(*tried, reference, "try_deserialize");
  T tried_into{};
  ASSERT_TRUE(bale::try_deserialize<Format>(exact, tried_into));
  expect_same<Format>(tried_into, reference, "try_deserialize into");
  bale::reader<Format> r(several);
  T first{}, second{};
  r(first, second);
  EXPECT_EQ(r.remaining(), 0u);
  expect_same<Format>(first, reference, "reader, first");
  expect_same<Format>(second, reference, "reader, second");
}

template <class Format, class T>
void expect_file_ways(const fs::path& dir, const T& value,
                      const std::vector<std::byte>& reference) {
  constexpr bool from_header =
      std::is_same_v<Format, bale::binary> || std::is_same_v<Format, bale::compact>;
  for (const bale::codec codec : {bale::codec::none, bale::codec::lz4, bale::codec::zstd}) {
    if (!bale::codec_available(codec)) continue;
    SCOPED_TRACE(std::string(bale::to_string(codec)));
    const fs::path path = dir / "value.bale";
    bale::save_file<Format>(path, value, {.compression = codec, .sync = false});
    expect_same<Format>(bale::load_file<T, Format>(path), reference, "load_file<T, Format>");
    if constexpr (from_header) {
      expect_same<Format>(bale::load_file<T>(path), reference, "load_file<T>");
      T into{};
      bale::load_file<T>(path, into);
      expect_same<Format>(into, reference, "load_file into");
    }
    auto tried = bale::try_load_file<T, Format>(path);
    ASSERT_TRUE(tried) << tried.error().what();
    expect_same<Format>(*tried, reference, "try_load_file");
    expect_same<Format>(*bale::load_file_owned<T, Format>(path), reference, "load_file_owned");
    ASSERT_TRUE(bale::try_save_file<Format>(path, value, {.compression = codec, .sync = false}));
    expect_same<Format>(bale::load_file<T, Format>(path), reference, "try_save_file");
  }

  const fs::path records = dir / "values.bales";
  {
    bale::record_writer<T, Format> out(records);
    out.write(value);
    out.write(value);
    out.close();
  }
  bale::record_reader<T, Format> in(records);
  for (int i = 0; i < 2; ++i) {
    auto next = in.next();
    ASSERT_TRUE(next);
    expect_same<Format>(*next, reference, "record_reader");
  }
  EXPECT_FALSE(in.next());
  if constexpr (from_header) {
    bale::record_reader<T> unnamed(records);
    auto next = unnamed.next();
    ASSERT_TRUE(next);
    expect_same<Format>(*next, reference, "record_reader<T>");
  }
}

template <class Combination>
class EveryWayOf : public EveryWay {};

#define BALE_FAMILIES(F)                                                                          \
  combination<F, int>, combination<F, std::string>, combination<F, std::vector<int>>,             \
      combination<F, std::vector<double>>, combination<F, std::vector<std::string>>,              \
      combination<F, std::map<std::string, std::vector<int>>>,                                    \
      combination<F, std::unordered_set<int>>, combination<F, std::list<short>>,                  \
      combination<F, std::optional<std::string>>, combination<F, std::variant<int, std::string>>, \
      combination<F, std::tuple<int, double, std::string>>,                                       \
      combination<F, std::array<std::uint8_t, 5>>, combination<F, std::vector<std::byte>>,        \
      combination<F, everything>, combination<F, account>, combination<F, range>,                 \
      combination<F, reflected>

using combinations = ::testing::Types<BALE_FAMILIES(bale::binary), BALE_FAMILIES(bale::compact),
                                      BALE_FAMILIES(bale::msgpack), BALE_FAMILIES(bale::json)>;
TYPED_TEST_SUITE(EveryWayOf, combinations);

TYPED_TEST(EveryWayOf, WritesTheSameBytesAndReadsThemBack) {
  using Format = typename TypeParam::format;
  using T = typename TypeParam::type;
  const T value = sample<T>();
  const std::vector<std::byte> reference = bale::serialize<Format>(value);
  EXPECT_EQ(bale::serialized_size<Format>(value), reference.size());
  {
    SCOPED_TRACE("std::vector<std::byte>");
    expect_buffer_ways<Format, T, std::vector<std::byte>>(value, reference);
  }
  {
    SCOPED_TRACE("std::vector<char>");
    expect_buffer_ways<Format, T, std::vector<char>>(value, reference);
  }
  {
    SCOPED_TRACE("std::vector<unsigned char>");
    expect_buffer_ways<Format, T, std::vector<unsigned char>>(value, reference);
  }
  {
    SCOPED_TRACE("std::string");
    expect_buffer_ways<Format, T, std::string>(value, reference);
  }
  std::array<std::uint8_t, 4096> fixed{};
  ASSERT_LE(reference.size(), fixed.size());
  EXPECT_EQ(bale::serialize_to<Format>(fixed, value), reference.size());
  EXPECT_EQ(
      std::vector<std::byte>(reinterpret_cast<const std::byte*>(fixed.data()),
                             reinterpret_cast<const std::byte*>(fixed.data()) + reference.size()),
      reference);
  expect_same<Format>(
      bale::deserialize<T, Format>(std::span<const std::uint8_t>(fixed.data(), reference.size())),
      reference, "deserialize from a span of uint8_t");
  expect_file_ways<Format>(this->dir_, value, reference);
}

}  // namespace
