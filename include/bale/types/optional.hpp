// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::optional<T>: a presence flag, then the value if there is one.

#include <optional>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class T>
struct serializer<std::optional<T>> {
  using schema_shape = schema::optional<T>;

  template <class Archive>
  static void save(Archive& ar, const std::optional<T>& optional) {
    ar.write_optional(optional.has_value(), [&] { ar(*optional); });
  }
  template <class Archive>
  static void load(Archive& ar, std::optional<T>& optional) {
    optional.reset();
    ar.read_optional([&] { ar(optional.emplace()); });
  }
};

}  // namespace bale
