// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::vector<T> (a contiguous run of wire-compatible T moves as one memcpy) and std::vector<bool>.

#include <vector>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/containers.hpp"

namespace bale {

template <class T, class Alloc>
struct serializer<std::vector<T, Alloc>> {
  using schema_shape = schema::sequence<T>;

  template <class Archive>
  static void save(Archive& ar, const std::vector<T, Alloc>& vector) {
    detail::save_range(ar, vector);
  }
  template <class Archive>
  static void load(Archive& ar, std::vector<T, Alloc>& vector) {
    if constexpr (Archive::template bulk<T>) {
      ar.template read_contiguous_sequence<T>([&](const std::byte* source, std::size_t count) {
        detail::assign_trivially<T>(vector, source, count);
      });
    } else {
      detail::load_back(ar, vector);
    }
  }
};

/// One bool per element on the wire, like a bool anywhere else.
template <class Alloc>
struct serializer<std::vector<bool, Alloc>> {
  using schema_shape = schema::sequence<bool>;

  template <class Archive>
  static void save(Archive& ar, const std::vector<bool, Alloc>& bits) {
    ar.write_sequence(bits.size(), [&] {
      for (const bool bit : bits) ar(bit);
    });
  }
  template <class Archive>
  static void load(Archive& ar, std::vector<bool, Alloc>& bits) {
    bits.clear();
    ar.template read_sequence<bool>([&](std::size_t count) { bits.reserve(count); },
                                    [&](auto& element_ar) {
                                      bool bit;
                                      element_ar(bit);
                                      bits.push_back(bit);
                                    });
  }
};

}  // namespace bale
