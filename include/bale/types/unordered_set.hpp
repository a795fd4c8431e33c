// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::unordered_set and std::unordered_multiset, with any hasher, equality and allocator.

#include <unordered_set>

#include "bale/types/set.hpp"

namespace bale {

template <class K, class Hash, class Equal, class Alloc>
struct serializer<std::unordered_set<K, Hash, Equal, Alloc>>
    : set_serializer<std::unordered_set<K, Hash, Equal, Alloc>> {};
template <class K, class Hash, class Equal, class Alloc>
struct serializer<std::unordered_multiset<K, Hash, Equal, Alloc>>
    : set_serializer<std::unordered_multiset<K, Hash, Equal, Alloc>> {};

}  // namespace bale
