// SPDX-License-Identifier: BSL-1.0
#pragma once
// boost::multi_array, multi_array_ref and their views and subarrays (a[i], a[indices[...]]) as
// arrays of any rank (arrays/serializer.hpp). Any storage order: one that is contiguous in C or
// Fortran order is written as one block, any other (a view's strides, descending indices) a block
// of elements at a time. A multi_array is resized to the data's extents, keeping its storage order;
// a ref, a view or a subarray is read into only when the extents are its own. Index bases are not
// written: the element at the first index of each dimension is the first on the wire. A
// const_multi_array_ref is read as a view into the input (binary), in either storage order.

#include <boost/multi_array.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "bale/arrays/serializer.hpp"
#include "bale/arrays/shape.hpp"

namespace bale::detail {

/// What every boost::multi_array type has: shape(), strides(), index_bases() and origin().
template <class A, class Element, std::size_t Rank>
struct boost_array_traits {
  using element_type = Element;
  static constexpr std::size_t rank = Rank;

  static array_ref<const Element, Rank> view(const A& array) {
    return {first(array), extents(array), strides(array)};
  }
  static bool holds(const A& array, const array_extents<Rank>& wanted) {
    return extents(array) == wanted;
  }
  static array_ref<Element, Rank> reshape(A& array, const array_extents<Rank>&) {
    return {first(array), extents(array), strides(array)};
  }

  static array_extents<Rank> extents(const A& array) {
    array_extents<Rank> result{};
    for (std::size_t k = 0; k < Rank; ++k) result[k] = array.shape()[k];
    return result;
  }
  static array_strides<Rank> strides(const A& array) {
    array_strides<Rank> result{};
    for (std::size_t k = 0; k < Rank; ++k) result[k] = array.strides()[k];
    return result;
  }
  // The element at the first index of every dimension: origin() is where index 0 would be.
  template <class Array>
  static auto first(Array& array) {
    auto* element = array.origin();
    for (std::size_t k = 0; k < Rank; ++k) element += array.index_bases()[k] * array.strides()[k];
    return element;
  }
};

}  // namespace bale::detail

namespace bale {

template <class T, std::size_t N, class Allocator>
struct array_traits<boost::multi_array<T, N, Allocator>>
    : detail::boost_array_traits<boost::multi_array<T, N, Allocator>, T, N> {
  using array = boost::multi_array<T, N, Allocator>;
  using base = detail::boost_array_traits<array, T, N>;

  static bool holds(const array&, const array_extents<N>&) { return true; }
  static array_ref<T, N> reshape(array& a, const array_extents<N>& extents) {
    if (base::extents(a) != extents) {
      boost::array<typename array::size_type, N> sizes;
      for (std::size_t k = 0; k < N; ++k)
        sizes[k] = static_cast<typename array::size_type>(extents[k]);
      a.resize(sizes);
    }
    return base::reshape(a, extents);
  }
};

template <class T, std::size_t N>
struct array_traits<boost::multi_array_ref<T, N>>
    : detail::boost_array_traits<boost::multi_array_ref<T, N>, T, N> {};

template <class T, std::size_t N>
struct array_traits<boost::const_multi_array_ref<T, N, const T*>>
    : detail::boost_array_traits<boost::const_multi_array_ref<T, N, const T*>, const T, N> {
  using ref = boost::const_multi_array_ref<T, N, const T*>;
  static std::optional<ref> view_over(const T* data, const array_extents<N>& extents,
                                      array_layout layout) {
    boost::array<typename ref::size_type, N> sizes;
    for (std::size_t k = 0; k < N; ++k) sizes[k] = static_cast<typename ref::size_type>(extents[k]);
    if (layout == array_layout::row_major) return ref(data, sizes, boost::c_storage_order());
    return ref(data, sizes, boost::fortran_storage_order());
  }
};

template <class T, std::size_t N, class Pointer>
struct array_traits<boost::const_multi_array_ref<T, N, Pointer>>
    : detail::boost_array_traits<boost::const_multi_array_ref<T, N, Pointer>, const T, N> {};

template <class T, std::size_t N>
struct array_traits<boost::detail::multi_array::multi_array_view<T, N>>
    : detail::boost_array_traits<boost::detail::multi_array::multi_array_view<T, N>, T, N> {};

template <class T, std::size_t N, class Pointer>
struct array_traits<boost::detail::multi_array::const_multi_array_view<T, N, Pointer>>
    : detail::boost_array_traits<boost::detail::multi_array::const_multi_array_view<T, N, Pointer>,
                                 const T, N> {};

template <class T, std::size_t N>
struct array_traits<boost::detail::multi_array::sub_array<T, N>>
    : detail::boost_array_traits<boost::detail::multi_array::sub_array<T, N>, T, N> {};

template <class T, std::size_t N, class Pointer>
struct array_traits<boost::detail::multi_array::const_sub_array<T, N, Pointer>>
    : detail::boost_array_traits<boost::detail::multi_array::const_sub_array<T, N, Pointer>,
                                 const T, N> {};

}  // namespace bale
