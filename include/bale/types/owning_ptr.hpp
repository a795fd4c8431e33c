// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::owning_ptr<T>: for code that owns objects through raw pointers. It stands where the raw
// pointer stood (it converts to and from T*, so `p->x`, `p = new T`, `delete p` read as before)
// and tells bale the pointer owns its object: written and read exactly as a std::unique_ptr<T>
// (same bytes, polymorphic through a registry, bodies breadth first). It never deletes on its
// own: your code does, as it did for the raw pointer. Reading replaces the object it held and
// deletes that one, as unique_ptr::reset would.

#include <memory>
#include <type_traits>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/graph/object_graph.hpp"
#include "bale/graph/object_graph_load.hpp"

namespace bale {

template <class T>
class owning_ptr {
 public:
  owning_ptr() noexcept = default;
  owning_ptr(T* pointer) noexcept : pointer_(pointer) {}  // NOLINT: stands in for a T*
  owning_ptr& operator=(T* pointer) noexcept {
    pointer_ = pointer;
    return *this;
  }
  operator T*() const noexcept { return pointer_; }  // NOLINT: reads as the raw pointer
  T* get() const noexcept { return pointer_; }
  T& operator*() const noexcept { return *pointer_; }
  T* operator->() const noexcept { return pointer_; }

 private:
  T* pointer_ = nullptr;
};

template <class T>
struct serializer<owning_ptr<T>> {
  static_assert(!std::is_array_v<T>, "bale: owning_ptr<T[]> has no size; use std::vector<T>");
  using schema_shape = schema::pointer<schema::owner::unique, T>;

  template <class Archive>
  static void save(Archive& ar, const owning_ptr<T>& pointer) {
    detail::save_pointer(ar, pointer.get(), detail::ownership::unique);
  }
  template <class Archive>
  static void load(Archive& ar, owning_ptr<T>& pointer) {
    std::unique_ptr<T> read;
    detail::load_pointer(ar, read, detail::ownership::unique);
    delete pointer.get();
    pointer = read.release();
  }
};

}  // namespace bale
