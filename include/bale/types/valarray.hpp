#pragma once
// std::valarray<T>: a length, then the elements (one memcpy when T allows).

#include <cstddef>
#include <cstring>
#include <valarray>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/containers.hpp"

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
    if constexpr (Archive::template bulk<T>) {
      ar.template read_contiguous_sequence<T>([&](const std::byte* source, std::size_t count) {
        values.resize(count);
        if (count != 0) std::memcpy(&values[0], source, count * sizeof(T));
      });
    } else {
      // The count is checked against the input and charged before resize() allocates.
      ar.template read_sequence<T>([&](std::size_t count) { values.resize(count); },
                                   [&](auto& element_ar, std::size_t i) { element_ar(values[i]); });
    }
  }
};

}  // namespace bale
