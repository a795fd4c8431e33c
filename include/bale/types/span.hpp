#pragma once
// std::span<const T>: written like a vector; read as a zero-copy view into the input, which must be
// aligned for T (errc::misaligned otherwise). The view lives as long as the input buffer.

#include <cstddef>
#include <span>
#include <type_traits>

#include "bale/core/archive_base.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/containers.hpp"

namespace bale {

template <class T, std::size_t Extent>
struct serializer<std::span<T, Extent>> {
  using wire_shape = wire::length_prefixed;

  template <class Archive>
  static void save(Archive& ar, const std::span<T, Extent>& span) {
    detail::save_range(ar, span);
  }
  template <class Archive>
  static void load(Archive& ar, std::span<T, Extent>& span) {
    static_assert(std::is_const_v<T> && Extent == std::dynamic_extent,
                  "bale: only std::span<const T> can be read (as a view into the input)");
    static_assert(Archive::template bulk<std::remove_const_t<T>>,
                  "bale: a span is read as a view, so its elements must be trivially copyable "
                  "with a wire layout equal to their memory layout");
    detail::require_views_allowed(ar);
    span = ar.template read_view<std::remove_const_t<T>>();
  }
};

}  // namespace bale
