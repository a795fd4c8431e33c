// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which objects of a message outlive its read. An object lives on when a chain of owning pointers
// (unique_ptr, owning_ptr, shared_ptr; never weak_ptr or observer) leads to it from the values the
// call returns; one that no chain reaches is freed when the read returns (an observer of it would
// dangle), and one on a cycle of owning pointers is never freed (every such message would leak).
// Each object's first owner costs 4 bytes as it is read; every later owner 8; the check walks
// the owners once, linearly, when the message ends.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace bale::detail {

class owner_graph {
 public:
  /// Stands for "the values the call returns" as a body: see body_queue::current().
  static constexpr std::size_t outside = static_cast<std::size_t>(-1);

  /// The next object enters, read by a pointer in the body of object `body` (or outside): an
  /// owning one, or one that does not own it (an observer, a weak_ptr).
  void enter(std::size_t body, bool owned) { first_.push_back(owned ? code(body) : nobody); }
  /// A pointer in the body of object `body` (or outside) owns object `number`, which exists.
  void own(std::size_t number, std::size_t body) {
    if (first_[number] == nobody)
      first_[number] = code(body);
    else
      later_.push_back({code(body), static_cast<std::uint32_t>(number)});
  }

  /// The first of `objects` that no chain of owners from outside reaches, if one is.
  std::optional<std::size_t> unreachable(std::span<const std::size_t> objects) const {
    const edges e = build();
    std::vector<bool> reached(first_.size() + 1);
    std::vector<std::uint32_t> todo{root()};
    reached[root()] = true;
    while (!todo.empty()) {
      const std::uint32_t n = todo.back();
      todo.pop_back();
      for (std::uint32_t k = e.start[n]; k < e.start[n + 1]; ++k)
        if (!reached[e.to[k]]) {
          reached[e.to[k]] = true;
          todo.push_back(e.to[k]);
        }
    }
    for (const std::size_t number : objects)
      if (!reached[number]) return number;
    return std::nullopt;
  }

  /// An object on (or owned from) a cycle of owning pointers, if there is one. Only an owner met
  /// after its object was read can close a cycle: without one, no walk is needed.
  std::optional<std::size_t> on_cycle() const {
    if (later_.empty()) return std::nullopt;
    const edges e = build();
    std::vector<std::uint32_t> owners(first_.size() + 1);
    for (const std::uint32_t to : e.to) ++owners[to];
    std::vector<std::uint32_t> free_of_cycles;
    for (std::uint32_t n = 0; n <= first_.size(); ++n)
      if (owners[n] == 0) free_of_cycles.push_back(n);
    std::size_t done = 0;
    while (!free_of_cycles.empty()) {  // Kahn: peel off objects no remaining owner holds
      const std::uint32_t n = free_of_cycles.back();
      free_of_cycles.pop_back();
      ++done;
      for (std::uint32_t k = e.start[n]; k < e.start[n + 1]; ++k)
        if (--owners[e.to[k]] == 0) free_of_cycles.push_back(e.to[k]);
    }
    if (done == first_.size() + 1) return std::nullopt;
    for (std::size_t n = 0; n < first_.size(); ++n)
      if (owners[n] != 0) return n;
    return std::nullopt;
  }

 private:
  static constexpr std::uint32_t nobody = 0xFFFFFFFFu;
  static constexpr std::uint32_t outside_code = 0xFFFFFFFEu;
  static std::uint32_t code(std::size_t body) noexcept {
    return body == outside ? outside_code : static_cast<std::uint32_t>(body);
  }
  std::uint32_t root() const noexcept { return static_cast<std::uint32_t>(first_.size()); }
  std::uint32_t node(std::uint32_t body_code) const noexcept {
    return body_code == outside_code ? root() : body_code;
  }

  // Owner to owned, grouped by owner (nodes 0..n-1 are objects, node n is outside).
  struct edges {
    std::vector<std::uint32_t> start;
    std::vector<std::uint32_t> to;
  };
  template <class Each>
  void each_edge(Each&& each) const {
    for (std::size_t n = 0; n < first_.size(); ++n)
      if (first_[n] != nobody) each(node(first_[n]), static_cast<std::uint32_t>(n));
    for (const auto& [body, number] : later_) each(node(body), number);
  }
  edges build() const {
    edges e;
    e.start.assign(first_.size() + 2, 0);
    each_edge([&](std::uint32_t from, std::uint32_t) { ++e.start[from + 1]; });
    for (std::size_t n = 1; n < e.start.size(); ++n) e.start[n] += e.start[n - 1];
    e.to.resize(e.start.back());
    std::vector<std::uint32_t> fill(e.start.begin(), e.start.end() - 1);
    each_edge([&](std::uint32_t from, std::uint32_t to) { e.to[fill[from]++] = to; });
    return e;
  }

  std::vector<std::uint32_t> first_;                            // per object: its first owner
  std::vector<std::pair<std::uint32_t, std::uint32_t>> later_;  // (owner, object) after that
};

}  // namespace bale::detail
