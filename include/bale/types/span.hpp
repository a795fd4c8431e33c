// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::span<const T>: written like a vector; read as a zero-copy view into the input, which must be
// aligned for T (errc::misaligned otherwise). The view lives as long as the input buffer. A format
// that does not hold T as it is in memory (compact's varints, JSON) fails with errc::wrong_type.

#include <cstddef>
#include <span>
#include <type_traits>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/containers.hpp"

namespace bale {

template <class T, std::size_t Extent>
struct serializer<std::span<T, Extent>> {
  using schema_shape = schema::sequence<T>;

  template <class Archive>
  static void save(Archive& ar, const std::span<T, Extent>& span) {
    detail::save_range(ar, span);
  }
  template <class Archive>
  static void load(Archive& ar, std::span<T, Extent>& span) {
    static_assert(std::is_const_v<T> && Extent == std::dynamic_extent,
                  "bale: only std::span<const T> can be read (as a view into the input)");
    using element = std::remove_const_t<T>;
    static_assert(std::is_trivially_copyable_v<element>,
                  "bale: a span is read as a view, so its elements must be trivially copyable");
    span = detail::read_input_view<element>(ar, "a span", "hold a std::vector");
  }
};

}  // namespace bale
