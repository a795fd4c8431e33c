// SPDX-License-Identifier: BSL-1.0
#pragma once
// Eigen's dense matrices and arrays as arrays of rank 2 (arrays/serializer.hpp): Matrix and Array,
// fixed or dynamic, row- or column-major, and every expression with direct access to its
// coefficients (Map, Block, Ref, with any strides). Contiguous storage is written as one block in
// its own layout; a block or a strided map is gathered a block of elements at a time. A Matrix or
// Array is resized to the data's extents when its sizes are dynamic and refuses extents its fixed
// sizes cannot hold; a Map, Block or Ref is read into only at its own extents. A vector is a matrix
// of one column (or one row). A Map of const coefficients with no strides is read as a view into
// the input (binary), in its own storage order.

#include <Eigen/Core>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "bale/arrays/serializer.hpp"
#include "bale/arrays/shape.hpp"

namespace bale::detail {

/// An Eigen expression whose coefficients lie in memory at data() with two strides.
template <class T>
concept eigen_direct_access = std::derived_from<T, Eigen::DenseBase<T>> && requires(const T& m) {
  { m.data() } -> std::convertible_to<const typename T::Scalar*>;
  m.innerStride();
  m.outerStride();
};

// Whether a fixed size (or a fixed maximum) admits `size`.
inline bool eigen_size_fits(int fixed, int maximum, std::uint64_t size) {
  if (fixed != Eigen::Dynamic) return size == static_cast<std::uint64_t>(fixed);
  return maximum == Eigen::Dynamic || size <= static_cast<std::uint64_t>(maximum);
}

/// A Map of const, unstrided, unaligned coefficients: what a view into the input can be.
template <class T>
inline constexpr bool eigen_const_map = false;
template <class Plain>
inline constexpr bool
    eigen_const_map<Eigen::Map<const Plain, Eigen::Unaligned, Eigen::Stride<0, 0>>> = true;

}  // namespace bale::detail

namespace bale {

template <detail::eigen_direct_access T>
struct array_traits<T> {
  using element_type = std::remove_pointer_t<decltype(std::declval<T&>().data())>;
  static constexpr std::size_t rank = 2;
  static constexpr bool resizable = std::derived_from<T, Eigen::PlainObjectBase<T>>;

  static array_ref<const element_type, 2> view(const T& m) {
    return {m.data(), extents(m), strides(m)};
  }
  static bool holds(const T& m, const array_extents<2>& wanted) {
    if constexpr (resizable)
      return detail::eigen_size_fits(T::RowsAtCompileTime, T::MaxRowsAtCompileTime, wanted[0]) &&
             detail::eigen_size_fits(T::ColsAtCompileTime, T::MaxColsAtCompileTime, wanted[1]);
    else
      return extents(m) == wanted;
  }
  static array_ref<element_type, 2> reshape(T& m, const array_extents<2>& wanted) {
    if constexpr (resizable) {
      if (extents(m) != wanted)
        m.resize(static_cast<Eigen::Index>(wanted[0]), static_cast<Eigen::Index>(wanted[1]));
    }
    return {m.data(), extents(m), strides(m)};
  }
  static std::optional<T> view_over(const element_type* data, const array_extents<2>& wanted,
                                    array_layout layout) requires detail::eigen_const_map<T> {
    const array_layout own = T::IsRowMajor ? array_layout::row_major : array_layout::column_major;
    // A vector's two layouts are the same memory.
    const bool same_memory = layout == own || wanted[0] <= 1 || wanted[1] <= 1;
    if (!same_memory ||
        !detail::eigen_size_fits(T::RowsAtCompileTime, T::MaxRowsAtCompileTime, wanted[0]) ||
        !detail::eigen_size_fits(T::ColsAtCompileTime, T::MaxColsAtCompileTime, wanted[1]))
      return std::nullopt;
    return T(data, static_cast<Eigen::Index>(wanted[0]), static_cast<Eigen::Index>(wanted[1]));
  }

 private:
  static array_extents<2> extents(const T& m) {
    return {static_cast<std::uint64_t>(m.rows()), static_cast<std::uint64_t>(m.cols())};
  }
  // Coefficient (i, j) is at data()[i * strides[0] + j * strides[1]].
  static array_strides<2> strides(const T& m) {
    const auto inner = static_cast<std::ptrdiff_t>(m.innerStride());
    const auto outer = static_cast<std::ptrdiff_t>(m.outerStride());
    if constexpr (T::IsRowMajor)
      return {outer, inner};
    else
      return {inner, outer};
  }
};

}  // namespace bale
