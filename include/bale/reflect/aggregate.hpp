// SPDX-License-Identifier: BSL-1.0
#pragma once
// Aggregate reflection: how many members an aggregate has, and a visitor over them.
//
// Counting works in two steps. First, the number of initializer slots: the largest k for which
// T{any, any, ... (k times)} compiles, where `any` converts to every type. A C-array member takes
// one slot per element through brace elision, every other member takes one. Second, a walk over
// the members: a member that starts at slot c takes w slots, where w is the least width for which
// T{any x c, {}, any x (slots - c - w)} compiles (`{}` initializes the whole member, and too many
// initializers is an error).
//
// Members that `{}` cannot initialize (an explicit or missing default constructor) make both
// searches harder: T{any x k} also fails when such a member lies after slot k, so the k that
// compile form a range [first, slots] rather than [0, slots]. The first is found by a scan, the
// end of the range by doubling; a width is taken only where the probe fails one slot narrower,
// which no trailing member can fake. Where a scan would pass its bound, or nothing compiles at
// all (a reference member), the count is refused at compile time rather than settled low.

#include <algorithm>
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

template <class T, std::size_t K>
inline constexpr bool initializable_with_n = initializable_with<T>(std::make_index_sequence<K>{});

template <class T, std::size_t... Before, std::size_t... After>
constexpr bool initializable_with_braces_at(std::index_sequence<Before...>,
                                            std::index_sequence<After...>) {
  return requires {
    T{any_for<T, Before>{}..., {}, any_for<T, After>{}...};
  };
}

// How far the scans for members `{}` cannot initialize look, in slots: their cost grows with the
// square of the distance.
inline constexpr std::size_t slot_scan_limit = 256;
inline constexpr std::size_t no_slots = static_cast<std::size_t>(-1);

// Largest k in [lo, hi] with T{any x k} valid; valid(lo) holds, and valid is monotone downward.
template <class T, std::size_t Lo, std::size_t Hi>
constexpr std::size_t max_slots_between() {
  if constexpr (Lo == Hi) {
    return Lo;
  } else {
    constexpr std::size_t mid = Lo + (Hi - Lo + 1) / 2;
    if constexpr (initializable_with_n<T, mid>)
      return max_slots_between<T, mid, Hi>();
    else
      return max_slots_between<T, Lo, mid - 1>();
  }
}

// Finds an upper bound by doubling from a valid Known, then searches below it.
template <class T, std::size_t Known, std::size_t Step = 1>
constexpr std::size_t slots_from() {
  constexpr std::size_t next = Known + Step;
  if constexpr (next > 65536)
    return max_slots_between<T, Known, next>();
  else if constexpr (initializable_with_n<T, next>)
    return slots_from<T, next, Step * 2>();
  else
    return max_slots_between<T, Known, next - 1>();
}

// Least k in [K, slot_scan_limit] with T{any x k} valid, or no_slots.
template <class T, std::size_t K = 0>
constexpr std::size_t first_valid_slots() {
  if constexpr (K > slot_scan_limit)
    return no_slots;
  else if constexpr (initializable_with_n<T, K>)
    return K;
  else
    return first_valid_slots<T, K + 1>();
}

template <class T>
constexpr std::size_t initializer_slots() {
  constexpr std::size_t first = first_valid_slots<T>();
  if constexpr (first == no_slots)
    return no_slots;
  else
    return slots_from<T, first>();
}

template <class T, std::size_t Start, std::size_t Total, std::size_t Width>
inline constexpr bool braces_fit = initializable_with_braces_at<T>(
    std::make_index_sequence<Start>{}, std::make_index_sequence<Total - Start - Width>{});

// A width the probe accepts and rejects one slot narrower: the member's own width, since a
// narrower guess leaves too many initializers whatever follows.
template <class T, std::size_t Start, std::size_t Total, std::size_t Width>
inline constexpr bool exact_width =
    braces_fit<T, Start, Total, Width> && !braces_fit<T, Start, Total, Width - 1>;

// Least width w in [lo, hi] of the member starting at slot Start, when every later member takes
// `{}` (the probe is then monotone in w).
template <class T, std::size_t Start, std::size_t Total, std::size_t Lo, std::size_t Hi>
constexpr std::size_t member_width_between() {
  if constexpr (Lo == Hi) {
    return Lo;
  } else {
    constexpr std::size_t mid = Lo + (Hi - Lo) / 2;
    if constexpr (braces_fit<T, Start, Total, mid>)
      return member_width_between<T, Start, Total, Lo, mid>();
    else
      return member_width_between<T, Start, Total, mid + 1, Hi>();
  }
}

