// SPDX-License-Identifier: BSL-1.0
#pragma once
// The customization points and tags, without the machinery: include this in headers that only
// declare how their types serialize.

#include <cstddef>
#include <string_view>
#include <type_traits>

#include "bale/release.hpp"

// Archive types carry this global-namespace type as a template argument, so that argument-dependent
// lookup also searches the global namespace: a free `serialize(Archive&, T&)` written at global
// scope for a type of another namespace is then found, as it would be in that type's own namespace.
struct bale_global_namespace;

namespace bale {

/// The one customization point: specialize `serializer<T>` (with `requires` if you like) to give a
/// type `save(Archive&, const T&)` and `load(Archive&, T&)`. bale's own adapters for std types are
/// such specializations; the primary template handles user types described by a member or free
/// `serialize`, `save`/`load`, `BALE_REFLECT`, or nothing at all for aggregates.
template <class T>
struct serializer;

/// Befriend this to let bale reach a private `serialize`, `save` or `load`.
struct access;

/// Per-call decoding limits (core/limits.hpp).
struct limits;

/// The binary format: fixed width, little-endian, no padding, no type information.
struct binary;
/// The compact format: varint and zigzag integers, raw floats; the smallest without compression.
struct compact;
/// JSON (RFC 8259): member names, human readable.
struct json;
/// MessagePack: self-describing binary, readable from other languages.
struct msgpack;

/// A value with a name: `ar(bale::field("owner", owner_))`. Formats with member names (JSON) use
/// the name; binary ignores it.
template <class T>
struct named {
  std::string_view name;
  T& value;
};

template <class T>
constexpr named<T> field(std::string_view name, T& value) noexcept {
  return {name, value};
}
/// A computed value to write, as in a free save function (`ar(bale::field("red", c.red()))`): the
/// temporary lives until the end of the `ar(...)` that writes it. Reading needs a variable.
template <class T>
requires(!std::is_reference_v<T>) constexpr named<const T> field(std::string_view name,
                                                                 T&& value) noexcept {
  return {name, value};
}

namespace detail {
template <class T>
inline constexpr bool is_named_value = false;
template <class T>
inline constexpr bool is_named_value<named<T>> = true;
template <class T>
inline constexpr bool is_named_value<const named<T>> = true;

/// A wrapper that reads into a value it refers to (bale::with): deserialize takes a temporary one.
template <class T>
inline constexpr bool refers_to_value = false;
}  // namespace detail

}  // namespace bale
