// SPDX-License-Identifier: BSL-1.0
#pragma once
// The primary serializer<T>: user types described by a member serialize, split save/load, a free
// function, BALE_REFLECT, or nothing at all (aggregates). Standard types are specializations in
// bale/types/.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "bale/core/error.hpp"
#include "bale/core/schema_shape.hpp"
#include "bale/core/version.hpp"
#include "bale/core/wire.hpp"
#include "bale/fwd.hpp"
#include "bale/reflect/aggregate.hpp"
#include "bale/reflect/macro.hpp"
#include "bale/reflect/names.hpp"

namespace bale {

namespace detail {
/// Whether a pointer to member names a member that class T declares itself.
template <class MemberPointer, class T>
inline constexpr bool member_of = false;
template <class F, class C, class T>
inline constexpr bool member_of<F C::*, T> = std::is_same_v<C, T>;
}  // namespace detail

struct access {
  // Whether T declares serialize (or save) itself rather than inheriting it from a base: a
  // derived class that describes itself with save/load must not get its base's serialize.
  template <class Archive, class T>
  static constexpr bool declares_serialize() {
    if constexpr (requires { &T::template serialize<Archive>; })
      return detail::member_of<decltype(&T::template serialize<Archive>), T>;
    else
      return false;
  }
  template <class Archive, class T>
  static constexpr bool declares_save() {
    if constexpr (requires { &T::template save<Archive>; })
      return detail::member_of<decltype(&T::template save<Archive>), T>;
    else
      return false;
  }

