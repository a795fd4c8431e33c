// SPDX-License-Identifier: BSL-1.0
#pragma once
// An owning array of the tests' own in either layout, adapted through bale::array_traits as a user
// would adapt theirs, and an mdspan-shaped view with strides of its own.

#include <bale/arrays/serializer.hpp>

#include <array>
#include <cstddef>
#include <vector>

namespace {

/// An owning array of fixed rank in either layout, as a user's own array type might be.
template <class T, std::size_t Rank, bale::array_layout Layout = bale::array_layout::row_major>
struct grid {
  bale::array_extents<Rank> extents{};
  std::vector<T> elements;

  T& at(const bale::array_extents<Rank>& index) {
    const auto strides = bale::detail::contiguous_strides<Rank>(extents, Layout);
    std::ptrdiff_t offset = 0;
    for (std::size_t k = 0; k < Rank; ++k)
      offset += static_cast<std::ptrdiff_t>(index[k]) * strides[k];
    return elements[static_cast<std::size_t>(offset)];
  }
  bool operator==(const grid&) const = default;
};

template <class T, std::size_t Rank, bale::array_layout Layout>
grid<T, Rank, Layout> counting_grid(const bale::array_extents<Rank>& extents) {
  grid<T, Rank, Layout> g{extents, {}};
  std::size_t count = 1;
  for (auto e : extents) count *= e;
  g.elements.resize(count);
  for (std::size_t i = 0; i < count; ++i) g.elements[i] = static_cast<T>(i * 3 + 1);
  return g;
}

/// A view of the tests' own with std::mdspan's members: extents and strides of its own.
template <class T, std::size_t Rank>
struct strided_view {
  using element_type = T;
  T* data = nullptr;
  std::array<std::size_t, Rank> extents{};
  std::array<std::ptrdiff_t, Rank> strides{};
  static constexpr std::size_t rank() { return Rank; }
  std::size_t extent(std::size_t k) const { return extents[k]; }
  std::ptrdiff_t stride(std::size_t k) const { return strides[k]; }
  T* data_handle() const { return data; }
};

}  // namespace

template <class T, std::size_t Rank, bale::array_layout Layout>
struct bale::array_traits<grid<T, Rank, Layout>> {
  using element_type = T;
  static constexpr std::size_t rank = Rank;
  using array = grid<T, Rank, Layout>;

  static array_ref<const T, Rank> view(const array& g) {
    return {g.elements.data(), g.extents, detail::contiguous_strides<Rank>(g.extents, Layout)};
  }
  static bool holds(const array&, const array_extents<Rank>&) { return true; }
  static array_ref<T, Rank> reshape(array& g, const array_extents<Rank>& extents) {
    std::size_t count = 0;
    (void)detail::element_count<T>(extents, count);
    g.extents = extents;
    g.elements.resize(count);
    return {g.elements.data(), extents, detail::contiguous_strides<Rank>(extents, Layout)};
  }
};
