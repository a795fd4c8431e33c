// SPDX-License-Identifier: BSL-1.0
#pragma once
// The arithmetic types bale encodes as scalars, and a byte swap for big-endian hosts.

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace bale::detail {

template <class T>
constexpr T byteswap(T value) noexcept {
  if constexpr (sizeof(T) == 1) {
    return value;
  } else {
    using U = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                 std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;
    U bits = std::bit_cast<U>(value);
    if constexpr (sizeof(T) == 2)
      bits = __builtin_bswap16(bits);
    else if constexpr (sizeof(T) == 4)
      bits = __builtin_bswap32(bits);
    else
      bits = __builtin_bswap64(bits);
    return std::bit_cast<T>(bits);
  }
}

/// The arithmetic types bale encodes as scalars.
template <class T>
concept wire_arithmetic = std::is_arithmetic_v<T> && !std::is_same_v<T, long double> &&
                          (!std::is_floating_point_v<T> || std::numeric_limits<T>::is_iec559);

/// The optional flag of the byte formats: one bool, written and read as the codec's bool.
template <class Codec>
struct bool_flag {
  template <class Sink>
  static void write_flag(Sink& sink, bool flag) {
    Codec::write_scalar(sink, flag);
  }
  template <class Reader>
  static bool read_flag(Reader& reader) {
    bool flag;
    Codec::read_scalar(reader, flag);
    return flag;
  }
};

}  // namespace bale::detail
