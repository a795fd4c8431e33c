// SPDX-License-Identifier: BSL-1.0
#pragma once
// xtensor's containers as arrays (arrays/serializer.hpp): xt::xtensor of a fixed rank, xt::xarray
// of a rank known at run time (its extents travel as a sequence, so data of any rank reads into
// it), in any layout, and their adaptors over the user's memory (xt::adapt). A container is
// resized to the data's extents, keeping its layout; an adaptor whose size is fixed is read into
// only at its own extents. Views with a data interface (xt::view of ranges and indices,
// xt::strided_view, xt::transpose) are arrays too: written from the memory they look at, gathered
// when their steps are not contiguous, and read into in place at their own extents. A view that
// picks elements one by one (xt::keep, xt::drop) or computes them has no memory to point at and
// is not an array.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <xtensor/xcontainer.hpp>
#include <xtensor/xexpression.hpp>

#include "bale/arrays/serializer.hpp"
#include "bale/arrays/shape.hpp"

namespace bale::detail {

/// An xtensor container or adaptor: elements at data() + data_offset() with strides().
template <class T>
concept xtensor_strided = std::derived_from<T, xt::xstrided_container<T>>;

/// An xtensor view over memory: its elements too are at data() + data_offset() with strides().
template <class T>
concept xtensor_memory_view =
    !xtensor_strided<T> && xt::is_xexpression<T>::value && requires(T & t) {
  { t.data() } -> std::convertible_to<const void*>;
  t.data_offset();
  t.strides();
  t.shape();
  t.dimension();
};

/// The rank of an xtensor expression: its shape's length when the type fixes it (xt::xtensor and
/// views of it), else bale::dynamic_rank (xt::xarray and views of it).
template <class T>
constexpr std::size_t xtensor_rank() {
  using shape = std::remove_cvref_t<decltype(std::declval<const T&>().shape())>;
  if constexpr (requires { std::tuple_size<shape>::value; })
    return std::tuple_size_v<shape>;
  else
    return dynamic_rank;
}

template <std::size_t Rank, class T>
array_extents<Rank> xtensor_extents(const T& t) {
  auto result = extents_of_rank<Rank>(t.dimension());
  for (std::size_t k = 0; k < result.size(); ++k)
    result[k] = static_cast<std::uint64_t>(t.shape()[k]);
  return result;
}

template <std::size_t Rank, class T>
array_strides<Rank> xtensor_strides(const T& t) {
  auto result = zero_per_index<std::ptrdiff_t, Rank>(t.dimension());
  for (std::size_t k = 0; k < result.size(); ++k)
    result[k] = static_cast<std::ptrdiff_t>(t.strides()[k]);
  return result;
}

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
  static array_extents<rank> extents(const T& t) { return detail::xtensor_extents<rank>(t); }
  static array_strides<rank> strides(const T& t) { return detail::xtensor_strides<rank>(t); }
};

template <detail::xtensor_memory_view T>
struct array_traits<T> {
  using element_type = std::remove_pointer_t<decltype(std::declval<T&>().data())>;
  static constexpr std::size_t rank = detail::xtensor_rank<T>();

  static array_ref<const element_type, rank> view(const T& t) {
    return {t.data() + t.data_offset(), detail::xtensor_extents<rank>(t),
            detail::xtensor_strides<rank>(t)};
  }
  static bool holds(const T& t, const array_extents<rank>& wanted) {
    return detail::xtensor_extents<rank>(t) == wanted;
  }
  static array_ref<element_type, rank> reshape(T& t, const array_extents<rank>&) {
    return {t.data() + t.data_offset(), detail::xtensor_extents<rank>(t),
            detail::xtensor_strides<rank>(t)};
  }
};

}  // namespace bale
