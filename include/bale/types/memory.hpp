// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::shared_ptr<T>, std::weak_ptr<T> and std::unique_ptr<T>: pointers that own their objects.
// Two shared_ptrs (or weak_ptrs) to one object come back as two pointers to one object, cycles
// through weak_ptr included; a pointer to a polymorphic type holds any type that a registry
// passed to the call lists (bale::with, bale/registry.hpp). Bodies are written breadth first, so
// a list or tree of pointers of any length takes no more stack than one of its nodes
// (docs/graphs.md has the wire forms). Every object read is charged to the
// allocation budget and counted against limits::max_objects before it is made.

#include <memory>
#include <type_traits>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/graph/object_graph.hpp"
#include "bale/graph/object_graph_load.hpp"

namespace bale {

template <class T>
struct serializer<std::unique_ptr<T>> {
  static_assert(!std::is_array_v<T>, "bale: unique_ptr<T[]> has no size; use std::vector<T>");
  using schema_shape = schema::pointer<schema::owner::unique, T>;

  template <class Archive>
  static void save(Archive& ar, const std::unique_ptr<T>& pointer) {
    detail::save_pointer(ar, pointer.get(), detail::ownership::unique);
  }
  template <class Archive>
  static void load(Archive& ar, std::unique_ptr<T>& pointer) {
    detail::load_pointer(ar, pointer, detail::ownership::unique);
  }
};

template <class T>
struct serializer<std::shared_ptr<T>> {
  static_assert(!std::is_array_v<T>, "bale: shared_ptr<T[]> has no size; use std::vector<T>");
  using schema_shape = schema::pointer<schema::owner::shared, T>;

  template <class Archive>
  static void save(Archive& ar, const std::shared_ptr<T>& pointer) {
    detail::save_pointer(ar, pointer.get(), detail::ownership::shared);
  }
  template <class Archive>
  static void load(Archive& ar, std::shared_ptr<T>& pointer) {
    detail::load_pointer(ar, pointer, detail::ownership::shared);
  }
};

/// A weak_ptr is written as the shared_ptr it locks to (null once expired). An object that only
/// weak_ptrs reach is read, then freed when the read returns: the weak_ptr is then expired, as it
/// would be in the writer's program were no shared_ptr keeping it.
template <class T>
struct serializer<std::weak_ptr<T>> {
  using schema_shape = schema::pointer<schema::owner::weak, T>;

  template <class Archive>
  static void save(Archive& ar, const std::weak_ptr<T>& pointer) {
    const std::shared_ptr<T> locked = pointer.lock();
    detail::save_pointer(ar, locked.get(), detail::ownership::shared);
  }
  template <class Archive>
  static void load(Archive& ar, std::weak_ptr<T>& pointer) {
    std::shared_ptr<T> strong;
    detail::load_pointer(ar, strong, detail::ownership::shared, false);
    pointer = strong;
  }
};

}  // namespace bale
