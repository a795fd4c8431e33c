// SPDX-License-Identifier: BSL-1.0
#pragma once
// Scalars: bool, the character types, every integer width, float, double, enums, std::byte.

#include <cstddef>
#include <string>
#include <type_traits>

#include "bale/core/arithmetic.hpp"
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
  static void save(Archive& ar, const T& value) {
    ar.write_scalar(value);
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    ar.read_scalar(value);
  }
};

/// Enums (scoped or not, std::byte included) travel as their underlying type; in text formats an
/// enum with listed names (bale::enum_names) travels as its name.
template <class T>
requires std::is_enum_v<T>
struct serializer<T> {
  using underlying = std::underlying_type_t<T>;
  using schema_shape = schema::enumeration<T>;
  static constexpr bool wire_compatible = serializer<underlying>::wire_compatible;

  template <class Archive>
  static void save(Archive& ar, const T& value) {
    if constexpr (Archive::self_describing && named_enum<T>) {
      const auto name = detail::enum_name_of(value);
      if (!name) ar.fail(errc::invalid_value, detail::unnamed_enum_value_message(value));
      ar.write_text(*name);
    } else {
      ar.write_scalar(static_cast<underlying>(value));
    }
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    if constexpr (Archive::self_describing && named_enum<T>) {
      std::string name;
      const std::size_t at = ar.offset();
      ar.read_text(name);
      const auto found = detail::enum_value_named<T>(name);
      if (!found) ar.fail_at(errc::invalid_value, detail::unknown_enum_name_message<T>(name), at);
      value = *found;
    } else {
      underlying raw;
      ar.read_scalar(raw);
      value = static_cast<T>(raw);
    }
  }
};

}  // namespace bale
