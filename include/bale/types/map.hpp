// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::map and std::multimap: a length, then key, value, key, value... A repeated key in a map is
// rejected as invalid_value.

#include <map>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/containers.hpp"
#include "bale/types/utility.hpp"

namespace bale {

template <class Map>
struct map_serializer {
  using schema_shape = schema::map<typename Map::key_type, typename Map::mapped_type>;

  template <class Archive>
  static void save(Archive& ar, const Map& map) {
    detail::save_map(ar, map);
  }
  template <class Archive>
  static void load(Archive& ar, Map& map) {
    detail::load_map(ar, map);
  }
};

template <class K, class V, class Compare, class Alloc>
struct serializer<std::map<K, V, Compare, Alloc>> : map_serializer<std::map<K, V, Compare, Alloc>> {
};
template <class K, class V, class Compare, class Alloc>
struct serializer<std::multimap<K, V, Compare, Alloc>>
    : map_serializer<std::multimap<K, V, Compare, Alloc>> {};

}  // namespace bale
