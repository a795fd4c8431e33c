// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::unordered_map and std::unordered_multimap, with any hasher, equality and allocator.

#include <unordered_map>

#include "bale/types/map.hpp"

namespace bale {

template <class K, class V, class Hash, class Equal, class Alloc>
struct serializer<std::unordered_map<K, V, Hash, Equal, Alloc>>
    : map_serializer<std::unordered_map<K, V, Hash, Equal, Alloc>> {};
template <class K, class V, class Hash, class Equal, class Alloc>
struct serializer<std::unordered_multimap<K, V, Hash, Equal, Alloc>>
    : map_serializer<std::unordered_multimap<K, V, Hash, Equal, Alloc>> {};

}  // namespace bale
