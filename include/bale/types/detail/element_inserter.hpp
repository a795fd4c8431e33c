// SPDX-License-Identifier: BSL-1.0
#pragma once
// Putting elements read one at a time into a set or a map.
// - An ordered container (set, map and their multi forms) is given its end as the hint: bale
//   writes it in order, so each element goes last in constant time, where a search from the root
//   would miss the cache on every level.
// - A hashed container (unordered_set, unordered_map and their multi forms) that has outgrown the
//   caches pays two cache misses for each element inserted in the order read: its bucket, and
//   the node that heads the list before it, which the insertion relinks. Elements of a large one
//   (a count of 32,768 or more given up front, or past the first 1,024 when the format gives no
//   count, as JSON) are therefore kept aside and inserted at the end, after one reserve, in the
//   order of their buckets (a counting sort): consecutive insertions then touch neighbouring
//   buckets and the nodes allocated just before. The elements kept aside are those the read has
//   charged to the allocation budget; they are freed before the read returns.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/types/detail/node_cost.hpp"
#include "bale/types/detail/staging.hpp"

namespace bale::detail {

template <class Container>
concept unique_keys = requires(Container& c, typename Container::value_type v) {
  { c.insert(std::move(v)).second } -> std::convertible_to<bool>;
};

template <class Container>
concept hashed_container = requires(Container& c, const typename Container::key_type& key) {
  { c.bucket(key) } -> std::convertible_to<std::size_t>;
  { c.bucket_count() } -> std::convertible_to<std::size_t>;
  c.reserve(std::size_t{});
};

template <class Container>
concept ordered_container = requires(const Container& c) {
  c.key_comp();
};

/// Inserts the elements of one read (`Element`: the set's value, or a map's std::pair<K, V>) into
/// `container`, which the caller has cleared. A key repeated in a container of unique keys is an
/// invalid_value error at the end of the repeated element, with the element's index in its path.
template <class Archive, class Container, class Element>
class element_inserter {
 public:
  /// Hashed containers: elements inserted as read before the rest are kept aside, unless the
  /// format said up front that there are fewer than bucket_order_count in all.
  static constexpr std::size_t direct_count = 1024;
  /// From this many elements on, those kept aside are inserted in bucket order; below it the
  /// container stays in the caches (about 2 MB), and the sort would cost more than it saves.
  static constexpr std::size_t bucket_order_count = 32768;
  static constexpr node_kind kind =
      hashed_container<Container> ? node_kind::hashed : node_kind::tree;

  element_inserter(Archive& ar, Container& container) noexcept : ar_(ar), container_(container) {}

  /// The element count, where the format gives it before the elements (checked against the
  /// input by then).
  void expect(std::size_t count) {
    expected_ = count;
    if constexpr (requires { container_.reserve(count); }) {
      // The bucket array is allocated here, before any node: charged first.
      charge_allocation(ar_, count, sizeof(void*));
      container_.reserve(count);
    }
  }

  /// Reads one element with read(element) and inserts it, or keeps it aside.
  template <class Read>
  void add(Read&& read) {
    charge_allocation(ar_, 1, node_overhead<kind, Element>());
    if constexpr (hashed_container<Container>) {
      if (inserted_ >= direct_count && expected_ >= bucket_order_count) [[unlikely]] {
        // Read in place: the element is moved once, into its node.
        staged_element& slot = staged_.emplace_back();
        read(slot.element);
        slot.end = ar_.offset();
        return;
      }
    }
    Element element = Element();
    read(element);
    if (!insert(std::move(element))) ar_.fail(errc::invalid_value, "duplicate key");
    ++inserted_;
  }

  /// Inserts what was kept aside. Called once, after the last element.
  void finish() {
    if constexpr (hashed_container<Container>) {
      if (staged_.empty()) return;
      container_.reserve(container_.size() + staged_.size());
      if (inserted_ + staged_.size() < bucket_order_count) {
        for (std::size_t i = 0; i < staged_.size(); ++i)
          if (!insert(std::move(staged_[i].element))) fail_repeated(i);
      } else {
        // 32-bit indices where they do: the sort's arrays are written in random order, and
        // half the size keeps more of them in the cache.
        constexpr std::size_t narrow_limit = std::numeric_limits<std::uint32_t>::max();
        if (staged_.size() < narrow_limit && container_.bucket_count() < narrow_limit)
          insert_staged_in_bucket_order<std::uint32_t>();
        else
          insert_staged_in_bucket_order<std::size_t>();
      }
      inserted_ += staged_.size();
      staged_.clear();
    }
  }

 private:
  struct staged_element {
    Element element = Element();
    std::size_t end = 0;  // the input offset just past it, for the error on a repeated key
  };

