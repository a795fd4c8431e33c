// SPDX-License-Identifier: BSL-1.0
#pragma once
// xtensor's containers as arrays (arrays/serializer.hpp): xt::xtensor of a fixed rank, xt::xarray
// of a rank known at run time (its extents travel as a sequence, so data of any rank reads into
// it), in any layout, and their adaptors over the user's memory (xt::adapt). A container is
// resized to the data's extents, keeping its layout; an adaptor whose size is fixed is read into
// only at its own extents.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <xtensor/xcontainer.hpp>

#include "bale/arrays/serializer.hpp"
#include "bale/arrays/shape.hpp"

namespace bale::detail {

/// An xtensor container or adaptor: elements at data() + data_offset() with strides().
template <class T>
concept xtensor_strided = std::derived_from<T, xt::xstrided_container<T>>;

}  // namespace bale::detail

namespace bale {

template <detail::xtensor_strided T>
struct array_traits<T> {
  using element_type = std::remove_pointer_t<decltype(std::declval<T&>().data())>;
  static constexpr std::size_t rank = T::rank;  // SIZE_MAX, bale::dynamic_rank, for xt::xarray

  static array_ref<const element_type, rank> view(const T& t) {
    return {t.data() + t.data_offset(), extents(t), strides(t)};
  }
  static bool holds(const T& t, const array_extents<rank>& wanted) {
    if constexpr (requires(T & resizable) { resizable.resize(typename T::shape_type{}); })
      return true;
    else
      return extents(t) == wanted;
  }
  static array_ref<element_type, rank> reshape(T& t, const array_extents<rank>& wanted) {
    if constexpr (requires(T & resizable) { resizable.resize(typename T::shape_type{}); }) {
      if (extents(t) != wanted) {
        auto shape = [&] {
          if constexpr (rank == dynamic_rank)
            return typename T::shape_type(wanted.size());
          else
            return typename T::shape_type{};
        }();
        for (std::size_t k = 0; k < wanted.size(); ++k)
          shape[k] = static_cast<typename T::shape_type::value_type>(wanted[k]);
        t.resize(shape);
      }
    }
    return {t.data() + t.data_offset(), extents(t), strides(t)};
  }

 private:
  static array_extents<rank> extents(const T& t) {
    auto result = detail::extents_of_rank<rank>(t.dimension());
    for (std::size_t k = 0; k < result.size(); ++k)
      result[k] = static_cast<std::uint64_t>(t.shape()[k]);
    return result;
  }
  static array_strides<rank> strides(const T& t) {
    auto result = detail::zero_per_index<std::ptrdiff_t, rank>(t.dimension());
    for (std::size_t k = 0; k < result.size(); ++k)
      result[k] = static_cast<std::ptrdiff_t>(t.strides()[k]);
    return result;
  }
};

}  // namespace bale
