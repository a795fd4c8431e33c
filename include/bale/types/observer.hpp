// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::observer<T>: a raw pointer that does not own its object, for links such as a node's
// parent or an edge's ends. It stands where the T* stood (it converts both ways) and tells bale
// that the object is owned by a pointer elsewhere in the same message (a shared_ptr, weak_ptr,
// unique_ptr or owning_ptr): the message writes the object once, where it is first met, and the
// observer comes back pointing at the object its owner holds after reading.
//
// The observer may be met before or after the owner: an object observers meet first is written
// there, and its owner then claims it. An object that no pointer of the message owns (a value
// member, the value passed to serialize itself, a pointer into an array) is an error when the
// message is written and when it is read, and so is one that only weak_ptrs hold, which the read
// would free. Wire forms: docs/graphs.md.

#include <type_traits>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/graph/object_graph.hpp"
#include "bale/graph/object_graph_load.hpp"

namespace bale {

template <class T>
class observer {
 public:
  observer() noexcept = default;
  observer(T* pointer) noexcept : pointer_(pointer) {}  // NOLINT: stands in for a T*
  observer& operator=(T* pointer) noexcept {
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
struct serializer<observer<T>> {
  static_assert(!std::is_array_v<T>, "bale: observer<T[]> has no size; observe one object");
  using schema_shape = schema::pointer<schema::owner::observer, T>;

  template <class Archive>
  static void save(Archive& ar, const observer<T>& pointer) {
    detail::save_pointer(ar, pointer.get(), detail::ownership::observer);
  }
  template <class Archive>
  static void load(Archive& ar, observer<T>& pointer) {
    detail::observer_slot<std::remove_const_t<T>> read;
    detail::load_pointer(ar, read, detail::ownership::observer);
    pointer = read.pointer;
  }
};

}  // namespace bale
