// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::complex<T>: real part, then imaginary part.

#include <complex>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class T>
struct serializer<std::complex<T>> {
  using schema_shape = schema::fixed<T, 2>;
  // The standard lays complex<T> out as T[2].
  static constexpr bool wire_compatible = bale::wire_compatible<T>;

  template <class Archive>
  static void save(Archive& ar, const std::complex<T>& value) {
    const T parts[2] = {value.real(), value.imag()};
    ar.write_tuple(2, [&] { ar(parts[0], parts[1]); });
  }
  template <class Archive>
  static void load(Archive& ar, std::complex<T>& value) {
    T parts[2]{};
    ar.read_tuple(2, [&] { ar(parts[0], parts[1]); });
    value = std::complex<T>(parts[0], parts[1]);
  }
};

}  // namespace bale
