// SPDX-License-Identifier: BSL-1.0
#pragma once
// Any mdspan-shaped view: std::mdspan (C++23), Kokkos::mdspan, or a type of the user's own with
// the same members (a static rank(), extent(k), stride(k) and a pointer from data_handle()).
// Written whole, whatever its strides; read into only when the data's extents are its own, since
// a view cannot be resized.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bale/arrays/serializer.hpp"
#include "bale/arrays/shape.hpp"

namespace bale {

/// A view of elements at data_handle() + sum of index k times stride(k), of a fixed rank.
template <class M>
concept mdspan_shaped = requires(const M& view, std::size_t k) {
  typename M::element_type;
  typename std::integral_constant<std::size_t, M::rank()>;
  { view.extent(k) } -> std::convertible_to<std::size_t>;
  { view.stride(k) } -> std::convertible_to<std::ptrdiff_t>;
  { view.data_handle() } -> std::same_as<typename M::element_type*>;
};

template <mdspan_shaped M>
struct array_traits<M> {
  using element_type = typename M::element_type;
  static constexpr std::size_t rank = M::rank();

  static array_ref<const element_type, rank> view(const M& view) {
    return {view.data_handle(), extents(view), strides(view)};
  }
  static bool holds(const M& view, const array_extents<rank>& wanted) {
    return extents(view) == wanted;
  }
  static array_ref<element_type, rank> reshape(M& view, const array_extents<rank>&) {
    return {view.data_handle(), extents(view), strides(view)};
  }

 private:
  static array_extents<rank> extents(const M& view) {
    array_extents<rank> result{};
    for (std::size_t k = 0; k < rank; ++k) result[k] = static_cast<std::uint64_t>(view.extent(k));
    return result;
  }
  static array_strides<rank> strides(const M& view) {
    array_strides<rank> result{};
    for (std::size_t k = 0; k < rank; ++k) result[k] = static_cast<std::ptrdiff_t>(view.stride(k));
    return result;
  }
};

}  // namespace bale
