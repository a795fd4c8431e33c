// SPDX-License-Identifier: BSL-1.0
// docs/extending.md, "A byte codec": a format that keeps the packed archives' structure (lengths,
// flags, indices, no names) and changes only how scalars become bytes: here big-endian.
#include <gtest/gtest.h>

#include <algorithm>
#include <bale/all.hpp>
#include <bit>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

// [codec]
namespace network_order {

struct codec : bale::detail::bool_flag<codec> {
  // Encoded sizes, which serialized_size and the readers' length checks use.
  template <class T>
  static constexpr bale::wire_size scalar_size{sizeof(T), true};
  static constexpr bale::wire_size length_size{8, true};
  static constexpr bale::wire_size flag_size{1, true};
  static constexpr bale::wire_size index_size{4, true};
  // Runs that move as one memcpy: bytes only, since every wider scalar is reordered.
  template <class T>
  static constexpr bool bulk = sizeof(T) == 1 && bale::wire_compatible<T>;

  template <class Sink, class T>
  static void write_scalar(Sink& sink, T value) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    if constexpr (std::endian::native == std::endian::little)
      std::reverse(bytes, bytes + sizeof(T));
    sink.put(bytes, sizeof(T));
  }
  template <class Sink>
  static void write_length(Sink& sink, std::size_t n) {
    write_scalar(sink, static_cast<std::uint64_t>(n));
  }
  template <class Sink>
  static void write_index(Sink& sink, std::size_t i) {
    write_scalar(sink, static_cast<std::uint32_t>(i));
  }

  // reader.take(n) is bounds-checked: it fails with end_of_input rather than read past the end.
  template <class Reader, class T>
  static void read_scalar(Reader& reader, T& value) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, reader.take(sizeof(T)), sizeof(T));
    if constexpr (std::endian::native == std::endian::little)
      std::reverse(bytes, bytes + sizeof(T));
    if constexpr (std::is_same_v<T, bool>) {
      if (bytes[0] > 1)
        reader.fail_at(bale::errc::invalid_value, "bool is not 0 or 1", reader.offset() - 1);
    }
    std::memcpy(&value, bytes, sizeof(T));
  }
  template <class Reader>
  static std::uint64_t read_length(Reader& reader) {
    std::uint64_t n;
    read_scalar(reader, n);
    return n;
  }
  template <class Reader>
  static std::uint64_t read_index(Reader& reader) {
    std::uint32_t i;
    read_scalar(reader, i);
    return i;
  }
};

// The format tag: a name, the id files record (bale keeps 0-63 for its own formats), and the
// packed archives over the codec.
struct format {
  static constexpr std::string_view name = "network_order";
  static constexpr std::uint8_t id = 64;
  template <class Sink>
  using writer = bale::detail::packed_writer<codec, Sink>;
  using reader = bale::detail::packed_reader<codec>;
};
static_assert(bale::format<format>);

}  // namespace network_order
// [codec]

namespace {

struct reading {
  std::uint16_t sensor;
  std::int32_t value;
  std::vector<std::uint8_t> raw;
  bool operator==(const reading&) const = default;
};

TEST(ExtendingCodec, BigEndianOnTheWire) {
  const reading r{0x0102, -2, {9}};
  const auto bytes = bale::serialize<network_order::format>(r);
  const std::vector<std::byte> expected{
      std::byte{0x01}, std::byte{0x02},                                    // sensor
      std::byte{0xff}, std::byte{0xff}, std::byte{0xff}, std::byte{0xfe},  // value
      std::byte{0},    std::byte{0},    std::byte{0},    std::byte{0},     // length of raw
      std::byte{0},    std::byte{0},    std::byte{0},    std::byte{1},    std::byte{9}};
  EXPECT_EQ(bytes, expected);
  EXPECT_EQ((bale::deserialize<reading, network_order::format>(bytes)), r);
  EXPECT_EQ(bale::serialized_size<network_order::format>(r), bytes.size());
}

TEST(ExtendingCodec, DamagedInputFailsCleanly) {
  const auto bytes =
      bale::serialize<network_order::format>(std::vector<reading>{{1, 2, {3, 4}}, {5, 6, {}}});
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE((bale::try_deserialize<std::vector<reading>, network_order::format>(
        std::span<const std::byte>(bytes.data(), n))));
  auto huge = bytes;
  huge[0] = std::byte{0x7f};  // a length of about 2^62 elements
  auto r = bale::try_deserialize<std::vector<reading>, network_order::format>(huge);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
}

}  // namespace
