// SPDX-License-Identifier: BSL-1.0
#pragma once
// How the compact format encodes scalars: the smallest encoding without a general compressor.
// - unsigned integers wider than a byte, lengths and variant indices: LEB128 varints (7 bits a
//   byte, low bits first, high bit set on every byte but the last);
// - signed integers wider than a byte: zigzag (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...), then a
// varint,
//   so -33 is one byte;
// - one-byte types (bool, char, int8_t, uint8_t, std::byte) and floats: their raw little-endian
//   bytes, as in the binary format.
// A varint must be minimal (no trailing 0x80 0x00), at most 10 bytes, at most 64 bits, and fit the
// type it is read into; anything else is errc::invalid_value.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "bale/core/arithmetic.hpp"
#include "bale/core/error.hpp"
#include "bale/core/wire.hpp"

namespace bale::detail {

/// Scalars the compact format keeps as raw bytes.
template <class T>
inline constexpr bool compact_raw_scalar = sizeof(T) == 1 || std::is_floating_point_v<T>;

// True when every scalar inside T's wire shape is raw in the compact format, so T's memory layout
// is its compact layout too (given wire_compatible<T>).
template <class Shape>
struct compact_raw_shape : std::false_type {};
template <class U>
struct compact_raw_shape<wire::scalar<U>> : std::bool_constant<compact_raw_scalar<U>> {};
template <class... Ms>
struct compact_raw_shape<wire::product<Ms...>>
    : std::bool_constant<(compact_raw_shape<typename wire_shape_of<Ms>::type>::value && ...)> {};
template <class E, std::size_t N>
struct compact_raw_shape<wire::repeat<E, N>> : compact_raw_shape<typename wire_shape_of<E>::type> {
};

/// ceil(bits / 7) for bits in [1, 64], as (9 * bits + 64) / 64: no division on the sizing pass.
constexpr std::size_t varint_size(std::uint64_t value) noexcept {
  return (9 * static_cast<unsigned>(std::bit_width(value | 1)) + 64) / 64;
}

constexpr std::uint64_t zigzag(std::int64_t value) noexcept {
  return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}
constexpr std::int64_t unzigzag(std::uint64_t value) noexcept {
  return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
}

struct compact_codec : bool_flag<compact_codec> {
 private:
  // The 7-bit payloads of up to 8 varint bytes, packed together: pairs of groups, then fours,
  // then eights.
  static constexpr std::uint64_t gather_groups(std::uint64_t bytes) noexcept {
    std::uint64_t x = bytes & 0x7F7F7F7F7F7F7F7FULL;
    x = (x & 0x007F007F007F007FULL) | ((x & 0x7F007F007F007F00ULL) >> 1);
    x = (x & 0x00003FFF00003FFFULL) | ((x & 0x3FFF00003FFF0000ULL) >> 2);
    return (x & 0x000000000FFFFFFFULL) | ((x & 0x0FFFFFFF00000000ULL) >> 4);
  }
  template <class T>
  static constexpr bool fits(std::uint64_t bits) noexcept {
    if constexpr (sizeof(T) == 8) {
      return true;
    } else if constexpr (std::is_signed_v<T>) {
      const std::int64_t wide = unzigzag(bits);
      return wide >= std::numeric_limits<T>::min() && wide <= std::numeric_limits<T>::max();
    } else {
      return bits <= std::numeric_limits<T>::max();
    }
  }
  template <class T>
  static constexpr T from_varint(std::uint64_t bits) noexcept {
    if constexpr (std::is_signed_v<T>)
      return static_cast<T>(unzigzag(bits));
    else
      return static_cast<T>(bits);
  }

 public:
  template <class T>
  static constexpr wire_size scalar_size =
      compact_raw_scalar<T> ? wire_size{sizeof(T), true} : wire_size{1, false};
  static constexpr wire_size length_size{1, false};
  static constexpr wire_size flag_size{1, true};
  static constexpr wire_size index_size{1, false};

  /// A contiguous run of T moves as one memcpy (the archives' bulk<T>, core/archive.hpp).
  template <class T>
  static constexpr bool bulk =
      std::endian::native == std::endian::little&& wire_compatible<T>&&
                                 compact_raw_shape<typename wire_shape_of<T>::type>::value;

