// SPDX-License-Identifier: BSL-1.0
#pragma once
// Names for the values of an enum, listed once by the user. Text formats (JSON) write and read
// an enum with listed names as its name; the byte formats keep the underlying integer.
//
//   enum class color { red, green, blue };
//   BALE_ENUM_NAMES(color, red, green, blue)          // next to it: names as spelled
//
//   template <>                                        // or any names, listed by hand
//   inline constexpr auto bale::enum_names<color> = std::array{
//       bale::enum_name<color>{color::red, "light-red"}, bale::enum_name<color>{color::blue,
//       "sky"}};
//
// The list is a closed set: writing a value that has no name, or reading a name that is not
// listed, is errc::invalid_value. Names and values must each be unique (checked at compile time).

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "bale/core/error_text.hpp"
#include "bale/reflect/macro.hpp"

namespace bale {

/// One listed value of E and its name.
template <class E>
requires std::is_enum_v<E>
struct enum_name {
  E value;
  std::string_view name;
};

namespace detail {
struct enum_names_unlisted {};

// BALE_ENUM_NAMES defines bale_enum_names(type_tag<E>, bale_global_namespace*) where it is used:
// in the enum's namespace (found by argument-dependent lookup through E) or at global scope
// (found through the bale_global_namespace parameter).
template <class E>
concept enum_names_by_macro = requires(bale_global_namespace* anywhere) {
  bale_enum_names(type_tag<E>{}, anywhere);
};
template <class E>
constexpr auto listed_enum_names() {
  if constexpr (enum_names_by_macro<E>)
    return bale_enum_names(type_tag<E>{}, static_cast<bale_global_namespace*>(nullptr));
  else
    return enum_names_unlisted{};
}
}  // namespace detail

/// E's names: BALE_ENUM_NAMES(E, ...) next to the enum lists them; or specialize this as a
/// std::array of enum_name<E>.
template <class E>
inline constexpr auto enum_names = detail::listed_enum_names<E>();

/// An enum whose values have listed names.
template <class E>
concept named_enum = std::is_enum_v<E> &&
    !std::is_same_v<std::remove_cv_t<decltype(enum_names<E>)>, detail::enum_names_unlisted>;

namespace detail {

template <class E>
constexpr bool enum_names_unique() {
  const auto& list = enum_names<E>;
  for (std::size_t i = 0; i < list.size(); ++i)
    for (std::size_t j = i + 1; j < list.size(); ++j)
      if (list[i].value == list[j].value || list[i].name == list[j].name) return false;
  return true;
}

/// E's listed names, checked once where they are used. Lists are short: a linear search is as
/// fast as a table for them.
template <named_enum E>
constexpr const auto& checked_enum_names() {
  static_assert(enum_names_unique<E>(),
                "bale: enum_names lists a value or a name twice; each must be unique");
  return enum_names<E>;
}

template <named_enum E>
constexpr std::optional<std::string_view> enum_name_of(E value) noexcept {
  for (const auto& entry : checked_enum_names<E>())
    if (entry.value == value) return entry.name;
  return std::nullopt;
}

template <named_enum E>
constexpr std::optional<E> enum_value_named(std::string_view name) noexcept {
  for (const auto& entry : checked_enum_names<E>())
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

/// What a reader says when a name is not listed: the name and the choices.
template <named_enum E>
std::string unknown_enum_name_message(std::string_view name) {
  std::string message = "\"" + std::string(name) + "\" is not a listed name (expected one of";
  for (const auto& entry : checked_enum_names<E>())
    message += " \"" + std::string(entry.name) + "\"";
  return message + ")";
}
template <named_enum E>
std::string unnamed_enum_value_message(E value) {
  return detail::error_text(
      {"enum value ", +static_cast<std::underlying_type_t<E>>(value), " has no listed name"});
}

}  // namespace detail
}  // namespace bale

#define BALE_DETAIL_ENUM_NAME(Type, enumerator) \
  ::bale::enum_name<Type> {                     \
    Type::enumerator, #enumerator               \
  }

/// Lists the names of an enum's values as they are spelled, next to the enum (in its namespace)
/// or at global scope.
#define BALE_ENUM_NAMES(Type, ...)                                                       \
  [[maybe_unused]] constexpr auto bale_enum_names(::bale::detail::type_tag<Type>,        \
                                                  ::bale_global_namespace*) noexcept {   \
    return ::std::array{BALE_DETAIL_FOR_EACH(BALE_DETAIL_ENUM_NAME, Type, __VA_ARGS__)}; \
  }
