// SPDX-License-Identifier: BSL-1.0
#pragma once
// Scalars: bool, the character types, every integer width, float, double, enums, std::byte.

#include <cstddef>
#include <type_traits>

#include "bale/core/arithmetic.hpp"
#include "bale/core/enum_values.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/reflect/enum_names.hpp"

namespace bale {

template <detail::wire_arithmetic T>
struct serializer<T> {
  using schema_shape = schema::scalar<T>;
  // bool needs a check on read (0 or 1); wchar_t is memcpy'd only where it has the wire's 4 bytes.
  static constexpr bool wire_compatible =
      !std::is_same_v<T, bool> && (!std::is_same_v<T, wchar_t> || sizeof(wchar_t) == 4);

  template <class Archive>
  [[gnu::always_inline]] static void save(Archive& ar, const T& value) {
    ar.write_scalar(value);
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    ar.read_scalar(value);
  }
};

/// Enums (scoped or not, std::byte included): the archive's enum verb writes the underlying value,
/// or, in formats that name things, the name an enum lists (bale::enum_names).
template <class T>
requires std::is_enum_v<T>
struct serializer<T> {
  static_assert(!unfixed_enum<T> || named_enum<T>,
                "bale: an enum without a fixed underlying type holds only the values of its "
                "enumerators' bits, which bale cannot see: give it one (enum E : int { ... }) or "
                "list its names with BALE_ENUM_NAMES");
  using underlying = std::underlying_type_t<T>;
  using schema_shape = schema::enumeration<T>;
  // An unfixed enum's bytes are not its values unchecked: it is read value by value.
  static constexpr bool wire_compatible =
      !unfixed_enum<T> && serializer<underlying>::wire_compatible;

  template <class Archive>
  [[gnu::always_inline]] static void save(Archive& ar, const T& value) {
    ar.write_enum(value);
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    ar.read_enum(value);
  }
};

}  // namespace bale
