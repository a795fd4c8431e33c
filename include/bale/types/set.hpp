// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::set and std::multiset, with any comparator and allocator. A repeated key in a set is
// rejected as invalid_value.

#include <set>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/containers.hpp"

namespace bale {

template <class Set>
struct set_serializer {
  using schema_shape = schema::set<typename Set::key_type>;

  template <class Archive>
  static void save(Archive& ar, const Set& set) {
    detail::save_range(ar, set);
  }
  template <class Archive>
  static void load(Archive& ar, Set& set) {
    detail::load_set(ar, set);
  }
};

template <class K, class Compare, class Alloc>
struct serializer<std::set<K, Compare, Alloc>> : set_serializer<std::set<K, Compare, Alloc>> {};
template <class K, class Compare, class Alloc>
struct serializer<std::multiset<K, Compare, Alloc>>
    : set_serializer<std::multiset<K, Compare, Alloc>> {};

}  // namespace bale
