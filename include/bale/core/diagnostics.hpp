// SPDX-License-Identifier: BSL-1.0
#pragma once
// Compile-time explanations for a type bale cannot serialize. Each common mistake gets its own
// message, saying what to write; the compiler names the type (and, for a member of a reflected
// type, the member) in the instantiation line just above it ("with T = account"). The archives
// call explain_not_serializable<T>() in place of serializing, so that this is the first error and
// nothing follows from it.

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bale/core/serializer.hpp"

namespace bale::detail::diagnostics {

// A member named serialize, save or load, whatever its access: a class derived from T and from
// one with public members of those names sees two candidates when T has one, so naming the
// member fails. Access plays no part in name lookup.
struct member_names_probe {
  int serialize, save, load;
};
template <class T>
struct derived_probe : T, member_names_probe {};

template <class T>
concept probeable = std::is_class_v<T> && !std::is_final_v<T>;
template <class T>
concept has_serialize_member = probeable<T> && !requires {
  &derived_probe<T>::serialize;
};
template <class T>
concept has_save_member = probeable<T> && !requires {
  &derived_probe<T>::save;
};
template <class T>
concept has_load_member = probeable<T> && !requires {
  &derived_probe<T>::load;
};

template <class T>
concept reachable_load = requires(probe_archive<true>& ar, T& value) {
  access::load(ar, value);
};

template <class T>
inline constexpr bool always_false = false;

template <class T>
constexpr std::string_view signature_of() {
  return __PRETTY_FUNCTION__;
}
/// A std type whose serializer is in a bale/types/ header that bale/bale.hpp leaves out. The name
/// follows "T = std::" (GCC: "[with T = std::", Clang: "[T = std::"), after libc++'s "__1::".
template <class T>
constexpr bool has_own_types_header() {
  std::string_view name = signature_of<std::remove_cv_t<T>>();
  const std::size_t at = name.find("T = std::");
  if (at == std::string_view::npos) return false;
  name.remove_prefix(at + 9);
  if (name.starts_with("__1::")) name.remove_prefix(5);
  for (const std::string_view own :
       {"unordered_map<", "unordered_multimap<", "unordered_set<", "unordered_multiset<", "deque<",
        "list<", "forward_list<", "bitset<", "complex<", "valarray<", "chrono::", "filesystem::"})
    if (name.starts_with(own)) return true;
  return false;
}

template <class T>
constexpr void standard_type_without_its_header() {
  static_assert(always_false<T>,
                "bale: a type of the standard library is serialized by its bale/types/ header, "
                "named after the standard one (bale/types/unordered_map.hpp for "
                "std::unordered_map, bale/types/chrono.hpp for std::chrono); bale/all.hpp "
                "includes them all");
}

/// A member's name as a template argument, so that the compiler prints it.
template <std::size_t N>
struct member_name {
  char text[N + 1]{};
  constexpr explicit member_name(std::string_view name) {
    for (std::size_t i = 0; i < N; ++i) text[i] = name[i];
  }
};

template <class Type, member_name Member, class MemberType>
constexpr void reflected_member_is_not_serializable() {
  if constexpr (std::is_pointer_v<MemberType>) {
    static_assert(always_false<MemberType>,
                  "bale: this member is a raw pointer (Type, Member and MemberType are named "
                  "above), which does not say who owns what it points to: hold the value itself, "
                  "a std::unique_ptr or a std::shared_ptr; or say it with bale::owning_ptr<T> (a "
                  "raw pointer that owns) or bale::observer<T> (one into an object owned "
                  "elsewhere in the message)");
  } else if constexpr (has_own_types_header<MemberType>()) {
    standard_type_without_its_header<MemberType>();
  } else {
    static_assert(always_false<MemberType>,
                  "bale: this member of a reflected type cannot be serialized (Type, Member and "
                  "MemberType are named above). Hold a serializable type instead, describe the "
                  "type by hand with serialize(ar) listing the other members, or specialize "
                  "bale::serializer<MemberType>");
  }
}

}  // namespace bale::detail::diagnostics

