// SPDX-License-Identifier: BSL-1.0
#pragma once
// Member names of aggregates, read at compile time from the compiler's spelling of a template
// argument that points at the member (of an object that is declared but never defined or used
// at run time).

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bale/reflect/aggregate.hpp"

namespace bale::detail {

template <class T>
struct member_pointer_holder {
  const T* pointer;
};

template <class T>
struct declared_object_holder {
  T value;
};

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"  // types in anonymous namespaces
#endif
// Declared only: names are taken in constant evaluation, and nothing refers to it at run time.
template <class T>
extern const declared_object_holder<T> declared_object;

// Pointers to every member of the declared object in a flat pack that yields member I by
// deduction (a std::tuple of them costs the compiler a recursive instantiation per member).
template <std::size_t I, class M>
struct indexed_member_pointer {
  const M* pointer;
};
template <class Indices, class... M>
struct member_pointer_pack;
template <std::size_t... I, class... M>
struct member_pointer_pack<std::index_sequence<I...>, M...> : indexed_member_pointer<I, M>... {};

template <std::size_t I, class M>
consteval member_pointer_holder<M> pointer_at(const indexed_member_pointer<I, M>& p) {
  return {p.pointer};
}

// A function, not a variable: a variable would be emitted, pointing at the object never defined.
template <class T>
consteval auto member_pointers_of() {
  return visit_members<member_count<T>>(declared_object<T>.value, [](const auto&... members) {
    return member_pointer_pack<std::make_index_sequence<sizeof...(members)>,
                               std::remove_cvref_t<decltype(members)>...>{{&members}...};
  });
}

template <class T, std::size_t I>
consteval auto typed_member_pointer() {
  return pointer_at<I>(member_pointers_of<T>());
}

template <auto Pointer>
consteval std::string_view spelled_signature() {
  return __PRETTY_FUNCTION__;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

// GCC spells "...{(& declared_object<T>.declared_object_holder<T>::value.ns::T::name)}...",
// clang "...{&declared_object.value.name}...". The member's spelling ends at the first ')' or '}'
// that closes nothing opened after "value." ("{anonymous}" opens and closes its own brace); the
// name is what follows the last '.', ':' or ' ' in it.
consteval std::string_view name_from_signature(std::string_view signature) {
  const std::size_t marker = signature.find("value.");
  const std::string_view rest = signature.substr(marker + 6);
  std::size_t end = 0;
  int depth = 0;
  for (; end < rest.size(); ++end) {
    const char c = rest[end];
    if (c == '{' || c == '(' || c == '<') {
      ++depth;
    } else if (c == '}' || c == ')' || c == '>') {
      if (depth == 0) break;
      --depth;
    }
  }
  const std::string_view spelled = rest.substr(0, end);
  const std::size_t start = spelled.find_last_of(".: ");
  return start == std::string_view::npos ? spelled : spelled.substr(start + 1);
}

template <class T, std::size_t I>
struct member_name_storage {
  static constexpr std::string_view spelled =
      name_from_signature(spelled_signature<typed_member_pointer<T, I>()>());
  static constexpr auto chars = [] {
    std::array<char, spelled.size() + 1> out{};
    for (std::size_t i = 0; i < spelled.size(); ++i) out[i] = spelled[i];
    return out;
  }();
};

template <class T, std::size_t... I>
constexpr std::array<std::string_view, sizeof...(I)> member_names_of(std::index_sequence<I...>) {
  return {std::string_view(member_name_storage<T, I>::chars.data(),
                           member_name_storage<T, I>::chars.size() - 1)...};
}

}  // namespace bale::detail

namespace bale {

/// The names of an aggregate's members, in declaration order: member_names<point> == {"x", "y"}.
template <reflectable_aggregate T>
inline constexpr std::array<std::string_view, member_count<T>> member_names =
    detail::member_names_of<T>(std::make_index_sequence<member_count<T>>{});

}  // namespace bale