  // The write verbs are always inlined: once per field (core/serialize.hpp, run_pass_apart).
  template <class Sink>
  [[gnu::always_inline]] static void write_varint(Sink& sink, std::uint64_t value) {
    if constexpr (Sink::counts_only) {
      sink.skip(value < 0x80 ? 1 : varint_size(value));  // most lengths: no bit scan
    } else {
      if (value < 0x80) {  // most lengths and small integers
        *sink.reserve(1) = static_cast<std::byte>(value);
        return;
      }
      // Written in place: no copy through a temporary and no call per byte.
      std::byte* out = sink.reserve(varint_size(value));
      while (value >= 0x80) {
        *out++ = static_cast<std::byte>(static_cast<std::uint8_t>(value) | 0x80);
        value >>= 7;
      }
      *out = static_cast<std::byte>(value);
    }
  }

  /// Writes an integer array's varints in one pass over a local pointer (sizing: one sum).
  template <class Sink, class T>
  requires(std::is_integral_v<T> &&
           !compact_raw_scalar<T>) static void write_run(Sink& sink, const T* data,
                                                         std::size_t count) {
    auto wire_value = [](T v) {
      if constexpr (std::is_signed_v<T>)
        return zigzag(static_cast<std::int64_t>(v));
      else
        return static_cast<std::uint64_t>(v);
    };
    if constexpr (Sink::counts_only) {
      std::size_t total = 0;
      for (std::size_t i = 0; i < count; ++i) total += varint_size(wire_value(data[i]));
      sink.skip(total);
    } else {
      constexpr std::size_t longest = varint_size(~std::uint64_t{0});
      for (std::size_t done = 0; done < count;) {
        // As many as surely fit in one unchecked run; a sink that lends a bounded room (the exact
        // buffer, a file's buffer) takes the array in runs, and the last few one at a time.
        std::size_t run = count - done;
        if constexpr (requires { sink.room(); }) run = std::min(run, sink.room() / longest);
        std::byte* const start = run != 0 ? sink.ensure(run * longest) : nullptr;
        if (start == nullptr) {
          write_varint(sink, wire_value(data[done++]));
          continue;
        }
        std::byte* out = start;
        for (std::size_t i = done; i < done + run; ++i) {
          std::uint64_t value = wire_value(data[i]);
          while (value >= 0x80) {
            *out++ = static_cast<std::byte>(static_cast<std::uint8_t>(value) | 0x80);
            value >>= 7;
          }
          *out++ = static_cast<std::byte>(value);
        }
        sink.advance(static_cast<std::size_t>(out - start));
        done += run;
      }
    }
  }

  template <class Sink, wire_arithmetic T>
  [[gnu::always_inline]] static void write_scalar(Sink& sink, T value) {
    if constexpr (compact_raw_scalar<T>) {
      auto raw = value;
      if constexpr (std::endian::native == std::endian::big) raw = byteswap(raw);
      sink.put(&raw, sizeof raw);
    } else if constexpr (std::is_signed_v<T>) {
      write_varint(sink, zigzag(static_cast<std::int64_t>(value)));
    } else {
      write_varint(sink, static_cast<std::uint64_t>(value));
    }
  }
  template <class Sink>
  [[gnu::always_inline]] static void write_length(Sink& sink, std::size_t length) {
    write_varint(sink, length);
  }
  template <class Sink>
  [[gnu::always_inline]] static void write_index(Sink& sink, std::size_t index) {
    write_varint(sink, index);
  }

  template <class Reader>
  static std::uint64_t read_varint(Reader& reader) {
    // Most lengths and small integers are one byte.
    if (reader.remaining() != 0) [[likely]] {
      const auto first = static_cast<std::uint8_t>(*reader.position());
      if (first < 0x80U) {
        reader.take(1);
        return first;
      }
    }
    return read_long_varint(reader);
  }
  template <class Reader>
  static std::uint64_t read_long_varint(Reader& reader) {
    const std::size_t start = reader.offset();
    const std::byte* at = reader.position();
    const std::size_t available = reader.remaining() < 10 ? reader.remaining() : 10;
    std::uint64_t result = 0;
    for (std::size_t i = 0; i < available; ++i) {
      const auto byte = static_cast<std::uint8_t>(at[i]);
      const std::uint64_t payload = byte & 0x7FU;
      if (i == 9 && payload > 1) [[unlikely]]
        fail_varint(reader, "varint has more than 64 bits", start);
      result |= payload << (7 * i);
      if ((byte & 0x80U) == 0) {
        if (byte == 0 && i != 0) [[unlikely]]
          fail_varint(reader, "varint is not minimal (ends in a zero byte)", start);
        reader.take(i + 1);
        return result;
      }
    }
    if (available == 10) fail_varint(reader, "varint is longer than 10 bytes", start);
    reader.fail_at(errc::end_of_input, "varint runs past the end of the input", start);
  }
  template <class Reader>
  [[noreturn, gnu::cold, gnu::noinline]] static void fail_varint(Reader& reader, const char* what,
                                                                 std::size_t start) {
    reader.fail_at(errc::invalid_value, what, start);
  }
  // Decoded fine but does not fit T.
  template <class T, class Reader, class Wide>
  [[noreturn, gnu::cold, gnu::noinline]] static void fail_range(Reader& reader, Wide wide,
                                                                std::size_t start) {
    reader.fail_at(errc::invalid_value,
                   error_text({wide, " does not fit a ", sizeof(T) * 8, "-bit integer"}), start);
  }