  template <class Archive, class T>
  static auto serialize(Archive& ar, T& value) -> decltype(value.serialize(ar)) {
    return value.serialize(ar);
  }
  template <class Archive, class T>
  static auto save(Archive& ar, const T& value) -> decltype(value.save(ar)) {
    return value.save(ar);
  }
  template <class Archive, class T>
  static auto load(Archive& ar, T& value) -> decltype(value.load(ar)) {
    return value.load(ar);
  }
};

namespace detail {

// Stands in for an archive when asking "does T describe itself?" without a real format.
template <bool Loading, class Anchor = bale_global_namespace>
struct probe_archive {
  static constexpr bool is_loading = Loading;
  static constexpr bool is_saving = !Loading;
  template <class... Ts>
  void operator()(Ts&&...);
};

namespace lookup {
// Poison pills: stop ordinary lookup here, leaving only argument-dependent lookup, so that bale's
// own entry points never compete with a user's free functions.
void serialize() = delete;
void save() = delete;
void load() = delete;
void bale_reflect_members() = delete;

template <class Archive, class T>
concept free_serialize = requires(Archive& ar, T& value) {
  serialize(ar, value);
};
template <class Archive, class T>
concept free_save = requires(Archive& ar, const T& value) {
  save(ar, value);
};
template <class Archive, class T>
concept free_load = requires(Archive& ar, T& value) {
  load(ar, value);
};
template <class T>
concept macro_reflected = requires {
  bale_reflect_members(type_tag<T>{}, static_cast<bale_global_namespace*>(nullptr));
};

template <class Archive, class T>
void call_serialize(Archive& ar, T& value) {
  serialize(ar, value);
}
template <class Archive, class T>
void call_save(Archive& ar, const T& value) {
  save(ar, value);
}
template <class Archive, class T>
void call_load(Archive& ar, T& value) {
  load(ar, value);
}
template <class T>
constexpr auto reflected_members_of() {
  return bale_reflect_members(type_tag<T>{}, static_cast<bale_global_namespace*>(nullptr));
}
}  // namespace lookup

template <class Archive, class T>
concept member_serialize = requires(Archive& ar, T& value) {
  access::serialize(ar, value);
};
template <class Archive, class T>
concept member_save_load = requires(Archive& ar, T& value, const T& cvalue) {
  access::save(ar, cvalue);
  access::load(ar, value);
};

// A save or a load that takes an archive without the other: a mistake, which must not pass
// unnoticed because the type is an aggregate whose members could be reflected instead.
template <class T>
concept half_described = requires(probe_archive<false>& ar, const T& value) {
  access::save(ar, value);
}
!= requires(probe_archive<true>& ar, T& value) {
  access::load(ar, value);
};

/// How a user type is described, in order of preference.
enum class description {
  none,
  member_serialize,
  member_save_load,
  free_serialize,
  free_save_load,
  reflect_macro,
  aggregate,
};

template <class T, class Saving, class Loading>
constexpr bool prefers_save_load() {
  if constexpr (member_serialize<Saving, T> && member_save_load<Saving, T> &&
                member_save_load<Loading, T>)
    return !access::declares_serialize<Saving, T>() && access::declares_save<Saving, T>();
  else
    return false;
}

template <class T>
constexpr description description_of() {
  using saving = probe_archive<false>;
  using loading = probe_archive<true>;
  // A class with both (one inherited) is described by the one it declares itself.
  constexpr bool prefer_save_load = prefers_save_load<T, saving, loading>();
  if constexpr (member_serialize<saving, T> && !prefer_save_load)
    return description::member_serialize;
  else if constexpr (member_save_load<saving, T> && member_save_load<loading, T>)
    return description::member_save_load;
  else if constexpr (lookup::free_serialize<saving, T>)
    return description::free_serialize;
  else if constexpr (lookup::free_save<saving, T> && lookup::free_load<loading, T>)
    return description::free_save_load;
  else if constexpr (half_described<T>)
    return description::none;
  else if constexpr (lookup::macro_reflected<T>)
    return description::reflect_macro;
  else if constexpr (reflectable_aggregate<T>)
    return description::aggregate;
  else
    return description::none;
}

template <class T>
struct member_type_of_pointer;
template <class C, class M>
struct member_type_of_pointer<M C::*> {
  using type = M;
};

struct member_type_collector {
  template <class... Members>
  constexpr wire::product<std::remove_cvref_t<Members>...> operator()(Members&...) const {
    return {};
  }
};

template <class T>
using aggregate_members =
    decltype(bale::visit_members(std::declval<T&>(), member_type_collector{}));

template <class T>
struct macro_members {
  static constexpr auto described = lookup::reflected_members_of<T>();
  template <std::size_t... I>
  static auto shape(std::index_sequence<I...>) -> wire::product<typename member_type_of_pointer<
      std::tuple_element_t<I, decltype(described.pointers)>>::type...>;
  using wire_shape =
      decltype(shape(std::make_index_sequence<std::tuple_size_v<decltype(described.pointers)>>{}));
};

// Member names as a type, so that formats that never use them do not pay to compute them.
template <class T>
struct aggregate_names {
  static constexpr const auto& value = member_names<T>;
};
template <class T>
struct macro_names {
  static constexpr auto value = macro_members<T>::described.names;
};

// The type whose member names Names lists (void for names that belong to no reflected type).
template <class Names>
struct names_owner {
  using type = void;
};
template <class T>
struct names_owner<aggregate_names<T>> {
  using type = T;
};
template <class T>
struct names_owner<macro_names<T>> {
  using type = T;
};

/// The member that a name read from the wire names as its former name (bale::former_names), or
/// the member count: the name readers of named formats try when no member has the name itself.
template <class Names>
constexpr std::size_t member_by_former_name(std::string_view key) {
  constexpr std::size_t count = std::size(Names::value);
  using owner = typename names_owner<Names>::type;
  if constexpr (!std::is_void_v<owner>) {
    for (const former_name& rename : former_names<owner>)
      if (rename.was == key)
        for (std::size_t k = 0; k < count; ++k)
          if (Names::value[k] == rename.member) return k;
  }
  return count;
}

/// Whether member k of the type whose names Names lists is one of its bale::required_members.
template <class Names>
constexpr bool member_required(std::size_t k) {
  using owner = typename names_owner<Names>::type;
  if constexpr (!std::is_void_v<owner>) {
    for (const std::string_view name : required_members<owner>)
      if (name == Names::value[k]) return true;
  }
  return false;
}

/// Whether every member that T's required_members and former_names name is one of its members
/// (the names are computed only for types that declare either).
template <class T, class Names>
constexpr bool listed_members_exist() {
  if constexpr (required_members<T>.size() == 0 && former_names<T>.size() == 0) {
    return true;
  } else {
    const auto exists = [](std::string_view member) {
      for (const std::string_view name : Names::value)
        if (name == member) return true;
      return false;
    };
    for (const std::string_view member : required_members<T>)
      if (!exists(member)) return false;
    for (const former_name& rename : former_names<T>)
      if (!exists(rename.member)) return false;
    return true;
  }
}

template <class Product>
struct all_wire_compatible;
template <class... Ms>
struct all_wire_compatible<wire::product<Ms...>> {
  static constexpr bool value = (true && ... && wire_compatible<Ms>);
  static constexpr std::size_t size_sum = (std::size_t{0} + ... + sizeof(Ms));
};

template <class T>
constexpr bool aggregate_wire_compatible() {
  using members = all_wire_compatible<aggregate_members<T>>;
  // Equal sizes mean no padding; aggregate members are laid out in declaration order.
  return std::is_trivially_copyable_v<T> && members::value && members::size_sum == sizeof(T);
}

// core/diagnostics.hpp: the compile-time explanations for a type that cannot be serialized.
template <class T>
constexpr void explain_not_serializable();
template <class Members>
constexpr bool all_serializable();
template <class T, class Names, class Members>
constexpr void explain_reflected_members();

// A type with no description. Its save and load do nothing: the archives explain the mistake
// instead of calling them (require_serializable), and nothing else fails after that explanation.
template <class T, description Kind = description_of<T>()>
struct user_serializer {
  using unsupported = void;
  template <class Archive>
  static void save(Archive&, const T&) {}
  template <class Archive>
  static void load(Archive&, T&) {}
};

template <class T>
struct user_serializer<T, description::member_serialize> {
  template <class Archive>
  static void save(Archive& ar, const T& value) {
    save_described<T>(ar, [&] { access::serialize(ar, const_cast<T&>(value)); });
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    load_described<T>(ar, [&] { access::serialize(ar, value); });
  }
};

template <class T>
struct user_serializer<T, description::member_save_load> {
  template <class Archive>
  static void save(Archive& ar, const T& value) {
    save_described<T>(ar, [&] { access::save(ar, value); });
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    load_described<T>(ar, [&] { access::load(ar, value); });
  }
};

template <class T>
struct user_serializer<T, description::free_serialize> {
  template <class Archive>
  static void save(Archive& ar, const T& value) {
    save_described<T>(ar, [&] { lookup::call_serialize(ar, const_cast<T&>(value)); });
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    load_described<T>(ar, [&] { lookup::call_serialize(ar, value); });
  }
};

template <class T>
struct user_serializer<T, description::free_save_load> {
  template <class Archive>
  static void save(Archive& ar, const T& value) {
    save_described<T>(ar, [&] { lookup::call_save(ar, value); });
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    load_described<T>(ar, [&] { lookup::call_load(ar, value); });
  }
};

template <class T>
struct user_serializer<T, description::reflect_macro> {
  static_assert(listed_members_exist<T, macro_names<T>>(),
                "bale: bale::required_members or bale::former_names names a member the type does "
                "not have");
  static_assert(version<T> == 0,
                "bale: bale::version is for types described by hand (serialize, save/load); a "
                "reflected type evolves by its schema, member by member (docs/schema.md)");
  using wire_shape = typename macro_members<T>::wire_shape;
  using schema_shape = schema::record<T>;

