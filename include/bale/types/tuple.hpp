// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::tuple: its elements one after another.

#include <tuple>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class... Ts>
struct serializer<std::tuple<Ts...>> {
  using schema_shape = schema::tuple<Ts...>;

  template <class Archive>
  static void save(Archive& ar, const std::tuple<Ts...>& tuple) {
    ar.write_tuple(sizeof...(Ts), [&] { std::apply([&](const auto&... e) { ar(e...); }, tuple); });
  }
  template <class Archive>
  static void load(Archive& ar, std::tuple<Ts...>& tuple) {
    ar.read_tuple(sizeof...(Ts), [&] { std::apply([&](auto&... e) { ar(e...); }, tuple); });
  }
};

}  // namespace bale
