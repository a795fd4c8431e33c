// SPDX-License-Identifier: BSL-1.0
#pragma once
// The few range concepts bale needs, from <iterator> alone: <ranges> (the views) costs a user's
// every translation unit more to compile than the rest of bale's core.

#include <iterator>
#include <utility>

namespace bale::detail {

template <class R>
using iterator_of = decltype(std::ranges::begin(std::declval<R&>()));

/// Elements stored one after another, with a size: vector, string, array, span, C array.
template <class R>
concept contiguous_sized_range = requires(R& r) {
  std::ranges::begin(r);
  std::ranges::data(r);
  std::ranges::size(r);
}
&&std::contiguous_iterator<iterator_of<R>>;

template <class R>
concept random_access_range = requires(R& r) {
  std::ranges::begin(r);
}
&&std::random_access_iterator<iterator_of<R>>;

template <class R>
using range_value_of = std::iter_value_t<iterator_of<R>>;

template <class R>
using range_reference_of = std::iter_reference_t<iterator_of<R>>;

}  // namespace bale::detail