  template <class Archive>
  [[gnu::always_inline]] static void save(Archive& ar, const T& value) {
    if constexpr (!all_serializable<wire_shape>())
      explain_reflected_members<T, macro_names<T>, wire_shape>();
    else
      std::apply(
          [&](auto... pointers) { ar.template write_object<macro_names<T>>(value.*pointers...); },
          macro_members<T>::described.pointers);
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    if constexpr (!all_serializable<wire_shape>())
      explain_reflected_members<T, macro_names<T>, wire_shape>();
    else
      std::apply(
          [&](auto... pointers) { ar.template read_object<macro_names<T>>(value.*pointers...); },
          macro_members<T>::described.pointers);
  }
};

template <class T>
struct user_serializer<T, description::aggregate> {
  static_assert(listed_members_exist<T, aggregate_names<T>>(),
                "bale: bale::required_members or bale::former_names names a member the type does "
                "not have");
  static_assert(version<T> == 0,
                "bale: bale::version is for types described by hand (serialize, save/load); a "
                "reflected type evolves by its schema, member by member (docs/schema.md)");
  using wire_shape = aggregate_members<T>;
  using schema_shape = schema::record<T>;
  static constexpr bool wire_compatible = aggregate_wire_compatible<T>();

  template <class Archive>
  [[gnu::always_inline]] static void save(Archive& ar, const T& value) {
    if constexpr (!all_serializable<wire_shape>())
      explain_reflected_members<T, aggregate_names<T>, wire_shape>();
    else
      bale::visit_members(value, [&](const auto&... members) {
        ar.template write_object<aggregate_names<T>>(members...);
      });
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    if constexpr (!all_serializable<wire_shape>())
      explain_reflected_members<T, aggregate_names<T>, wire_shape>();
    else
      bale::visit_members(value, [&](auto&... members) {
        ar.template read_object<aggregate_names<T>>(members...);
      });
  }
};

}  // namespace detail

/// Opt a reflected type (aggregate or BALE_REFLECT) in to writing only the members that differ
/// from a default-constructed T, behind a presence bitmask:
///   template <> inline constexpr bool bale::omit_defaults<settings> = true;
template <class T>
inline constexpr bool omit_defaults = false;

namespace detail {

// Calls f(names, members...) for a reflected type: its member names and references to its members.
template <class T, class Value, class F>
decltype(auto) with_reflected_members(Value& value, F&& f) {
  if constexpr (description_of<T>() == description::aggregate) {
    return bale::visit_members(
        value, [&](auto&... members) { return f(aggregate_names<T>::value, members...); });
  } else {
    return std::apply(
        [&](auto... pointers) { return f(macro_names<T>::value, value.*pointers...); },
        macro_members<T>::described.pointers);
  }
}

// Presence bitmask (bit i of byte i / 8: member i is written), then the members that differ from
// their default. Works for any number of members.
template <class T>
struct defaults_omitting_serializer {
  using schema_shape = schema::record<T, true>;
  static const T& defaults() {
    static const T instance = T();
    return instance;
  }
  template <class M>
  static bool differs(const M& member, const M& default_member) {
    if constexpr (std::is_array_v<M>) {
      // A C array compares element by element (== on arrays would compare their addresses).
      for (std::size_t i = 0; i < std::extent_v<M>; ++i)
        if (differs(member[i], default_member[i])) return true;
      return false;
    } else if constexpr (std::is_floating_point_v<M>) {
      // Bit for bit: -0.0 equals 0.0 but must keep its sign; a NaN equals its own bits.
      return std::memcmp(&member, &default_member, sizeof(M)) != 0;
    } else if constexpr (requires {
                           { member == default_member } -> std::convertible_to<bool>;
                         }) {
      return !(member == default_member);
    } else {
      return true;  // cannot compare: always written
    }
  }
  // One encoding per value: a member marked present must differ from its default, as the
  // writer marks only those.
  template <class Archive, class M>
  static void read_present(Archive& ar, std::string_view name, M& member, const M& default_member) {
    const std::size_t at = ar.offset();
    ar.read_field(name, member);
    if (!differs(member, default_member))
      ar.fail_at(errc::invalid_value,
                 error_text({"member \"", name, "\" is marked present but equals its default"}),
                 at);
  }
  template <class M>
  static void reset(M& member, const M& default_member) {
    if constexpr (std::is_array_v<M>) {
      for (std::size_t i = 0; i < std::extent_v<M>; ++i) reset(member[i], default_member[i]);
    } else {
      member = default_member;
    }
  }