  template <class Value>
  static const auto& key_of(const Value& element) noexcept {
    if constexpr (std::is_same_v<std::remove_const_t<Value>, typename Container::key_type>)
      return element;
    else
      return element.first;
  }

  bool insert(Element&& element, bool check = true) {
    const auto emplace = [&](auto&&... arguments) {
      if constexpr (ordered_container<Container>) {
        // Usually the last element so far: constant time with this hint, and any other is
        // placed as without one.
        const std::size_t before = container_.size();
        container_.emplace_hint(container_.end(), std::move(arguments)...);
        return container_.size() != before;
      } else if constexpr (unique_keys<Container>) {
        const auto [where, inserted] = container_.emplace(std::move(arguments)...);
        if constexpr (hashed_container<Container>)
          if (inserted && check) check_collisions(where);
        return inserted;
      } else if constexpr (hashed_container<Container>) {
        insert_into_group(check, std::move(arguments)...);
        return true;
      } else {
        container_.emplace(std::move(arguments)...);
        return true;
      }
    };
    // A map's key and value passed apart, as emplace is most often called (and best inlined).
    if constexpr (std::is_same_v<Element, typename Container::key_type>)
      return emplace(element);
    else
      return emplace(element.first, element.second);
  }

  template <class First, class... Rest>
  static const First& first_of(const First& first, const Rest&...) noexcept {
    return first;
  }

  // Hash flooding: keys chosen to share a bucket (easy where the hash of an integer is itself)
  // make every insertion scan them all. A key new to its bucket is followed by a count of the
  // distinct keys there, a scan that costs what the insertion's own search just did; past
  // limits::max_bucket_keys the read fails. (Multi containers count them in walk_to_group.)
  template <class Iterator>
  void check_collisions(Iterator where) {
    const std::size_t bucket = container_.bucket(key_of(*where));
    auto it = container_.begin(bucket);
    const auto end = container_.end(bucket);
    if (it == end) return;  // never (`where` is in it); said, so the compiler sees `it` is a node
    const std::size_t limit = ar_.context().limits().max_bucket_keys;
    std::size_t distinct = 1;
    for (auto previous = it; ++it != end; previous = it) {
      if (!container_.key_eq()(key_of(*it), key_of(*previous)) && ++distinct > limit)
        ar_.fail(
            errc::element_limit,
            error_text({"more than ", limit,
                        " keys share one bucket of the hash table (keys chosen to collide?)"}));
    }
  }

  // Hashed multi containers. A library finds an element's group of equal keys by walking its
  // bucket node by node, so keys that share a bucket and repeat out of order (a, b x n, a x n)
  // would make every insertion a walk past the others. Here an element that continues the group
  // of the one before is inserted with that one as the hint, which libstdc++ places after it in
  // constant time and libc++ before it, after a walk from the bucket's head to the group. A key
  // that starts a group is looked for in its bucket first, counting the distinct keys there
  // (hash flooding) and the nodes passed. Every walk, ours and the library's, is charged; a read
  // that would walk more nodes than walked() allows fails.
  template <class... Arguments>
  void insert_into_group(bool check, Arguments&&... arguments) {
    const auto& key = first_of(arguments...);
    const auto equal = container_.key_eq();
    if (group_.started && container_.bucket_count() == group_.buckets &&
        equal(key_of(*group_.last), key)) {
      const auto it = container_.emplace_hint(group_.last, std::forward<Arguments>(arguments)...);
      if (check && std::next(it) == group_.last) walked(group_.depth);  // placed before the hint
      continue_group(it);
      return;
    }
    if (!check) {  // no bucket is crowded: no walk can be long
      continue_group(container_.emplace(std::forward<Arguments>(arguments)...));
      return;
    }
    const auto [depth, found] = walk_to_group(key);
    if (found) {
      const auto first = container_.find(key);
      walked(depth);
      const auto it = container_.emplace_hint(first, std::forward<Arguments>(arguments)...);
      if (std::next(it) == first) walked(depth);
      group_.depth = depth;
      continue_group(it);
    } else {
      const auto it = container_.emplace(std::forward<Arguments>(arguments)...);
      walked(depth);         // the library's search of the bucket
      group_.depth = depth;  // a new key lands at most this deep
      continue_group(it);
    }
  }

