// SPDX-License-Identifier: BSL-1.0
#pragma once
// The values an enum can hold, checked as each enum is read. An enum with a fixed underlying
// type (every scoped enum, `enum E : int`) holds every value of that type. One without holds
// only the values of the smallest bit-field that holds its enumerators ([dcl.enum]): -128..127
// for enumerators -1 and 100. Any other value in such an enum is undefined behaviour, so it is
// refused as it is read, and the enumerators come from the names the enum lists
// (bale::enum_names), since C++ gives no other way to see them.

#include <cstdint>
#include <type_traits>

#include "bale/core/error.hpp"
#include "bale/core/error_text.hpp"
#include "bale/reflect/enum_names.hpp"

namespace bale {

/// An enum without a fixed underlying type (`enum E { a, b };`): direct-list-initialization from
/// an integer is valid only for enums that have one.
template <class E>
concept unfixed_enum = std::is_enum_v<E> && !requires {
  E{std::underlying_type_t<E>{}};
};

namespace detail {

/// The values an unfixed enum can hold, as the widest integers of its underlying type's sign.
template <class E>
struct enum_value_range {
  using wide = std::conditional_t<std::is_signed_v<std::underlying_type_t<E>>, std::intmax_t,
                                  std::uintmax_t>;
  wide lowest;
  wide highest;
};

template <named_enum E>
requires unfixed_enum<E>
constexpr enum_value_range<E> listed_enum_value_range() {
  using wide = typename enum_value_range<E>::wide;
  wide low = 0;
  wide high = 0;  // an enum with no enumerators holds as one whose only enumerator is 0
  for (const auto& entry : enum_names<E>) {
    const auto v = static_cast<wide>(entry.value);
    low = v < low ? v : low;
    high = v > high ? v : high;
  }
  // The smallest 2^M - 1 at least max(|low| - 1, |high|); the lowest value is -(that + 1) when
  // an enumerator is negative, else 0.
  std::uintmax_t bits = static_cast<std::uintmax_t>(high);
  bool negative = false;
  if constexpr (std::is_signed_v<wide>) {
    negative = low < 0;
    if (negative) {
      const auto magnitude = static_cast<std::uintmax_t>(-(low + 1));
      bits = magnitude > bits ? magnitude : bits;
    }
  }
  for (int shift = 1; shift < 64; shift *= 2) bits |= bits >> shift;
  if (negative) return {static_cast<wide>(-static_cast<wide>(bits) - 1), static_cast<wide>(bits)};
  return {0, static_cast<wide>(bits)};
}

/// The enum `raw` stands for, or a failure at the archive's position for a value an unfixed
/// enum cannot hold.
template <class E, class Archive>
E enum_from_underlying(Archive& ar, std::underlying_type_t<E> raw) {
  if constexpr (unfixed_enum<E> && named_enum<E>) {
    constexpr enum_value_range<E> range = listed_enum_value_range<E>();
    using wide = typename enum_value_range<E>::wide;
    const auto v = static_cast<wide>(raw);
    bool below = false;
    if constexpr (std::is_signed_v<wide>) below = v < range.lowest;
    if (below || v > range.highest) [[unlikely]]
      ar.fail(errc::invalid_value,
              error_text({"the enum value ", v, " is outside the values its type can hold (",
                          range.lowest, " to ", range.highest,
                          ", from its enumerators; the type has no fixed underlying type)"}));
  }
  return static_cast<E>(raw);
}

}  // namespace detail
}  // namespace bale
