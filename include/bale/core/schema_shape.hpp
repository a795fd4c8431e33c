// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a serializer tells bale::schema_of about the structure it writes, as wire_shape tells
// formats about sizes:
//   using schema_shape = bale::schema::sequence<E> | map<K, V> | optional<T> | record<T> | ...;
// A serializer that declares none is an opaque type, known by its name only
// (bale/schema/schema_of.hpp).

#include <array>
#include <cstddef>
#include <string_view>
#include <variant>

namespace bale {

/// A member's earlier name: data written before the rename reads into it (schema resolution).
struct former_name {
  std::string_view member;
  std::string_view was;
};

/// The renamed members of a reflected type (an aggregate or BALE_REFLECT), declared where the
/// type is:
///   template <> inline constexpr auto bale::former_names<hero> =
///       std::array{bale::former_name{"power", "strength"}};
template <class T>
inline constexpr auto former_names = std::array<former_name, 0>{};

/// The members of a reflected type that data must hold: reading data whose writer lacked one
/// (an older layout, a JSON object without it) is an error rather than leaving the default:
///   template <> inline constexpr auto bale::required_members<account> =
///       std::array<std::string_view, 1>{"id"};
template <class T>
inline constexpr auto required_members = std::array<std::string_view, 0>{};

/// A name for a type that stays when its C++ name changes, declared where the type is:
///   template <> inline constexpr std::string_view bale::stable_name<circle> = "circle";
/// A variant whose alternatives all have one matches them by it when data of another layout is
/// read, so alternatives may be added anywhere, reordered or removed. std::monostate is "none".
template <class T>
inline constexpr std::string_view stable_name{};
template <>
inline constexpr std::string_view stable_name<std::monostate> = "none";

}  // namespace bale

namespace bale::schema {

template <class Arithmetic>
struct scalar {};  // bool, characters, integers, floats: by kind and width
template <class Enum>
struct enumeration {};  // its underlying integer, and its names where listed
template <class Char>
struct text {};
template <std::size_t Count>
struct bits {};  // std::bitset
template <class Element>
struct sequence {};
template <class Element, std::size_t Count>
struct fixed {};  // a count both sides know
template <class Key>
struct set {};
template <class Key, class Value>
struct map {};
template <class... Elements>
struct tuple {};
template <class T>
struct optional {};
struct none {};  // std::monostate
template <class... Alternatives>
struct variant {};
template <class Reflected, bool OmitsDefaults = false>
struct record {};  // named members, from BALE_REFLECT or an aggregate
template <class Rep, class Period>
struct duration {};  // a count of Period-long ticks
template <class Duration>
struct time_point {};

enum class owner { unique, shared, weak, observer };
template <owner Owner, class Pointee>
struct pointer {};

/// The same structure as T's (a view, a wrapper).
template <class T>
struct same_as {};

}  // namespace bale::schema