  // The nodes before `key`'s group in its bucket, and whether it has one; fails when a new key
  // would make more than max_bucket_keys distinct keys in the bucket.
  std::pair<std::size_t, bool> walk_to_group(const typename Container::key_type& key) {
    if (container_.empty()) return {0, false};  // perhaps no bucket yet
    const std::size_t bucket = container_.bucket(key);
    const auto equal = container_.key_eq();
    std::size_t depth = 0;
    std::size_t distinct = 1;  // the new key
    const typename Container::key_type* previous = nullptr;
    for (auto it = container_.begin(bucket), end = container_.end(bucket); it != end; ++it) {
      const auto& here = key_of(*it);
      if (equal(here, key)) {
        walked(depth);
        return {depth, true};
      }
      if (previous == nullptr || !equal(here, *previous)) ++distinct;
      previous = &here;
      ++depth;
    }
    walked(depth);
    const std::size_t limit = ar_.context().limits().max_bucket_keys;
    if (distinct > limit)
      ar_.fail(errc::element_limit,
               error_text({"more than ", limit,
                           " keys share one bucket of the hash table (keys chosen to collide?)"}));
    return {depth, false};
  }

  void continue_group(typename Container::iterator inserted) {
    group_.last = inserted;
    group_.buckets = container_.bucket_count();
    group_.started = true;
  }

  // Nodes walked: 65,536 and max_bucket_keys per element read so far.
  void walked(std::size_t nodes) {
    group_.walked += nodes;
    const std::size_t limit = ar_.context().limits().max_bucket_keys;
    const std::size_t elements = inserted_ + staged_.size() + 1;
    const std::size_t budget =
        limit > (std::numeric_limits<std::size_t>::max() - walk_base) / elements
            ? std::numeric_limits<std::size_t>::max()
            : walk_base + limit * elements;
    if (group_.walked > budget)
      ar_.fail(errc::element_limit,
               error_text({"inserting into the hash table would walk more than ", budget,
                           " nodes of its buckets (keys that share a bucket, repeated out of "
                           "order: chosen to collide?)"}));
  }
  static constexpr std::size_t walk_base = 65536;

  // The error for staged element i, as if it had been inserted as read.
  [[noreturn]] void fail_repeated(std::size_t i) const {
    try {
      ar_.fail_at(errc::invalid_value, "duplicate key", staged_[i].end);
    } catch (error& e) {
      e.prepend_index(inserted_ + i);
      throw;
    }
  }

  template <class Index>
  void insert_staged_in_bucket_order() {
    const std::size_t count = staged_.size();
    const std::size_t buckets = container_.bucket_count();
    // A counting sort by bucket; stable, so equal keys keep their order.
    std::vector<Index> bucket(count);
    std::vector<Index> next_slot(buckets + 1, 0);
    for (std::size_t i = 0; i < count; ++i) {
      bucket[i] = static_cast<Index>(container_.bucket(key_of(staged_[i].element)));
      ++next_slot[bucket[i] + 1];
    }
    // The sort counts what goes in each bucket: unless one gets more than max_bucket_keys (keys
    // chosen to collide, or repeated), no insertion needs its bucket counted.
    const std::size_t limit = ar_.context().limits().max_bucket_keys;
    bool crowded = false;
    for (std::size_t b = 0; b < buckets; ++b) crowded |= next_slot[b + 1] > limit;
    for (std::size_t b = 0; b < buckets; ++b) next_slot[b + 1] += next_slot[b];
    std::vector<Index> order(count);
    for (std::size_t i = 0; i < count; ++i) order[next_slot[bucket[i]]++] = static_cast<Index>(i);

    // The first repeated key in input order is the one reported, as if inserted as read.
    std::size_t repeated = count;
    constexpr std::size_t ahead = 8;  // the staged elements are read out of order: fetch early
    for (std::size_t k = 0; k < count; ++k) {
#if defined(__GNUC__)
      if (k + ahead < count) __builtin_prefetch(&staged_[order[k + ahead]]);
#endif
      const std::size_t i = order[k];
      if (!insert(std::move(staged_[i].element), crowded)) repeated = std::min(repeated, i);
    }
    if (repeated != count) fail_repeated(repeated);
  }

  // Where the group of equal keys being inserted is, in a hashed multi container.
  struct group_position {
    typename Container::iterator last{};  // the element inserted last
    std::size_t buckets = 0;  // the bucket count then: `last` is valid while it is the same
    std::size_t depth = 0;    // the nodes before the group in its bucket, at most
    std::size_t walked = 0;   // nodes walked by this read, ours and the library's
    bool started = false;
  };

  Archive& ar_;
  Container& container_;
  std::size_t inserted_ = 0;
  std::size_t expected_ = std::numeric_limits<std::size_t>::max();  // unknown until told
  struct nothing_staged {};
  // Only a hashed container keeps elements aside: no other compiles the staging.
  [[no_unique_address]] std::conditional_t<hashed_container<Container>, staging<staged_element>,
                                           nothing_staged>
      staged_;
  [[no_unique_address]] std::conditional_t<hashed_container<Container> && !unique_keys<Container>,
                                           group_position, nothing_staged>
      group_;
};

}  // namespace bale::detail
