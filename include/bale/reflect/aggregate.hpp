// SPDX-License-Identifier: BSL-1.0
#pragma once
// Aggregate reflection: how many members an aggregate has, and a visitor over them.
//
// Counting works in two steps. First, the number of initializer slots: the largest k for which
// T{any, any, ... (k times)} compiles, where `any` converts to every type. A C-array member takes
// one slot per element through brace elision, every other member takes one. Second, a walk over
// the members: a member that starts at slot c takes w slots, where w is the least width for which
// T{any x c, {}, any x (slots - c - w)} compiles (`{}` initializes the whole member, and too many
// initializers is an error). Both searches are binary, so a `double[10000]` member stays cheap.

#include <cstddef>
#include <type_traits>
#include <utility>

#include "bale/reflect/detail/visit_members.hpp"

namespace bale::detail {

#if defined(__clang__)
#pragma clang diagnostic push
// Declared only, for use in requires-expressions.
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif
template <class T>
struct convertible_to_any {
  // Never converts to T itself, so a one-member T{any} is aggregate initialization, not a copy.
  template <class U>
  requires(!std::is_same_v<std::remove_cvref_t<U>, T>) operator U() const noexcept;
};

template <class T, std::size_t>
using any_for = convertible_to_any<T>;

template <class T, std::size_t... I>
constexpr bool initializable_with(std::index_sequence<I...>) {
  return requires {
    T{any_for<T, I>{}...};
  };
}

template <class T, std::size_t... Before, std::size_t... After>
constexpr bool initializable_with_braces_at(std::index_sequence<Before...>,
                                            std::index_sequence<After...>) {
  return requires {
    T{any_for<T, Before>{}..., {}, any_for<T, After>{}...};
  };
}

// Largest k in [lo, hi] with T{any x k} valid; valid(lo) holds, and valid is monotone downward.
template <class T, std::size_t Lo, std::size_t Hi>
constexpr std::size_t max_slots_between() {
  if constexpr (Lo == Hi) {
    return Lo;
  } else {
    constexpr std::size_t mid = Lo + (Hi - Lo + 1) / 2;
    if constexpr (initializable_with<T>(std::make_index_sequence<mid>{}))
      return max_slots_between<T, mid, Hi>();
    else
      return max_slots_between<T, Lo, mid - 1>();
  }
}

// Finds an upper bound by doubling, then searches below it.
template <class T, std::size_t Known = 0>
constexpr std::size_t initializer_slots() {
  constexpr std::size_t next = Known == 0 ? 1 : Known * 2;
  if constexpr (next > 65536)
    return max_slots_between<T, Known, next>();
  else if constexpr (initializable_with<T>(std::make_index_sequence<next>{}))
    return initializer_slots<T, next>();
  else
    return max_slots_between<T, Known, next - 1>();
}

// Least width w in [lo, hi] of the member starting at slot Start.
template <class T, std::size_t Start, std::size_t Total, std::size_t Lo, std::size_t Hi>
constexpr std::size_t member_width_between() {
  if constexpr (Lo == Hi) {
    return Lo;
  } else {
    constexpr std::size_t mid = Lo + (Hi - Lo) / 2;
    if constexpr (initializable_with_braces_at<T>(std::make_index_sequence<Start>{},
                                                  std::make_index_sequence<Total - Start - mid>{}))
      return member_width_between<T, Start, Total, Lo, mid>();
    else
      return member_width_between<T, Start, Total, mid + 1, Hi>();
  }
}

// Width of the member starting at slot Start: 1 for every member but a C array, so 1 is tried
// before the search.
template <class T, std::size_t Start, std::size_t Total>
constexpr std::size_t member_width() {
  if constexpr (Total - Start == 1 ||
                initializable_with_braces_at<T>(std::make_index_sequence<Start>{},
                                                std::make_index_sequence<Total - Start - 1>{}))
    return 1;
  else
    return member_width_between<T, Start, Total, 2, Total - Start>();
}

template <class T, std::size_t Start, std::size_t Total>
constexpr std::size_t members_from() {
  if constexpr (Start >= Total) {
    return 0;
  } else {
    constexpr std::size_t width = member_width<T, Start, Total>();
    return 1 + members_from<T, Start + width, Total>();
  }
}

}  // namespace bale::detail

namespace bale {

namespace detail {
// Converts to any base class of T and to nothing else: an aggregate that takes one as its first
// initializer, and not a value that converts to nothing (a first member of std::any takes
// anything), has a base class, whose members C++ cannot take apart with the derived class's.
template <class T>
struct any_base_of {
  template <class B>
  requires(std::is_base_of_v<B, T> && !std::is_same_v<B, T>) operator B() const;
};
struct converts_to_nothing {};
}  // namespace detail

/// An aggregate with a base class: not reflected (its members are described by hand).
template <class T>
concept aggregate_with_base = std::is_aggregate_v<T> && std::is_class_v<T> && requires {
  T{detail::any_base_of<T>{}};
} && !requires {
  T{detail::converts_to_nothing{}};
};

/// True for the aggregates bale can reflect on its own: class aggregates that are not unions and
/// have no base class.
template <class T>
concept reflectable_aggregate =
    std::is_aggregate_v<T> && std::is_class_v<T> && !std::is_union_v<T> && !std::is_array_v<T> &&
    !aggregate_with_base<T>;

/// Number of members of an aggregate (a C-array member counts once).
template <reflectable_aggregate T>
inline constexpr std::size_t member_count =
    detail::members_from<T, 0, detail::initializer_slots<T>()>();

/// Calls visitor(members...) with references to the members of an aggregate, in declaration order.
template <class T, class Visitor>
requires reflectable_aggregate<std::remove_cvref_t<T>>
constexpr decltype(auto) visit_members(T&& object, Visitor&& visitor) {
  return detail::visit_members<member_count<std::remove_cvref_t<T>>>(
      std::forward<T>(object), std::forward<Visitor>(visitor));
}

}  // namespace bale
