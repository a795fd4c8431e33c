// SPDX-License-Identifier: BSL-1.0
#pragma once
// Polymorphic pointers without global registration: a registry is an ordinary object that lists,
// for a base class, the derived types a pointer to it may hold, each under a stable name. It is
// passed to the call that writes or reads, and reading makes only the types it lists.
//
//   const auto shapes = bale::registry<shape>{}.add<circle>("circle").add<square>("square");
//   bale::serialize(bale::with(scene, shapes));
//   auto into = bale::with(scene_read, shapes);
//   bale::deserialize(bytes, into);
//
// On the wire a type is its name (self-describing formats) or a 32-bit id, the FNV-1a hash of
// the name unless given: renaming a C++ class changes nothing, reordering the list changes
// nothing. Two names with one id are refused when the registry is built. Registries compose:
// a.merge(b) lists both (a plugin exports its registry object, the program merges it).

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "bale/core/serializer.hpp"
#include "bale/graph/object_graph.hpp"
#include "bale/graph/polymorphic.hpp"

namespace bale {

namespace detail {
constexpr std::uint32_t name_hash(std::string_view name) noexcept {
  std::uint32_t hash = 2166136261U;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619U;
  return hash;
}
}  // namespace detail

/// The derived types that pointers to Base (and to each listed type) may hold in one call.
template <class Base, class... Derived>
class registry {
  static_assert(std::is_polymorphic_v<Base>, "bale::registry<Base>: Base has no virtual function");

 public:
  static constexpr std::size_t size = sizeof...(Derived);
  using base_type = Base;

  registry() = default;

  /// Lists D under `name`, whose hash is its id on the wire.
  template <class D>
  registry<Base, Derived..., D> add(std::string_view name) const {
    return add<D>(name, detail::name_hash(name));
  }
  /// Lists D under `name` with an id of the caller's choosing.
  template <class D>
  registry<Base, Derived..., D> add(std::string_view name, std::uint32_t id) const {
    static_assert(std::is_base_of_v<Base, D>,
                  "bale::registry::add<D>: D does not derive from Base");
    static_assert(!std::is_abstract_v<D>, "bale::registry::add<D>: D is abstract");
    static_assert(std::is_default_constructible_v<D>,
                  "bale::registry::add<D>: reading makes a D, which needs a default constructor");
    static_assert(!listed<D>(), "bale::registry::add<D>: D is listed already");
    registry<Base, Derived..., D> out;
    out.names_ = append(names_, std::string(name));
    out.ids_ = append(ids_, id);
    out.check();
    return out;
  }
  /// Both lists in one (for the same base).
  template <class... Others>
  registry<Base, Derived..., Others...> merge(const registry<Base, Others...>& other) const {
    static_assert((!listed<Others>() && ...), "bale::registry::merge: a type is listed in both");
    registry<Base, Derived..., Others...> out;
    out.names_ = concat(names_, other.names_);
    out.ids_ = concat(ids_, other.ids_);
    out.check();
    return out;
  }

  const std::array<std::string, size>& names() const noexcept { return names_; }
  const std::array<std::uint32_t, size>& ids() const noexcept { return ids_; }

 private:
  template <class, class...>
  friend class registry;

  template <class D>
  static constexpr bool listed() {
    return (std::is_same_v<D, Derived> || ...);
  }

  template <class T, std::size_t N, std::size_t... I>
  static std::array<T, N + 1> append_at(const std::array<T, N>& a, T last,
                                        std::index_sequence<I...>) {
    return {a[I]..., std::move(last)};
  }
  template <class T, std::size_t N>
  static std::array<T, N + 1> append(const std::array<T, N>& a, T last) {
    return append_at(a, std::move(last), std::make_index_sequence<N>{});
  }
  template <class T, std::size_t N, std::size_t M>
  static std::array<T, N + M> concat(const std::array<T, N>& a, const std::array<T, M>& b) {
    std::array<T, N + M> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = a[i];
    for (std::size_t i = 0; i < M; ++i) out[N + i] = b[i];
    return out;
  }
  void check() const {
    for (std::size_t i = 0; i < size; ++i) {
      if (names_[i].empty()) throw std::invalid_argument("bale::registry: an empty name");
      for (std::size_t j = 0; j < i; ++j) {
        if (names_[i] == names_[j])
          throw std::invalid_argument("bale::registry: \"" + names_[i] + "\" is listed twice");
        if (ids_[i] == ids_[j])
          throw std::invalid_argument("bale::registry: \"" + names_[j] + "\" and \"" + names_[i] +
                                      "\" have the same id " + std::to_string(ids_[i]) +
                                      ": give one of them an id of its own");
      }
    }
  }

