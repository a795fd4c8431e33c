// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::pair: first, then second.

#include <utility>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class A, class B>
struct serializer<std::pair<A, B>> {
  using schema_shape = schema::tuple<A, B>;

  template <class Archive>
  static void save(Archive& ar, const std::pair<A, B>& pair) {
    ar.write_tuple(2, [&] { ar(pair.first, pair.second); });
  }
  template <class Archive>
  static void load(Archive& ar, std::pair<A, B>& pair) {
    ar.read_tuple(2, [&] { ar(pair.first, pair.second); });
  }
};

}  // namespace bale
