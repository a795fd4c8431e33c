#pragma once
// std::valarray<T>: a length, then the elements (one memcpy when T allows).

#include <cstddef>
#include <valarray>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class T>
struct serializer<std::valarray<T>> {
  using wire_shape = wire::length_prefixed;

  template <class Archive>
  static void save(Archive& ar, const std::valarray<T>& values) {
    ar.write_sequence(values.size(), [&] {
      if (values.size() != 0) ar.write_contiguous(&values[0], values.size());
    });
  }
  template <class Archive>
  static void load(Archive& ar, std::valarray<T>& values) {
    // The count is checked against the input and charged before resize() allocates.
    ar.template read_sequence_into<T>([&](std::size_t count) {
      values.resize(count);
      return count != 0 ? &values[0] : nullptr;
    });
  }
};

}  // namespace bale
