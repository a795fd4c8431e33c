// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::list<T>.

#include <list>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/containers.hpp"

namespace bale {

template <class T, class Alloc>
struct serializer<std::list<T, Alloc>> {
  using schema_shape = schema::sequence<T>;

  template <class Archive>
  static void save(Archive& ar, const std::list<T, Alloc>& container) {
    detail::save_range(ar, container);
  }
  template <class Archive>
  static void load(Archive& ar, std::list<T, Alloc>& container) {
    detail::load_back<detail::node_kind::doubly_linked>(ar, container);
  }
};

}  // namespace bale
