// SPDX-License-Identifier: BSL-1.0
#pragma once
// BALE_REFLECT(Type, member, ...): describes a type's members from outside the class, with names.
//
//   struct cell { int id; std::vector<point> corners; };
//   BALE_REFLECT(cell, id, corners)       // at namespace scope, in cell's namespace or the global
//   one
//
// The macro defines a constexpr function that bale finds by argument-dependent lookup. Members
// must be accessible (public). A type name with a comma in it needs an alias first.

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>

#include "bale/fwd.hpp"

namespace bale::detail {

template <class T>
struct type_tag {};

/// The members a BALE_REFLECT names: their names and pointers to them.
template <class T, class... MemberPointers>
struct reflected_members {
  std::array<std::string_view, sizeof...(MemberPointers)> names;
  std::tuple<MemberPointers...> pointers;
};

// Splits the stringized argument list "a, b,c" into its names.
template <std::size_t N>
constexpr std::array<std::string_view, N> split_member_names(std::string_view list) {
  std::array<std::string_view, N> names{};
  std::size_t index = 0;
  while (index < N) {
    const std::size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    while (!name.empty() && (name.front() == ' ' || name.front() == '\n')) name.remove_prefix(1);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\n')) name.remove_suffix(1);
    names[index++] = name;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return names;
}

template <class T, class... MemberPointers>
constexpr reflected_members<T, MemberPointers...> make_reflected_members(
    std::string_view list, MemberPointers... pointers) {
  return {split_member_names<sizeof...(MemberPointers)>(list), {pointers...}};
}

}  // namespace bale::detail

// A for-each over macro arguments by repeated rescanning (up to 256 arguments).
#define BALE_DETAIL_PARENS ()
#define BALE_DETAIL_EXPAND(...) \
  BALE_DETAIL_EXPAND3(BALE_DETAIL_EXPAND3(BALE_DETAIL_EXPAND3(BALE_DETAIL_EXPAND3(__VA_ARGS__))))
#define BALE_DETAIL_EXPAND3(...) \
  BALE_DETAIL_EXPAND2(BALE_DETAIL_EXPAND2(BALE_DETAIL_EXPAND2(BALE_DETAIL_EXPAND2(__VA_ARGS__))))
#define BALE_DETAIL_EXPAND2(...) \
  BALE_DETAIL_EXPAND1(BALE_DETAIL_EXPAND1(BALE_DETAIL_EXPAND1(BALE_DETAIL_EXPAND1(__VA_ARGS__))))
#define BALE_DETAIL_EXPAND1(...) __VA_ARGS__
#define BALE_DETAIL_FOR_EACH(macro, fixed, ...) \
  __VA_OPT__(BALE_DETAIL_EXPAND(BALE_DETAIL_FOR_EACH_STEP(macro, fixed, __VA_ARGS__)))
#define BALE_DETAIL_FOR_EACH_STEP(macro, fixed, first, ...) \
  macro(fixed, first)                                       \
      __VA_OPT__(, BALE_DETAIL_FOR_EACH_AGAIN BALE_DETAIL_PARENS(macro, fixed, __VA_ARGS__))
#define BALE_DETAIL_FOR_EACH_AGAIN() BALE_DETAIL_FOR_EACH_STEP
#define BALE_DETAIL_MEMBER_POINTER(Type, member) &Type::member

#define BALE_REFLECT(Type, ...)                                                             \
  [[maybe_unused]] constexpr auto bale_reflect_members(::bale::detail::type_tag<Type>,      \
                                                       ::bale_global_namespace*) noexcept { \
    return ::bale::detail::make_reflected_members<Type>(                                    \
        #__VA_ARGS__, BALE_DETAIL_FOR_EACH(BALE_DETAIL_MEMBER_POINTER, Type, __VA_ARGS__)); \
  }