  template <class Archive>
  static void save(Archive& ar, const T& value) {
    if constexpr (Archive::self_describing) {
      // Text formats name every member; a reader there fills absent ones from their defaults.
      user_serializer<T>::save(ar, value);
      return;
    }
    with_reflected_members<T>(value, [&](const auto& names, const auto&... members) {
      with_reflected_members<T>(defaults(), [&](const auto&, const auto&... default_members) {
        constexpr std::size_t count = sizeof...(members);
        std::array<std::uint8_t, (count + 7) / 8> mask{};
        std::size_t i = 0;
        ((differs(members, default_members) ? (void)(mask[i / 8] |= std::uint8_t(1U << (i % 8)))
                                            : (void)0,
          ++i),
         ...);
        ar.write_composite([&] {
          ar(mask);
          std::size_t k = 0;
          ((mask[k / 8] >> (k % 8) & 1U ? ar.write_field(names[k], members) : (void)0, ++k), ...);
        });
      });
    });
  }
  template <class Archive>
  static void load(Archive& ar, T& value) {
    if constexpr (Archive::self_describing) {
      user_serializer<T>::load(ar, value);
      return;
    }
    with_reflected_members<T>(value, [&](const auto& names, auto&... members) {
      with_reflected_members<T>(defaults(), [&](const auto&, const auto&... default_members) {
        constexpr std::size_t count = sizeof...(members);
        ar.read_composite([&] {
          const std::size_t at = ar.offset();
          std::array<std::uint8_t, (count + 7) / 8> mask{};
          ar(mask);
          if constexpr (count % 8 != 0) {
            if (mask.back() >> (count % 8) != 0)
              ar.fail_at(errc::invalid_value, "presence mask has bits past the last member", at);
          }
          std::size_t k = 0;
          ((mask[k / 8] >> (k % 8) & 1U ? read_present(ar, names[k], members, default_members)
                                        : reset(members, default_members),
            ++k),
           ...);
        });
      });
    });
  }
};

template <class T>
using primary_serializer =
    std::conditional_t<omit_defaults<T> && (description_of<T>() == description::aggregate ||
                                            description_of<T>() == description::reflect_macro),
                       defaults_omitting_serializer<T>, user_serializer<T>>;

}  // namespace detail

/// Primary template: user types. Specialize serializer<T> to take over a type completely.
template <class T>
struct serializer : detail::primary_serializer<T> {};

/// A type bale knows how to write and read.
template <class T>
concept serializable = !requires {
  typename serializer<std::remove_cv_t<T>>::unsupported;
};

namespace detail {
template <class T>
constexpr void require_serializable() {
  if constexpr (!serializable<T>) explain_not_serializable<T>();
}
}  // namespace detail

/// serializer<named<T>>: a value with a name, from bale::field().
template <class T>
struct serializer<named<T>> {
  template <class Archive>
  static void save(Archive& ar, const named<T>& f) {
    ar.write_field(f.name, f.value);
  }
  template <class Archive>
  static void load(Archive& ar, const named<T>& f) {
    ar.read_field(f.name, f.value);
  }
};

}  // namespace bale

#include "bale/core/diagnostics.hpp"  // IWYU pragma: keep
