// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the container adapters share: writing a sized range, and reading into containers that grow
// at the back, that are associative, or that hold trivially copyable elements contiguously.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <utility>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/ranges.hpp"
#include "bale/types/detail/element_inserter.hpp"
#include "bale/types/detail/node_cost.hpp"

namespace bale::detail {

/// Calls f on each element. In a node-based container (list, set, map and their unordered forms)
/// the next node is fetched from memory while f works on the current one: walking the nodes one
/// dependent load at a time, not the work on each, is what bounds writing a large one.
template <class Range, class F>
void for_each_element(const Range& range, F&& f) {
  if constexpr (random_access_range<const Range>) {
    for (const auto& element : range) f(element);
  } else {
    const auto end = std::ranges::end(range);
    for (auto it = std::ranges::begin(range); it != end; ++it) {
#if defined(__GNUC__)
      if (const auto next = std::next(it); next != end) __builtin_prefetch(std::addressof(*next));
#endif
      f(*it);
    }
  }
}

/// How many elements of a node container a sizing pass that may estimate walks (size_counter).
inline constexpr std::size_t sampled_elements = 64;

/// for_each_element over the `count` elements of a range being written. A sizing pass for a
/// buffer that can grow (size_counter::may_estimate) walks only the first elements of a large
/// node container and counts the rest as their average: walking the nodes, not the work on each,
/// bounds writing one, and the writing pass walks them anyway.
template <class Archive, class Range, class F>
void save_elements(Archive& ar, const Range& range, std::size_t count, F&& f) {
  if constexpr (!random_access_range<const Range> &&
                requires { ar.sink().estimate_rest(count, count, count); }) {
    if (count > sampled_elements && ar.sink().may_estimate()) {
      const std::size_t before = ar.sink().size();
      auto it = std::ranges::begin(range);
      std::size_t walked = 0;
      for (; walked < sampled_elements && it != std::ranges::end(range); ++it, ++walked) f(*it);
      ar.sink().estimate_rest(ar.sink().size() - before, walked, count);
      return;
    }
  }
  for_each_element(range, f);
}

template <class Archive, class Range>
[[gnu::always_inline]] inline void save_range(Archive& ar, const Range& range, std::size_t count) {
  if constexpr (contiguous_sized_range<const Range>) {
    ar.write_contiguous_sequence(std::ranges::data(range), count);
  } else {
    ar.write_sequence(
        count, [&] { save_elements(ar, range, count, [&](const auto& element) { ar(element); }); });
  }
}

template <class Archive, class Range>
[[gnu::always_inline]] inline void save_range(Archive& ar, const Range& range) {
  save_range(ar, range, std::ranges::size(range));
}

// Copies n trivially copyable elements from the wire into a vector-like container in one pass:
// assign() from a typed range copies without first zero-filling, where the input is aligned.
template <class T, class Container>
void assign_trivially(Container& container, const std::byte* source, std::size_t count) {
  if (reinterpret_cast<std::uintptr_t>(source) % alignof(T) == 0) {
    const T* first = reinterpret_cast<const T*>(source);
    container.assign(first, first + count);
  } else {
    container.resize(count);
    if (count != 0) std::memcpy(container.data(), source, count * sizeof(T));
  }
}

/// A callback that reserves room for n elements where the container can.
template <class Container>
auto reserve_hint(Container& container) {
  if constexpr (requires(std::size_t n) { container.reserve(n); })
    return [&container](std::size_t count) { container.reserve(count); };
  else
    return [](std::size_t) {};
}

/// The target of read_sequence_into for a container with resize(): each resize keeps the elements
/// read so far, as the contract asks.
template <class Container>
class resize_target {
 public:
  explicit resize_target(Container& container) noexcept : container_(container) {}
  auto* resize(std::size_t count) {
    ++resizes_;
    container_.resize(count);
    return std::ranges::data(container_);
  }
  /// More than one resize means the room grew ahead of the elements (a format that learns the
  /// count only at the end), not that it came from the count.
  bool grew_ahead() const noexcept { return resizes_ > 1; }

 private:
  Container& container_;
  std::size_t resizes_ = 0;
};

/// vector, deque, list (Kind: how list allocates its nodes). Contiguous containers are read in
/// place (so a format may decode the whole run at once); others grow at the back, the count only a
/// hint.
template <node_kind Kind = node_kind::none, class Archive, class Container>
void load_back(Archive& ar, Container& container) {
  using T = typename Container::value_type;
  if constexpr (contiguous_sized_range<Container>) {
    resize_target target(container);
    ar.template read_sequence_into<T>(target);
    if constexpr (requires { container.shrink_to_fit(); }) {
      // Room grown ahead of the elements and more than twice what they need is given back;
      // capacity the container had before the read is kept.
      if (target.grew_ahead() && container.capacity() > 2 * container.size() + 8)
        container.shrink_to_fit();
    }
  } else {
    container.clear();
    ar.template read_sequence<T>(reserve_hint(container), [&](auto& element_ar) {
      if constexpr (node_overhead<Kind, T>() != 0)
        charge_allocation(element_ar, 1, node_overhead<Kind, T>());
      element_ar(container.emplace_back());
    });
  }
}

/// set, multiset and their unordered forms.
template <class Archive, class Container>
void load_set(Archive& ar, Container& container) {
  using T = typename Container::value_type;
  container.clear();
  element_inserter<Archive, Container, T> inserter(ar, container);
  ar.template read_sequence<T>(
      [&](std::size_t count) { inserter.expect(count); },
      [&](auto& element_ar) { inserter.add([&](T& element) { element_ar(element); }); });
  inserter.finish();
}

template <class Archive, class Map>
void save_map(Archive& ar, const Map& map) {
  ar.template write_map<typename Map::key_type>(map.size(), [&] {
    save_elements(ar, map, map.size(),
                  [&](const auto& entry) { ar.write_map_entry(entry.first, entry.second); });
  });
}

/// map, multimap and their unordered forms.
template <class Archive, class Map>
void load_map(Archive& ar, Map& map) {
  using K = typename Map::key_type;
  using V = typename Map::mapped_type;
  map.clear();
  element_inserter<Archive, Map, std::pair<K, V>> inserter(ar, map);
  ar.template read_map<std::pair<K, V>>([&](std::size_t count) { inserter.expect(count); },
                                        [&](auto& entry_ar) {
                                          inserter.add([&](std::pair<K, V>& entry) {
                                            entry_ar.read_map_entry(entry.first, entry.second);
                                          });
                                        });
  inserter.finish();
}

}  // namespace bale::detail
