// SPDX-License-Identifier: BSL-1.0
#pragma once
// The shape of an array of any rank, as bale sees it: extents, the stride of each index in memory
// and the order the elements are stored in. No archive here: only the arithmetic that the array
// serializer (arrays/serializer.hpp) and the adapters share.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "bale/reflect/enum_names.hpp"

namespace bale {

/// The order of an array's elements on the wire. Row-major (C) runs the last index fastest,
/// column-major (Fortran, Eigen's default) the first.
enum class array_layout : std::uint8_t { row_major = 0, column_major = 1 };
BALE_ENUM_NAMES(array_layout, row_major, column_major)

/// The rank of an array type whose rank is known only at run time (xt::xarray).
inline constexpr std::size_t dynamic_rank = std::numeric_limits<std::size_t>::max();

namespace detail {

template <class Value, std::size_t Rank>
using per_index = std::conditional_t<Rank == dynamic_rank, std::vector<Value>,
                                     std::array<Value, Rank == dynamic_rank ? 0 : Rank>>;

}  // namespace detail

/// Extents as they travel: one 64-bit count per index.
template <std::size_t Rank>
using array_extents = detail::per_index<std::uint64_t, Rank>;
/// Strides in elements, as memory holds them (negative for a reversed index).
template <std::size_t Rank>
using array_strides = detail::per_index<std::ptrdiff_t, Rank>;

/// An array in memory: the element at index (i0, i1, ...) is data[i0 * strides[0] + ...].
template <class Element, std::size_t Rank>
struct array_ref {
  Element* data = nullptr;
  array_extents<Rank> extents{};
  array_strides<Rank> strides{};
};

namespace detail {

/// One value per index, zero each: `rank` of them where the rank is dynamic, Rank otherwise.
template <class Value, std::size_t Rank>
per_index<Value, Rank> zero_per_index(std::size_t rank) {
  if constexpr (Rank == dynamic_rank)
    return per_index<Value, Rank>(rank);
  else
    return {};
}
template <std::size_t Rank>
array_extents<Rank> extents_of_rank(std::size_t rank) {
  return zero_per_index<std::uint64_t, Rank>(rank);
}

/// Strides of elements stored contiguously in `layout`.
template <std::size_t Rank>
array_strides<Rank> contiguous_strides(const array_extents<Rank>& extents, array_layout layout) {
  auto strides = zero_per_index<std::ptrdiff_t, Rank>(extents.size());
  std::ptrdiff_t step = 1;
  const std::size_t rank = extents.size();
  for (std::size_t n = 0; n < rank; ++n) {
    const std::size_t k = layout == array_layout::row_major ? rank - 1 - n : n;
    strides[k] = step;
    step *= static_cast<std::ptrdiff_t>(extents[k]);
  }
  return strides;
}

/// Whether the elements lie contiguously in `layout`. An index of extent 1 may have any stride
/// (xtensor gives it 0), and an empty array is contiguous in every layout.
template <class Element, std::size_t Rank>
bool contiguous_in(const array_ref<Element, Rank>& array, array_layout layout) {
  const auto wanted = contiguous_strides<Rank>(array.extents, layout);
  bool empty = false;
  for (std::size_t k = 0; k < array.extents.size(); ++k) empty |= array.extents[k] == 0;
  if (empty) return true;
  for (std::size_t k = 0; k < array.extents.size(); ++k)
    if (array.extents[k] != 1 && array.strides[k] != wanted[k]) return false;
  return true;
}

/// The layout the elements lie contiguously in (row-major where both hold, as for rank 0 or 1),
/// or none: what a writer tags the elements with, or that they must be gathered.
template <class Element, std::size_t Rank>
std::optional<array_layout> stored_layout(const array_ref<Element, Rank>& array) {
  if (contiguous_in(array, array_layout::row_major)) return array_layout::row_major;
  if (contiguous_in(array, array_layout::column_major)) return array_layout::column_major;
  return std::nullopt;
}

/// The layout whose fastest index steps least through memory: the order that walks strided
/// elements (a block of a larger matrix, a slice) in the longest runs.
template <class Element, std::size_t Rank>
array_layout nearest_layout(const array_ref<Element, Rank>& array) {
  if (const auto stored = stored_layout(array)) return *stored;
  const std::size_t rank = array.extents.size();
  const auto step = [](std::ptrdiff_t stride) { return stride < 0 ? -stride : stride; };
  return step(array.strides[0]) < step(array.strides[rank - 1]) ? array_layout::column_major
                                                                : array_layout::row_major;
}

/// The same elements with the order of their indices reversed: a row-major walk of it is a
/// column-major walk of `array`.
template <class Element, std::size_t Rank>
array_ref<Element, Rank> reversed(array_ref<Element, Rank> array) {
  std::reverse(array.extents.begin(), array.extents.end());
  std::reverse(array.strides.begin(), array.strides.end());
  return array;
}

/// The number of elements, or false when the extents cannot be held in memory: the product of
/// the extents, an empty one counted as 1, must fit in a signed size in bytes (so every stride and
/// offset does too).
template <class Element, class Extents>
bool element_count(const Extents& extents, std::size_t& count) {
  constexpr auto limit =
      static_cast<std::uint64_t>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(Element);
  std::uint64_t product = 1, nonempty_product = 1;
  for (const std::uint64_t e : extents) {
    if (e != 0 && nonempty_product > limit / e) return false;
    nonempty_product *= e != 0 ? e : 1;
    product *= e;
  }
  const std::uint64_t total = product;  // fits: total <= nonempty_product <= limit
  count = static_cast<std::size_t>(total);
  return true;
}

/// Walks the indices of an array of `extents` in row-major order (the last index fastest) and
/// calls visit(a, b) with the element's offset under strides `a` and under strides `b`.
template <std::size_t Rank, class Visit>
void walk_row_major(const array_extents<Rank>& extents, const array_strides<Rank>& a,
                    const array_strides<Rank>& b, Visit&& visit) {
  const std::size_t rank = extents.size();
  for (const std::uint64_t e : extents)
    if (e == 0) return;
  if (rank == 0) {
    visit(std::ptrdiff_t{0}, std::ptrdiff_t{0});
    return;
  }
  auto index = extents_of_rank<Rank>(rank);
  const auto last_extent = static_cast<std::ptrdiff_t>(extents[rank - 1]);
  std::ptrdiff_t row_a = 0, row_b = 0;
  for (;;) {
    for (std::ptrdiff_t i = 0; i < last_extent; ++i)
      visit(row_a + i * a[rank - 1], row_b + i * b[rank - 1]);
    // The next row: an odometer over every index but the last.
    std::size_t k = rank - 1;
    for (;;) {
      if (k == 0) return;
      --k;
      row_a += a[k];
      row_b += b[k];
      if (++index[k] < extents[k]) break;
      const auto turns = static_cast<std::ptrdiff_t>(index[k]);
      row_a -= a[k] * turns;
      row_b -= b[k] * turns;
      index[k] = 0;
    }
  }
}

/// Copies every element of `from` to the same index of `to` (same extents, any strides): a
/// transposition when their layouts differ.
template <class Element, std::size_t Rank>
void copy_elements(const array_ref<const Element, Rank>& from, const array_ref<Element, Rank>& to) {
  walk_row_major<Rank>(from.extents, from.strides, to.strides,
                       [&](std::ptrdiff_t a, std::ptrdiff_t b) { to.data[b] = from.data[a]; });
}

}  // namespace detail
}  // namespace bale
