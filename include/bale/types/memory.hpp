#pragma once
// std::unique_ptr<T> and std::shared_ptr<T> with value semantics: a presence flag (null or not),
// then the pointee. Two shared_ptrs to one object are written twice and read back as two objects.
// A pointee is charged to the decode's allocation budget before it is allocated: a few bytes on
// the wire must not buy an object of any size.

#include <cstddef>
#include <memory>
#include <type_traits>

#include "bale/core/archive_base.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class T>
struct serializer<std::unique_ptr<T>> {
  static_assert(!std::is_array_v<T>, "bale: unique_ptr<T[]> has no size; use std::vector<T>");
  using wire_shape = wire::flag_prefixed;

  template <class Archive>
  static void save(Archive& ar, const std::unique_ptr<T>& pointer) {
    ar.write_optional(pointer != nullptr, [&] { ar(*pointer); });
  }
  template <class Archive>
  static void load(Archive& ar, std::unique_ptr<T>& pointer) {
    pointer.reset();
    ar.read_optional([&] {
      detail::charge_allocation(ar, 1, sizeof(T));
      pointer = std::make_unique<T>();
      ar(*pointer);
    });
  }
};

template <class T>
struct serializer<std::shared_ptr<T>> {
  static_assert(!std::is_array_v<T>, "bale: shared_ptr<T[]> has no size; use std::vector<T>");
  using wire_shape = wire::flag_prefixed;
  // make_shared allocates the object beside two reference counts.
  static constexpr std::size_t shared_block_size = sizeof(T) + 2 * sizeof(long);

  template <class Archive>
  static void save(Archive& ar, const std::shared_ptr<T>& pointer) {
    ar.write_optional(pointer != nullptr, [&] { ar(*pointer); });
  }
  template <class Archive>
  static void load(Archive& ar, std::shared_ptr<T>& pointer) {
    pointer.reset();
    ar.read_optional([&] {
      detail::charge_allocation(ar, 1, shared_block_size);
      auto fresh = std::make_shared<std::remove_const_t<T>>();
      ar(*fresh);
      pointer = std::move(fresh);
    });
  }
};

}  // namespace bale