  /// Decodes up to `count` varints of an integer array from [pos, end) with no branch per byte.
  /// Each step loads eight bytes: the one-byte values at their front are stored together (a run of
  /// small values moves eight at a time), then the varint after them is decoded whole, its length
  /// taken from the first clear high bit and its 7-bit groups packed by three shift-and-mask
  /// steps. Stops at anything it leaves to the checked path (a varint of 9 or 10 bytes, a
  /// non-minimal one, a value out of T's range, fewer than 16 bytes or 8 values left). Returns how
  /// many values it decoded and advances pos past them. The wire stays LEB128, not a block layout
  /// such as stream-vbyte: that decodes faster with SIMD but spends a quarter byte more on every
  /// small value, which would make compact larger than protobuf's packed fields.
  template <class T>
  requires(std::is_integral_v<T> && !compact_raw_scalar<T>) static std::size_t
      read_run(const std::byte*& pos, const std::byte* end, T* out, std::size_t count) noexcept {
    if constexpr (std::endian::native != std::endian::little) return 0;
    constexpr std::uint64_t high_bits = 0x8080808080808080ULL;
    const std::byte* at = pos;
    std::size_t done = 0;
    while (count - done > 8 && end - at >= 16) {
      std::uint64_t word;
      std::memcpy(&word, at, sizeof word);
      // The one-byte values in front: all eight are stored, `small` of them kept.
      const std::uint64_t continued = word & high_bits;
      const unsigned small =
          continued == 0 ? 8 : static_cast<unsigned>(std::countr_zero(continued)) / 8;
      if (small != 0) {
        for (unsigned k = 0; k < 8; ++k) out[done + k] = from_varint<T>((word >> (8 * k)) & 0x7F);
        done += small;
        at += small;
        if (small == 8 || count - done == 0) continue;
        std::memcpy(&word, at, sizeof word);
      }
      // Then one varint of two or more bytes.
      const std::uint64_t stops = ~word & high_bits;
      if (stops == 0) break;
      const unsigned length = static_cast<unsigned>(std::countr_zero(stops)) / 8 + 1;
      const std::uint64_t bytes = word & (~std::uint64_t{0} >> (64 - 8 * length));
      if ((bytes >> (8 * (length - 1))) == 0) break;  // ends in a zero byte: not minimal
      const std::uint64_t bits = gather_groups(bytes);
      if (!fits<T>(bits)) break;
      out[done++] = from_varint<T>(bits);
      at += length;
    }
    pos = at;
    return done;
  }

  template <class Reader, wire_arithmetic T>
  static void read_scalar(Reader& reader, T& value) {
    if constexpr (compact_raw_scalar<T>) {
      // A bool is checked as a byte: loading a bool object that holds 2 would be undefined.
      using raw_type = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;
      raw_type raw;
      std::memcpy(&raw, reader.take(sizeof raw), sizeof raw);
      if constexpr (std::endian::native == std::endian::big) raw = byteswap(raw);
      if constexpr (std::is_same_v<T, bool>) {
        if (raw > 1)
          reader.fail_at(errc::invalid_value, error_text({"bool byte is ", raw, ", not 0 or 1"}),
                         reader.offset() - 1);
        value = raw != 0;
      } else {
        value = raw;
      }
    } else {
      const std::size_t start = reader.offset();
      const std::uint64_t bits = read_varint(reader);
      if constexpr (std::is_signed_v<T>) {
        const std::int64_t wide = unzigzag(bits);
        if (wide < std::numeric_limits<T>::min() || wide > std::numeric_limits<T>::max())
            [[unlikely]]
          fail_range<T>(reader, wide, start);
        value = static_cast<T>(wide);
      } else {
        if (bits > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) [[unlikely]]
          fail_range<T>(reader, bits, start);
        value = static_cast<T>(bits);
      }
    }
  }
  template <class Reader>
  static std::uint64_t read_length(Reader& reader) {
    return read_varint(reader);
  }
  template <class Reader>
  static std::uint64_t read_index(Reader& reader) {
    return read_varint(reader);
  }
};

}  // namespace bale::detail