namespace bale::detail {

template <class T>
constexpr void explain_not_serializable() {
  using namespace diagnostics;
  if constexpr (std::is_pointer_v<T>) {
    static_assert(always_false<T>,
                  "bale: a raw pointer is not serialized, as it does not say who owns what it "
                  "points to: hold the value itself, a std::unique_ptr or a std::shared_ptr; or "
                  "say it with bale::owning_ptr<T> (a raw pointer that owns) or "
                  "bale::observer<T> (one into an object owned elsewhere in the message)");
  } else if constexpr (has_own_types_header<T>()) {
    standard_type_without_its_header<T>();
  } else if constexpr (has_save_member<T> && !has_load_member<T>) {
    static_assert(always_false<T>,
                  "bale: this type has save() but no load(): add "
                  "'template <class Archive> void load(Archive& ar)' beside it, or write one "
                  "'template <class Archive> void serialize(Archive& ar)' for both");
  } else if constexpr (has_load_member<T> && !has_save_member<T>) {
    static_assert(always_false<T>,
                  "bale: this type has load() but no save(): add "
                  "'template <class Archive> void save(Archive& ar) const' beside it, or write "
                  "one 'template <class Archive> void serialize(Archive& ar)' for both");
  } else if constexpr (has_save_member<T> && reachable_load<T>) {
    static_assert(always_false<T>,
                  "bale: save() must be const: "
                  "'template <class Archive> void save(Archive& ar) const'");
  } else if constexpr (has_save_member<T> || has_serialize_member<T>) {
    static_assert(always_false<T>,
                  "bale: this type's serialize/save/load is private and bale cannot call it: add "
                  "'friend struct bale::access;' inside the class");
  } else if constexpr (aggregate_with_base<T>) {
    static_assert(always_false<T>,
                  "bale: this aggregate has a base class, whose members C++ cannot take apart "
                  "with its own: list the base's members and its own with BALE_REFLECT(Type, "
                  "members...), or write 'template <class Archive> void serialize(Archive& ar) "
                  "{ ar(base_member, own_member); }'");
  } else if constexpr (std::is_class_v<T> && !std::is_aggregate_v<T>) {
    static_assert(always_false<T>,
                  "bale: this class is not an aggregate (it has private members or "
                  "constructors) and describes no members: add 'template <class Archive> void "
                  "serialize(Archive& ar) { ar(a_, b_); }' with 'friend struct bale::access;', "
                  "or BALE_REFLECT(Type, members...) for public members");
  } else {
    static_assert(always_false<T>,
                  "bale: this type cannot be serialized: include the bale/types/ header for a "
                  "std type, describe your type (a member serialize(ar), save(ar) const and "
                  "load(ar), a free serialize(ar, value), BALE_REFLECT), or specialize "
                  "bale::serializer<T>");
  }
}

template <class Members>
struct product_members;
template <class... Members>
struct product_members<wire::product<Members...>> {
  static constexpr std::size_t count = sizeof...(Members);
  static constexpr bool serializable = (bale::serializable<Members> && ...);
};

template <class Members>
constexpr bool all_serializable() {
  return product_members<Members>::serializable;
}

template <class T, class Names, class Member, std::size_t I>
constexpr void explain_member() {
  if constexpr (!serializable<Member>) {
    constexpr std::string_view name = Names::value[I];
    diagnostics::reflected_member_is_not_serializable<
        T, diagnostics::member_name<name.size()>(name), Member>();
  }
}

template <class T, class Names, class... Members, std::size_t... I>
constexpr void explain_members(wire::product<Members...>*, std::index_sequence<I...>) {
  (explain_member<T, Names, Members, I>(), ...);
}

// Names each member of a reflected type that cannot be serialized.
template <class T, class Names, class Members>
constexpr void explain_reflected_members() {
  explain_members<T, Names>(static_cast<Members*>(nullptr),
                            std::make_index_sequence<product_members<Members>::count>{});
}

}  // namespace bale::detail