// The least W in [W, Hi] that Fits::at<W> accepts, by a scan, or 0.
template <class Fits, std::size_t W, std::size_t Hi>
constexpr std::size_t first_width() {
  if constexpr (W > Hi)
    return 0;
  else if constexpr (Fits::template at<W>)
    return W;
  else
    return first_width<Fits, W + 1, Hi>();
}
template <class T, std::size_t Start, std::size_t Total>
struct exact_width_of {
  template <std::size_t W>
  static constexpr bool at = exact_width<T, Start, Total, W>;
};

template <class T, std::size_t... Before, std::size_t... Inside, std::size_t... After>
constexpr bool initializable_with_list_at(std::index_sequence<Before...>,
                                          std::index_sequence<Inside...>,
                                          std::index_sequence<After...>) {
  return requires {
    T{any_for<T, Before>{}..., {any_for<T, Inside>{}...}, any_for<T, After>{}...};
  };
}
template <class T, std::size_t Start, std::size_t Width, std::size_t After>
inline constexpr bool list_fits = initializable_with_list_at<T>(std::make_index_sequence<Start>{},
                                                                std::make_index_sequence<Width>{},
                                                                std::make_index_sequence<After>{});

// An array of Width elements that `{}` cannot initialize takes `{any x Width}` whole and no more:
// with one initializer more after it, too many. A class taking `{any x Width}` through a
// constructor leaves a slot for that one.
template <class T, std::size_t Start, std::size_t Total, std::size_t Width>
inline constexpr bool array_of_width = list_fits<T, Start, Width, Total - Start - Width> &&
                                       !list_fits<T, Start, Width, Total - Start - Width + 1>;

inline constexpr std::size_t array_scan_limit = 64;
template <class T, std::size_t Start, std::size_t Total>
struct array_width_of {
  template <std::size_t W>
  static constexpr bool at = array_of_width<T, Start, Total, W>;
};

// Width of the member starting at slot Start: 1 for every member but a C array, so 1 is tried
// before the search. A member `{}` cannot initialize fails every probe of `{}`: it takes one slot
// unless it is an array of such elements, which takes its braces whole.
template <class T, std::size_t Start, std::size_t Total>
constexpr std::size_t member_width() {
  if constexpr (Total - Start == 1 || braces_fit<T, Start, Total, 1>) {
    return 1;
  } else {
    constexpr std::size_t searched = member_width_between<T, Start, Total, 2, Total - Start>();
    if constexpr (exact_width<T, Start, Total, searched>) {
      return searched;
    } else {
      constexpr std::size_t scanned = first_width<exact_width_of<T, Start, Total>, 2,
                                                  std::min(Total - Start, slot_scan_limit)>();
      if constexpr (scanned != 0) {
        return scanned;
      } else {
        constexpr std::size_t array = first_width<array_width_of<T, Start, Total>, 2,
                                                  std::min(Total - Start, array_scan_limit)>();
        return array == 0 ? 1 : array;
      }
    }
  }
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

namespace detail {
template <class T>
consteval std::size_t counted_members() {
  constexpr std::size_t slots = initializer_slots<T>();
  static_assert(slots != no_slots,
                "bale: cannot count the members of this aggregate (a reference member, or "
                "members without a usable default constructor after a long C array): describe "
                "it with BALE_REFLECT or a serialize function");
  if constexpr (slots == no_slots) {
    return 0;
  } else {
    constexpr std::size_t count = members_from<T, 0, slots>();
    // Ties the count to the type where a structured binding cannot: a binding of a nonzero
    // count checks its arity itself.
    static_assert(count != 0 || std::is_empty_v<T>,
                  "bale: this aggregate has members bale counted as none: describe it with "
                  "BALE_REFLECT or a serialize function");
    return count;
  }
}
}  // namespace detail

/// Number of members of an aggregate (a C-array member counts once).
template <reflectable_aggregate T>
inline constexpr std::size_t member_count = detail::counted_members<T>();

/// Calls visitor(members...) with references to the members of an aggregate, in declaration order.
template <class T, class Visitor>
requires reflectable_aggregate<std::remove_cvref_t<T>>
constexpr decltype(auto) visit_members(T&& object, Visitor&& visitor) {
  return detail::visit_members<member_count<std::remove_cvref_t<T>>>(
      std::forward<T>(object), std::forward<Visitor>(visitor));
}

}  // namespace bale