  std::array<std::string, size> names_{};
  std::array<std::uint32_t, size> ids_{};
};

/// A value with the registries its pointers need, written and read as the value alone.
template <class T, class... Registries>
struct with_registries {
  T& value;
  std::tuple<const Registries&...> registries;
};

/// bale::with(value, registries...): pass the result where the value would go.
template <class T, class... Registries>
with_registries<T, Registries...> with(T& value, const Registries&... registries) {
  return {value, {registries...}};
}

template <class T, class... Registries>
inline constexpr bool detail::refers_to_value<with_registries<T, Registries...>> = true;

namespace detail {

// For one registry and one archive type, the tables that pointers to Base and to each listed type
// look up, installed in the call's context while the value is written or read.
template <class Archive, class Context, class Base, class... Ds>
class installation {
 public:
  installation(Context& context, const registry<Base, Ds...>& r)
      : list_(context.parts().template get<installed_registries>().list) {
    add_site<0, Base>(r);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (add_site<I + 1, Ds>(r), ...);
    }
    (std::index_sequence_for<Ds...>{});
  }
  ~installation() { list_.resize(first_); }
  installation(const installation&) = delete;
  installation& operator=(const installation&) = delete;

 private:
  // Table I is for pointers of static type S: Base's first, then each listed type's. Base listed
  // as a type of its own (a concrete base) has its entry in Base's table.
  template <std::size_t I, class S>
  void add_site(const registry<Base, Ds...>& r) {
    if constexpr (I == 0 || !std::is_same_v<S, Base>) {
      derived_types<S>& table = std::get<I>(tables_);
      std::size_t i = 0;
      (
          [&] {
            if constexpr (std::is_base_of_v<S, Ds>)
              table.entries.push_back(entry_for<Archive, S, Ds>(r.names()[i], r.ids()[i]));
            ++i;
          }(),
          ...);
      for (const installed_registry& earlier : list_)
        if (*earlier.site == typeid(S) && *earlier.archive == typeid(Archive))
          throw std::invalid_argument("bale::with: two registries for " + readable_name(typeid(S)) +
                                      ": merge them into one (registry::merge)");
      list_.push_back({&typeid(S), &typeid(Archive), &table});
    }
  }

  std::vector<installed_registry>& list_;
  std::size_t first_ = list_.size();
  std::tuple<derived_types<Base>, derived_types<Ds>...> tables_;
};

template <class Archive, class Context, class Registry>
struct installation_for;
template <class Archive, class Context, class Base, class... Ds>
struct installation_for<Archive, Context, registry<Base, Ds...>> {
  using type = installation<Archive, Context, Base, Ds...>;
};

/// Runs f() with every registry of the tuple installed, from the first to the last.
template <std::size_t I = 0, class Archive, class Registries, class F>
void with_installed(Archive& ar, const Registries& registries, F&& f) {
  if constexpr (I == std::tuple_size_v<Registries>) {
    f();
  } else {
    using context = std::remove_reference_t<decltype(ar.context())>;
    using registry_type = std::remove_cvref_t<std::tuple_element_t<I, Registries>>;
    const typename installation_for<Archive, context, registry_type>::type installed(
        ar.context(), std::get<I>(registries));
    with_installed<I + 1>(ar, registries, f);
  }
}

}  // namespace detail

template <class T, class... Registries>
struct serializer<with_registries<T, Registries...>> {
  using schema_shape = schema::same_as<std::remove_const_t<T>>;  // the value's, registries apart
  template <class Archive>
  static void save(Archive& ar, const with_registries<T, Registries...>& w) {
    detail::with_installed(ar, w.registries, [&] { ar(std::as_const(w.value)); });
  }
  template <class Archive>
  static void load(Archive& ar, const with_registries<T, Registries...>& w) {
    detail::with_installed(ar, w.registries, [&] { ar(w.value); });
  }
};

}  // namespace bale
