// SPDX-License-Identifier: BSL-1.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace bale::detail {

/// Which object's body each object of a message was met in, for messages where an observer met an
/// object before its owner. The owner, met later, claims that object; a claim made inside a body
/// the object itself owns, through any chain of owning pointers, would make the object own itself
/// and never be freed, so it must be refused. The objects form trees of ownership; a union-find
/// over them answers "does this object own that body?" in near-constant time, so hostile input
/// cannot make the check quadratic.
class ownership_forest {
 public:
  /// Stands for "outside every body" (the message's own values).
  static constexpr std::size_t outside = static_cast<std::size_t>(-1);
  /// What the forest keeps per object, once started.
  static constexpr std::size_t bytes_per_object = 3 * sizeof(std::uint32_t);

  bool started() const noexcept { return !link_.empty(); }
  /// Starts with object `first`, the first an observer made: the objects before it stay out of
  /// the forest, since an object is met after the bodies that own it and so can never be owned
  /// by one made later.
  void start(std::size_t first) {
    first_ = first;
    link_.assign(1, 0);  // node 0: outside, and every object before `first`
    head_.assign(1, 0);
    size_.assign(1, 1);
  }
  /// Enters object `number` (the next one), met inside the body of object `body` (or outside) by
  /// an owning pointer (`owned`) or by an observer, which leaves it heading a tree of its own.
  void enter(std::size_t number, std::size_t body, bool owned) {
    const auto node = static_cast<std::uint32_t>(number - first_ + 1);
    link_.push_back(node);
    head_.push_back(node);
    size_.push_back(1);
    if (owned) join(node, body);
  }
  /// Whether object `number`, which an observer made and nothing has claimed yet, owns the body
  /// of object `body` (or is that object).
  bool owns(std::size_t number, std::size_t body) noexcept {
    return head_[find(node_of(body))] == node_of(number);
  }
  /// An owning pointer inside the body of object `body` (or outside) claims object `number`.
  void claim(std::size_t number, std::size_t body) noexcept { join(node_of(number), body); }

 private:
  std::uint32_t node_of(std::size_t number) const noexcept {
    return number == outside || number < first_ ? 0
                                                : static_cast<std::uint32_t>(number - first_ + 1);
  }
  std::uint32_t find(std::uint32_t node) noexcept {
    while (link_[node] != node) {
      link_[node] = link_[link_[node]];  // path halving
      node = link_[node];
    }
    return node;
  }
  /// Hangs the tree headed by `node` below the body of object `body`.
  void join(std::uint32_t node, std::size_t body) noexcept {
    std::uint32_t child = find(node);
    std::uint32_t parent = find(node_of(body));
    const std::uint32_t head = head_[parent];
    if (size_[child] > size_[parent]) std::swap(child, parent);  // union by size
    link_[child] = parent;
    size_[parent] += size_[child];
    head_[parent] = head;
  }

  std::size_t first_ = 0;
  std::vector<std::uint32_t> link_;  // union-find parent
  std::vector<std::uint32_t> head_;  // per set: the node heading its tree of ownership
  std::vector<std::uint32_t> size_;  // per set: how many nodes
};

}  // namespace bale::detail
