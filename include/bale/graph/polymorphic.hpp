// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a pointer to a polymorphic type asks of the registries installed for a call (bale::with,
// bale/registry.hpp): for its static type S and its archive, the derived types it may hold, each
// with the functions that write, make and read one. The tables are made by bale::with, which
// knows both the archive and the registry's types; a pointer knows only S and its archive.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "bale/graph/installed_registry.hpp"
#include "bale/graph/object_table.hpp"

namespace bale::detail {

/// One type a pointer of static type S may hold, for one archive type.
template <class S>
struct derived_entry {
  const std::type_info* type;
  std::string_view name;
  std::uint32_t id;
  std::size_t size;                                 // charged to the allocation budget
  void (*save)(void* archive, const void* object);  // object: the derived type's address
  const void* (*most_derived)(const S* site);       // S* -> the derived type's address
  void* (*make_unique)();                           // a new derived object, owned by the caller
  std::shared_ptr<void> (*make_shared)(void** object);
  S* (*upcast)(void* object);
  void (*destroy)(void* object);
  void (*load)(void* archive, void* object);
};

/// The derived types for pointers of static type S, as one call's registries list them.
template <class S>
struct derived_types {
  std::string_view base_name;
  std::vector<derived_entry<S>> entries;

  const derived_entry<S>* find(const std::type_info& type) const noexcept {
    for (const auto& e : entries)
      if (*e.type == type) return &e;
    return nullptr;
  }
  const derived_entry<S>* find(std::uint32_t id) const noexcept {
    for (const auto& e : entries)
      if (e.id == id) return &e;
    return nullptr;
  }
  const derived_entry<S>* find(std::string_view name) const noexcept {
    for (const auto& e : entries)
      if (e.name == name) return &e;
    return nullptr;
  }
};

/// The derived types installed for pointers of static type S read or written by Archive, or null.
template <class S, class Archive, class Context>
const derived_types<S>* installed_types(Context& context) noexcept {
  const std::vector<installed_registry>* installed = registries_of(context);
  if (installed == nullptr) return nullptr;
  for (const installed_registry& r : *installed)
    if (*r.site == typeid(S) && *r.archive == typeid(Archive))
      return static_cast<const derived_types<S>*>(r.dispatch);
  return nullptr;
}

template <class D, class S>
const D* down_to(const S* site) noexcept {
  if constexpr (requires { static_cast<const D*>(site); })
    return static_cast<const D*>(site);
  else
    return dynamic_cast<const D*>(site);  // S is a virtual base of D
}

/// The entry of D for pointers of static type S, written and read by Archive.
template <class Archive, class S, class D>
derived_entry<S> entry_for(std::string_view name, std::uint32_t id) {
  derived_entry<S> e{};
  e.type = &typeid(D);
  e.name = name;
  e.id = id;
  e.size = sizeof(D);
  e.most_derived = [](const S* site) -> const void* { return down_to<D>(site); };
  e.upcast = [](void* object) -> S* { return static_cast<D*>(object); };
  if constexpr (Archive::is_saving) {
    e.save = [](void* archive, const void* object) {
      (*static_cast<Archive*>(archive))(*static_cast<const D*>(object));
    };
  } else {
    e.make_unique = []() -> void* { return new D(); };
    e.make_shared = [](void** object) -> std::shared_ptr<void> {
      auto fresh = std::make_shared<D>();
      *object = fresh.get();
      return fresh;
    };
    e.destroy = [](void* object) { delete static_cast<D*>(object); };
    e.load = [](void* archive, void* object) {
      (*static_cast<Archive*>(archive))(*static_cast<D*>(object));
    };
  }
  return e;
}

}  // namespace bale::detail
