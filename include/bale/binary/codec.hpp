// SPDX-License-Identifier: BSL-1.0
#pragma once
// How the binary format encodes scalars: fixed width, little-endian on every host, IEEE-754
// floats, bool as one byte 0 or 1, wchar_t as four bytes, lengths as u64, optional flags as one
// byte, variant indices as u32.

#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "bale/core/arithmetic.hpp"
#include "bale/core/error.hpp"
#include "bale/core/wire.hpp"

namespace bale::detail {

struct binary_codec : bool_flag<binary_codec> {
  // wchar_t is 2 bytes on some platforms and 4 on others; the wire always has 4.
  template <class T>
  using wire_type = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t,
                                       std::conditional_t<std::is_same_v<T, wchar_t>, char32_t, T>>;

  template <class T>
  static constexpr wire_size scalar_size{sizeof(wire_type<T>), true};
  static constexpr wire_size length_size{8, true};
  static constexpr wire_size flag_size{1, true};
  static constexpr wire_size index_size{4, true};

  /// A contiguous run of T moves as one memcpy (the archives' bulk<T>, core/archive.hpp).
  template <class T>
  static constexpr bool bulk = std::endian::native == std::endian::little&& wire_compatible<T>;

  template <class Sink, wire_arithmetic T>
  static void write_scalar(Sink& sink, T value) {
    auto wire = static_cast<wire_type<T>>(value);
    if constexpr (std::endian::native == std::endian::big) wire = byteswap(wire);
    sink.put(&wire, sizeof wire);
  }
  template <class Sink>
  static void write_length(Sink& sink, std::size_t length) {
    write_scalar(sink, std::uint64_t{length});
  }
  template <class Sink>
  static void write_index(Sink& sink, std::size_t index) {
    write_scalar(sink, static_cast<std::uint32_t>(index));
  }

  template <class Reader, wire_arithmetic T>
  static void read_scalar(Reader& reader, T& value) {
    wire_type<T> wire;
    std::memcpy(&wire, reader.take(sizeof wire), sizeof wire);
    if constexpr (std::endian::native == std::endian::big) wire = byteswap(wire);
    if constexpr (std::is_same_v<T, bool>) {
      if (wire > 1)
        reader.fail_at(errc::invalid_value, error_text({"bool byte is ", wire, ", not 0 or 1"}),
                       reader.offset() - 1);
      value = wire != 0;
    } else if constexpr (std::is_same_v<T, wchar_t> && sizeof(wchar_t) < 4) {
      if (wire > static_cast<char32_t>(std::numeric_limits<wchar_t>::max()))
        reader.fail_at(errc::invalid_value, "wchar_t value does not fit this platform",
                       reader.offset() - 4);
      value = static_cast<wchar_t>(wire);
    } else {
      value = static_cast<T>(wire);
    }
  }
  template <class Reader>
  static std::uint64_t read_length(Reader& reader) {
    std::uint64_t length;
    read_scalar(reader, length);
    return length;
  }
  template <class Reader>
  static std::uint64_t read_index(Reader& reader) {
    std::uint32_t index;
    read_scalar(reader, index);
    return index;
  }
};

}  // namespace bale::detail
