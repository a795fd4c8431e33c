// SPDX-License-Identifier: BSL-1.0
#pragma once
// The enum and "no value" verbs (core/archive.hpp) for every format that names things (JSON,
// MessagePack), written with the contract's other verbs: an enum that lists its names
// (bale::enum_names) travels as its name, any other as its underlying value; a value that holds
// nothing (std::monostate) is an explicit null, because a text must stand in its place.

#include <cstddef>
#include <string>
#include <type_traits>

#include "bale/core/enum_values.hpp"
#include "bale/core/error.hpp"
#include "bale/reflect/enum_names.hpp"

namespace bale::detail {

template <class Archive, class E>
requires std::is_enum_v<E>
void write_named_enum(Archive& ar, E value) {
  if constexpr (named_enum<E>) {
    const auto name = enum_name_of(value);
    if (!name) ar.fail(errc::invalid_value, unnamed_enum_value_message(value));
    ar.write_text(*name);
  } else {
    ar.write_scalar(static_cast<std::underlying_type_t<E>>(value));
  }
}

template <class Archive, class E>
requires std::is_enum_v<E>
void read_named_enum(Archive& ar, E& value) {
  if constexpr (named_enum<E>) {
    std::string name;
    const std::size_t at = ar.offset();
    ar.read_text(name);
    const auto found = enum_value_named<E>(name);
    if (!found) ar.fail_at(errc::invalid_value, unknown_enum_name_message<E>(name), at);
    value = *found;
  } else {
    std::underlying_type_t<E> raw;
    ar.read_scalar(raw);
    value = enum_from_underlying<E>(ar, raw);
  }
}

template <class Archive>
void write_named_none(Archive& ar) {
  ar.write_optional(false, [] {});
}

template <class Archive>
void read_named_none(Archive& ar) {
  ar.read_optional([&] { ar.fail(errc::invalid_value, "expected null for std::monostate"); });
}

}  // namespace bale::detail
