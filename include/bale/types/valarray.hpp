// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::valarray<T>: a length, then the elements (one memcpy when T allows).

#include <cstddef>
#include <valarray>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class T>
struct serializer<std::valarray<T>> {
  using schema_shape = schema::sequence<T>;

  template <class Archive>
  static void save(Archive& ar, const std::valarray<T>& values) {
    ar.write_contiguous_sequence(values.size() != 0 ? &values[0] : nullptr, values.size());
  }
  template <class Archive>
  static void load(Archive& ar, std::valarray<T>& values) {
    ar.template read_sequence_into<T>(target{values});
  }

 private:
  // valarray::resize drops the elements, and the contract asks that a resize keeps them.
  struct target {
    std::valarray<T>& values;
    T* resize(std::size_t count) {
      if (count != values.size()) {
        std::valarray<T> resized(count);
        for (std::size_t i = 0; i < count && i < values.size(); ++i) resized[i] = values[i];
        values.swap(resized);
      }
      return count != 0 ? &values[0] : nullptr;
    }
  };
};

}  // namespace bale
