// SPDX-License-Identifier: BSL-1.0
#pragma once
// C arrays T[N], multi-dimensional ones included (T[2][3] is 2 of T[3]).

#include <cstddef>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class T, std::size_t N>
struct serializer<T[N]> {
  using schema_shape = schema::fixed<T, N>;
  static constexpr bool wire_compatible = bale::wire_compatible<T>;

  template <class Archive>
  static void save(Archive& ar, const T (&array)[N]) {
    ar.write_tuple(N, [&] { ar.write_contiguous(&array[0], N); });
  }
  template <class Archive>
  static void load(Archive& ar, T (&array)[N]) {
    ar.read_tuple(N, [&] { ar.read_contiguous(&array[0], N); });
  }
};

}  // namespace bale
