// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::small_float<T>: type-aware compression for floats that are usually small round numbers.
// The 255 values n/2 for n in [-127, 127] (0, +-0.5, +-1, +-1.5, ... +-63.5) take one byte; every
// other value takes one escape byte (0xFF) and then its raw bytes. The round trip is exact for
// every bit pattern: -0.0, NaN payloads and infinities are never in the one-byte set, so they go in
// full. Each value has one encoding: a reader refuses a one-byte value written in full.
//
//   struct sample { bale::small_float<float> weight; bale::small_float<double> bias; };
//   sample s{1.5f, 0.0};   // 2 bytes on the wire instead of 12

#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "bale/core/error.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class T>
requires std::is_floating_point_v<T>
struct small_float {
  T value{};
  constexpr small_float() = default;
  constexpr small_float(T v) noexcept : value(v) {}
  constexpr operator T() const noexcept { return value; }
  friend constexpr bool operator==(const small_float& a, const small_float& b) noexcept {
    return a.value == b.value;
  }
};

namespace detail {

inline constexpr std::uint8_t small_float_escape = 0xFF;

/// The one-byte code of v, if v is exactly one of the 255 small values.
template <class T>
constexpr std::optional<std::uint8_t> small_float_code(T v) noexcept {
  const T twice =
      v * T{2};  // exact for every v in range; out of range or NaN fails the tests below
  if (!(twice >= T{-127} && twice <= T{127})) return std::nullopt;
  const auto n = static_cast<int>(twice);
  if (static_cast<T>(n) != twice) return std::nullopt;  // not a multiple of 0.5
  if (n == 0 && std::signbit(v)) return std::nullopt;   // -0.0 keeps its sign in full
  return static_cast<std::uint8_t>(n + 127);
}

template <class T>
constexpr T small_float_value(std::uint8_t code) noexcept {
  return static_cast<T>(static_cast<int>(code) - 127) / T{2};
}

}  // namespace detail

template <class T>
struct serializer<small_float<T>> {
  using wire_shape = wire::flag_prefixed;  // one byte, then maybe the raw value

  template <class Archive>
  static void save(Archive& ar, const small_float<T>& f) {
    if constexpr (Archive::self_describing) {
      ar(f.value);  // a text format writes the plain number
    } else if (const auto code = detail::small_float_code(f.value)) {
      ar.write_scalar(*code);
    } else {
      ar.write_scalar(detail::small_float_escape);
      ar.write_scalar(f.value);
    }
  }
  template <class Archive>
  static void load(Archive& ar, small_float<T>& f) {
    if constexpr (Archive::self_describing) {
      ar(f.value);
      return;
    }
    std::uint8_t code = 0;
    ar.read_scalar(code);
    if (code == detail::small_float_escape) {
      ar.read_scalar(f.value);
      // One encoding per value: a value with a one-byte form written in full is refused.
      if (detail::small_float_code(f.value))
        ar.fail(errc::invalid_value, "a small_float written in full has a one-byte form");
    } else
      f.value = detail::small_float_value<T>(code);
  }
};

}  // namespace bale
