// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::forward_list<T>: it has no size(), so writing counts it first.

#include <cstddef>
#include <forward_list>
#include <iterator>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/containers.hpp"

namespace bale {

template <class T, class Alloc>
struct serializer<std::forward_list<T, Alloc>> {
  using schema_shape = schema::sequence<T>;

  template <class Archive>
  static void save(Archive& ar, const std::forward_list<T, Alloc>& list) {
    detail::save_range(ar, list, static_cast<std::size_t>(std::distance(list.begin(), list.end())));
  }
  template <class Archive>
  static void load(Archive& ar, std::forward_list<T, Alloc>& list) {
    list.clear();
    auto last = list.before_begin();
    ar.template read_sequence<T>(
        [](std::size_t) {},
        [&](auto& element_ar) {
          detail::charge_allocation(element_ar, 1,
                                    detail::node_overhead<detail::node_kind::singly_linked, T>());
          element_ar(*(last = list.emplace_after(last)));
        });
  }
};

}  // namespace bale
