// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::array<T, N>: N elements, no length (both sides know N); one memcpy when T allows.

#include <array>
#include <cstddef>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class T, std::size_t N>
struct serializer<std::array<T, N>> {
  using schema_shape = schema::fixed<T, N>;
  static constexpr bool wire_compatible =
      bale::wire_compatible<T> && sizeof(std::array<T, N>) == N * sizeof(T);

  template <class Archive>
  static void save(Archive& ar, const std::array<T, N>& array) {
    ar.write_tuple(N, [&] { ar.write_contiguous(array.data(), N); });
  }
  template <class Archive>
  static void load(Archive& ar, std::array<T, N>& array) {
    ar.read_tuple(N, [&] { ar.read_contiguous(array.data(), N); });
  }
};

}  // namespace bale
