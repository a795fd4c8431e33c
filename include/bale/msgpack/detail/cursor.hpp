// SPDX-License-Identifier: BSL-1.0
#pragma once
// The MessagePack reader's position in its input and the reads that know no C++ type: headers,
// numbers, keys, skipping a value. Every read is bounds-checked; errors carry the byte offset.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/skip_memo.hpp"
#include "bale/msgpack/wire.hpp"

namespace bale::detail {

/// A member of a map-shaped hand-described type: its name and where its value starts.
struct msgpack_member {
  std::string_view name;
  const std::byte* value_at;
  bool used;
};

class msgpack_cursor {
 public:
  msgpack_cursor(std::span<const std::byte> input, read_context& context) noexcept
      : begin_(input.data()),
        pos_(input.data()),
        end_(input.data() + input.size()),
        context_(context) {}

  std::size_t offset() const noexcept { return offset_of(pos_); }
  std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - pos_); }
  read_context& context() const noexcept { return context_; }

  [[noreturn]] void fail(errc code, std::string detail) const {
    fail_at(code, std::move(detail), offset());
  }
  [[noreturn]] void fail_at(errc code, std::string detail, std::size_t at) const {
    throw error(code, std::move(detail), at);
  }

 protected:
  using container = msgpack_wire::container;

  std::size_t offset_of(const std::byte* p) const noexcept {
    return static_cast<std::size_t>(p - begin_);
  }
  const std::byte* position() const noexcept { return pos_; }
  void seek(const std::byte* p) noexcept { pos_ = p; }

  [[gnu::always_inline]] const std::byte* take(std::size_t n) {
    if (n > remaining()) [[unlikely]]
      fail_short(n);
    const std::byte* at = pos_;
    pos_ += n;
    return at;
  }
  [[gnu::always_inline]] std::uint8_t take_byte() {
    return std::to_integer<std::uint8_t>(*take(1));
  }
  [[gnu::always_inline]] std::uint8_t peek_byte() {
    if (pos_ == end_) [[unlikely]]
      fail_short(1);
    return std::to_integer<std::uint8_t>(*pos_);
  }
  template <class U>
  [[gnu::always_inline]] U take_big_endian() {
    const std::byte* at = take(sizeof(U));
    U value = 0;
    for (std::size_t i = 0; i < sizeof(U); ++i)
      value = static_cast<U>((value << 4 << 4) | std::to_integer<U>(at[i]));
    return value;
  }
  void copy_bytes(void* out, std::size_t n) {
    const std::byte* from = take(n);
    if (n != 0) std::memcpy(out, from, n);
  }
  bool peek_array() {
    const std::uint8_t b = peek_byte();
    return (b & 0xf0) == msgpack_wire::fixarray || b == msgpack_wire::array16 ||
           b == msgpack_wire::array32;
  }
  bool take_nil() {
    if (peek_byte() != msgpack_wire::nil) return false;
    ++pos_;
    return true;
  }

  /// Reads a header of `kind` and checks its count against the bytes left (each element takes at
  /// least one byte, each map entry two: `bytes_per_element`), then charges count * element_size.
  std::size_t read_header(container kind, std::size_t element_size,
                          std::size_t bytes_per_element = 1) {
    const std::size_t at = offset();
    const std::uint64_t count = header_count(kind, take_byte(), at);
    if (count > remaining() / bytes_per_element)
      fail_at(errc::length_too_large,
              error_text({"length ", count, " exceeds the ", remaining(), " bytes left"}), at);
    if (element_size != 0 && !context_.try_charge(static_cast<std::size_t>(count), element_size))
      fail_at(errc::allocation_limit,
              error_text({"length ", count, " would pass the allocation limit of ",
                          context_.limits().max_allocation, " bytes"}),
              at);
    return static_cast<std::size_t>(count);
  }
  void expect_count(container kind, std::size_t expected) {
    const std::size_t at = offset();
    const std::size_t count = read_header(kind, 0, kind == container::map ? 2 : 1);
    if (count != expected)
      fail_at(errc::invalid_value, error_text({"expected ", expected, " values, found ", count}),
              at);
  }

  bool read_bool() {
    const std::size_t at = offset();
    const std::uint8_t b = take_byte();
    if (b == msgpack_wire::true_) return true;
    if (b == msgpack_wire::false_) return false;
    fail_at(errc::invalid_value, "expected a bool, found " + describe(b), at);
  }

  /// Any integer form whose value fits T.
  template <class T>
  [[gnu::always_inline]] T read_integer() {
    const std::size_t at = offset();
    const whole_number n = read_whole_number(at, "an integer");
    return fit_integer<T>(n, at);
  }

  /// float32 or float64, or an integer (other writers, msgpack-cxx among them, write a float with
  /// a whole value as one); into T only if the value converts exactly.
  template <class T>
  [[gnu::always_inline]] T read_float() {
    // The form bale writes for T is tried first.
    const std::uint8_t b = peek_byte();
    if constexpr (std::is_same_v<T, float>) {
      if (b == msgpack_wire::float32) [[likely]]
        return take_float32();
      if (b == msgpack_wire::float64) return narrow_exactly(take_float64());
    } else {
      if (b == msgpack_wire::float64) [[likely]]
        return static_cast<T>(take_float64());
      if (b == msgpack_wire::float32) return static_cast<T>(take_float32());
    }
    return read_float_from_integer<T>();
  }
  float take_float32() {
    ++pos_;
    return std::bit_cast<float>(take_big_endian<std::uint32_t>());
  }
  double take_float64() {
    ++pos_;
    return std::bit_cast<double>(take_big_endian<std::uint64_t>());
  }
  float narrow_exactly(double value) const {
    const auto narrow = static_cast<float>(value);
    if (static_cast<double>(narrow) != value && !std::isnan(value)) [[unlikely]]
      fail_at(errc::invalid_value, "float64 value does not fit a float exactly", offset() - 9);
    return narrow;
  }

  /// A map key that names a member: a view of its bytes.
  std::string_view read_key() {
    const std::size_t count = read_header(container::str, 0);
    return {reinterpret_cast<const char*>(take(count)), count};
  }

  /// Records the entries of a map (keys are strings) in members_, leaving pos_ after the map.
  void index_members(std::size_t entries) {
    const std::size_t first = members_.size();
    skipped_.start_indexing();
    for (std::size_t i = 0; i < entries; ++i) {
      const std::string_view name = read_key();
      members_.push_back({name, pos_, false});
      skip_value();
    }
    skipped_.stop_indexing();
    reject_duplicates(first);
  }

  /// A name that members_ holds twice from `first` on is an error. Sorted, so that a map of any
  /// size is checked in n log n, not n * n.
  void reject_duplicates(std::size_t first) {
    std::vector<const msgpack_member*> by_name;
    by_name.reserve(members_.size() - first);
    for (std::size_t k = first; k < members_.size(); ++k) by_name.push_back(&members_[k]);
    std::sort(by_name.begin(), by_name.end(), [](const msgpack_member* a, const msgpack_member* b) {
      return a->name != b->name ? a->name < b->name : a->value_at < b->value_at;
    });
    for (std::size_t k = 1; k < by_name.size(); ++k)
      if (by_name[k]->name == by_name[k - 1]->name)
        fail_at(errc::invalid_value, error_text({"duplicate member \"", by_name[k]->name, "\""}),
                offset_of(by_name[k]->value_at));
  }

  /// Steps over one value of any type, extension types included.
  void skip_value() {
    const std::size_t at = offset();
    start_ = pos_;
    const std::uint8_t b = take_byte();
    if (b <= msgpack_wire::positive_fixint_max || b >= msgpack_wire::negative_fixint_min ||
        b == msgpack_wire::nil || b == msgpack_wire::false_ || b == msgpack_wire::true_)
      return;
    if ((b & 0xe0) == msgpack_wire::fixstr) return (void)take(b & 0x1fU);
    if ((b & 0xf0) == msgpack_wire::fixarray) return skip_values(b & 0x0fU, at);
    if ((b & 0xf0) == msgpack_wire::fixmap) return skip_values(2 * (b & 0x0fU), at);
    switch (b) {
      case msgpack_wire::float32:
        return (void)take(4);
      case msgpack_wire::float64:
        return (void)take(8);
      case msgpack_wire::uint8:
      case msgpack_wire::int8:
        return (void)take(1);
      case msgpack_wire::uint16:
      case msgpack_wire::int16:
        return (void)take(2);
      case msgpack_wire::uint32:
      case msgpack_wire::int32:
        return (void)take(4);
      case msgpack_wire::uint64:
      case msgpack_wire::int64:
        return (void)take(8);
      case msgpack_wire::str8:
      case msgpack_wire::bin8:
        return (void)take(take_byte());
      case msgpack_wire::str16:
      case msgpack_wire::bin16:
        return (void)take(take_big_endian<std::uint16_t>());
      case msgpack_wire::str32:
      case msgpack_wire::bin32:
        return (void)take(take_big_endian<std::uint32_t>());
      case msgpack_wire::ext8:
        return (void)take(std::size_t{take_byte()} + 1);
      case msgpack_wire::ext16:
        return (void)take(std::size_t{take_big_endian<std::uint16_t>()} + 1);
      case msgpack_wire::ext32:
        return (void)take(std::size_t{take_big_endian<std::uint32_t>()} + 1);
      case msgpack_wire::array16:
        return skip_values(take_big_endian<std::uint16_t>(), at);
      case msgpack_wire::array32:
        return skip_values(take_big_endian<std::uint32_t>(), at);
      case msgpack_wire::map16:
        return skip_values(2 * std::size_t{take_big_endian<std::uint16_t>()}, at);
      case msgpack_wire::map32:
        return skip_values(2 * std::size_t{take_big_endian<std::uint32_t>()}, at);
      default:
        break;
    }
    if (b >= msgpack_wire::fixext1 && b <= msgpack_wire::fixext16)
      return (void)take((std::size_t{1} << (b - msgpack_wire::fixext1)) + 1);
    fail_at(errc::invalid_value, "byte 0xc1 is never used in MessagePack", at);
  }

  std::vector<msgpack_member> members_;
  skip_memo<const std::byte*> skipped_;  // ends of containers stepped over (core/skip_memo.hpp)

 private:
  // The values of a container that starts at start_ (its type byte).
  void skip_values(std::size_t count, std::size_t at) {
    const std::byte* const start = start_;
    if (const std::byte* end = skipped_.end_of(start)) {
      pos_ = end;
      return;
    }
    if (count > remaining())
      fail_at(errc::length_too_large,
              error_text({"length ", count, " exceeds the ", remaining(), " bytes left"}), at);
    {
      const nesting_guard<msgpack_cursor> guard(*this);
      for (std::size_t i = 0; i < count; ++i) skip_value();
    }
    if (!skipped_.keep(context_, start, pos_)) fail_allocation(*this);
  }

  // The 1-, 2-, 4- or 8-byte big-endian value after an int or uint type byte, as 64 bits
  // (sign-extended for int forms).
  template <bool Signed>
  [[gnu::always_inline]] std::uint64_t read_sized(unsigned width_code) {
    switch (width_code) {
      case 0:
        return widen<Signed, std::int8_t>(take_big_endian<std::uint8_t>());
      case 1:
        return widen<Signed, std::int16_t>(take_big_endian<std::uint16_t>());
      case 2:
        return widen<Signed, std::int32_t>(take_big_endian<std::uint32_t>());
      default:
        return take_big_endian<std::uint64_t>();
    }
  }
  template <bool Signed, class S, class U>
  static std::uint64_t widen(U bits) {
    if constexpr (Signed)
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<S>(bits)));
    else
      return bits;
  }

  // An integer of any form: its sign, and its value (negative ones as two's complement bits).
  struct whole_number {
    bool negative;
    std::uint64_t bits;
  };
  [[gnu::always_inline]] whole_number read_whole_number(std::size_t at, const char* expected) {
    const std::uint8_t b = take_byte();
    if (b <= msgpack_wire::positive_fixint_max) return {false, b};
    if (b >= msgpack_wire::negative_fixint_min)
      return {true,
              static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(b)))};
    if (b >= msgpack_wire::uint8 && b <= msgpack_wire::uint64)
      return {false, read_sized<false>(static_cast<unsigned>(b - msgpack_wire::uint8))};
    if (b >= msgpack_wire::int8 && b <= msgpack_wire::int64) {
      const std::uint64_t bits = read_sized<true>(static_cast<unsigned>(b - msgpack_wire::int8));
      return {static_cast<std::int64_t>(bits) < 0, bits};
    }
    fail_at(errc::invalid_value, error_text({"expected ", expected, ", found ", describe(b)}), at);
  }

  template <class T>
  [[gnu::always_inline]] T fit_integer(whole_number n, std::size_t at) const {
    using limits_t = std::numeric_limits<T>;
    if (n.negative) {
      const auto v = static_cast<std::int64_t>(n.bits);
      if constexpr (std::is_signed_v<T>) {
        if (v >= static_cast<std::int64_t>(limits_t::min())) return static_cast<T>(v);
      }
      fail_at(errc::invalid_value, error_text({"integer ", v, " is out of range"}), at);
    }
    if (n.bits > static_cast<std::uint64_t>(limits_t::max()))
      fail_at(errc::invalid_value, error_text({"integer ", n.bits, " is out of range"}), at);
    return static_cast<T>(n.bits);
  }

  // Out of line: bale never writes a float as an integer, and the loops over floats stay small.
  template <class T>
  [[gnu::noinline]] T read_float_from_integer() {
    const std::size_t at = offset();
    return exact_float<T>(read_whole_number(at, "a float"), at);
  }

  // A whole number as a float, when the float holds it exactly. Converting back is checked
  // against the range first, since converting an out-of-range float to an integer is undefined.
  template <class T>
  T exact_float(whole_number n, std::size_t at) const {
    constexpr T two_63 = static_cast<T>(std::uint64_t{1} << 63);
    if (n.negative) {
      const auto v = static_cast<std::int64_t>(n.bits);
      const auto f = static_cast<T>(v);
      if (f >= -two_63 && static_cast<std::int64_t>(f) == v) return f;
    } else {
      const auto f = static_cast<T>(n.bits);
      if (f < 2 * two_63 && static_cast<std::uint64_t>(f) == n.bits) return f;
    }
    fail_at(errc::invalid_value, "integer does not fit a floating-point value exactly", at);
  }

  // The container's count from its type byte, which must be one of `kind`'s forms.
  std::uint64_t header_count(container kind, std::uint8_t b, std::size_t at) {
    switch (kind) {
      case container::str:
        if ((b & 0xe0) == msgpack_wire::fixstr) return b & 0x1fU;
        if (b == msgpack_wire::str8) return take_byte();
        if (b == msgpack_wire::str16) return take_big_endian<std::uint16_t>();
        if (b == msgpack_wire::str32) return take_big_endian<std::uint32_t>();
        break;
      case container::bin:
        if (b == msgpack_wire::bin8) return take_byte();
        if (b == msgpack_wire::bin16) return take_big_endian<std::uint16_t>();
        if (b == msgpack_wire::bin32) return take_big_endian<std::uint32_t>();
        break;
      case container::array:
        if ((b & 0xf0) == msgpack_wire::fixarray) return b & 0x0fU;
        if (b == msgpack_wire::array16) return take_big_endian<std::uint16_t>();
        if (b == msgpack_wire::array32) return take_big_endian<std::uint32_t>();
        break;
      case container::map:
        if ((b & 0xf0) == msgpack_wire::fixmap) return b & 0x0fU;
        if (b == msgpack_wire::map16) return take_big_endian<std::uint16_t>();
        if (b == msgpack_wire::map32) return take_big_endian<std::uint32_t>();
        break;
    }
    static constexpr const char* names[] = {"a string", "bin", "an array", "a map"};
    fail_at(errc::invalid_value,
            error_text({"expected ", names[static_cast<int>(kind)], ", found ", describe(b)}), at);
  }

  static std::string describe(std::uint8_t b) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string kind = b <= 0x7f || b >= 0xe0 ? "an integer"
                       : b <= 0x8f            ? "a map"
                       : b <= 0x9f            ? "an array"
                       : b <= 0xbf            ? "a string"
                       : b == 0xc0            ? "nil"
                       : b <= 0xc3            ? "a bool"
                       : b <= 0xc6            ? "bin"
                       : b <= 0xc9            ? "an extension"
                       : b <= 0xcb            ? "a float"
                       : b <= 0xd3            ? "an integer"
                       : b <= 0xd8            ? "an extension"
                       : b <= 0xdb            ? "a string"
                       : b <= 0xdd            ? "an array"
                                              : "a map";
    if (b == msgpack_wire::never_used) kind = "the unused byte";
    return kind + " (0x" + hex[b >> 4] + hex[b & 15] + ")";
  }

  [[noreturn, gnu::cold, gnu::noinline]] void fail_short(std::size_t n) const {
    fail(errc::end_of_input, error_text({"need ", n, " bytes, ", remaining(), " left"}));
  }

  const std::byte* begin_;
  const std::byte* pos_;
  const std::byte* start_ = nullptr;  // the value skip_value is stepping over
  const std::byte* end_;
  read_context& context_;
};

}  // namespace bale::detail
