// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which objects of a message outlive its read. An object lives on when a chain of owning pointers
// (unique_ptr, owning_ptr, shared_ptr; never weak_ptr or observer) leads to it from the values the
// call returns; one that no chain reaches is freed when the read returns (an observer of it would
// dangle), and one on a cycle of owning pointers is never freed (every such message would leak).
// Each object's first owner costs 4 bytes as it is read, every later owner 8. A pointer that would
// close a cycle of owners is refused as it is read, before it takes hold (graph/owner_links.hpp
// searches for the chain, within a number of steps proportional to the message's pointers). When
// the message ends, observed objects are proven owned through their first owners; all the owners
// are walked, once and linearly, only when that fails.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "bale/graph/owner_links.hpp"

namespace bale::detail {

class owner_graph {
 public:
  /// Stands for "the values the call returns" as a body: see body_queue::current().
  static constexpr std::size_t outside = static_cast<std::size_t>(-1);
  /// The most objects it numbers (31 bits, less its two marks), whatever limits::max_objects says.
  static constexpr std::size_t max_objects = 0x7FFFFFFEu;

  /// What a new owner of an existing object does: nothing wrong, close a cycle of owners, or
  /// need more steps to tell than the message's size pays for.
  enum class new_owner : std::uint8_t { fine, closes_cycle, too_tangled };

  /// The next object enters, read by a pointer in the body of object `body` (or outside): an
  /// owning one, or one that does not own it (an observer, a weak_ptr).
  void enter(std::size_t body, bool owned) {
    first_.push_back(owned ? code(body) : nobody);
    if (owned && body != outside) first_[body] |= owns_others;
    if (linked_) {
      links_.resize(first_.size());
      if (owned && body != outside) links_.add(code(body), root() - 1);
    }
  }
  /// A pointer in the body of object `body` (or outside) owns object `number`, which exists.
  /// With `check`, says whether that closes a cycle of owners, before the pointer takes hold (so
  /// that refusing it leaves nothing that keeps itself alive).
  new_owner own(std::size_t number, std::size_t body, bool check) {
    new_owner verdict = new_owner::fine;
    if (body != outside) {
      first_[body] |= owns_others;
      // Bodies are read in the order their objects were made, so an object made after this body
      // has not had its own body read: it owns nothing yet, and cannot lead back here.
      if (check && number <= body && (first_[number] & owns_others) != 0)
        verdict = search(static_cast<std::uint32_t>(number), static_cast<std::uint32_t>(body));
    }
    if (owner_of(number) == nobody) {
      first_[number] = code(body) | (first_[number] & owns_others);
    } else {
      later_.push_back({code(body), static_cast<std::uint32_t>(number)});
      if (later_owned_.size() <= number) later_owned_.resize(first_.size());
      later_owned_[number] = true;
    }
    if (linked_ && body != outside)
      links_.add(static_cast<std::uint32_t>(body), static_cast<std::uint32_t>(number));
    return verdict;
  }

  /// The first of `objects` that no chain of owners from outside reaches, if one is.
  std::optional<std::size_t> unreachable(std::span<const std::size_t> objects) const {
    std::vector<std::uint8_t> proven(first_.size());  // 0 unknown, 1 owned from outside, 2 not
    std::vector<std::uint32_t> chain;
    for (const std::size_t number : objects) {
      auto n = static_cast<std::uint32_t>(number);
      chain.clear();
      while (proven[n] == 0 && owner_of(n) != nobody && owner_of(n) != outside_code) {
        proven[n] = 2;  // on the chain being walked: met again, the chain is a loop
        chain.push_back(n);
        n = owner_of(n);
      }
      const bool owned = proven[n] == 1 || (proven[n] == 0 && owner_of(n) == outside_code);
      if (!owned) return unreachable_by_any_owner(objects);
      proven[n] = 1;
      for (const std::uint32_t c : chain) proven[c] = 1;
    }
    return std::nullopt;
  }

 private:
  // first_ holds an object's first owner in its low 31 bits, and whether it owns others in bit 31.
  static constexpr std::uint32_t owns_others = 0x80000000u;
  static constexpr std::uint32_t nobody = 0x7FFFFFFFu;
  static constexpr std::uint32_t outside_code = 0x7FFFFFFEu;
  std::uint32_t owner_of(std::size_t number) const noexcept {
    return first_[number] & ~owns_others;
  }
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
      if (owner_of(n) != nobody) each(node(owner_of(n)), static_cast<std::uint32_t>(n));
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

  // Every owner followed from outside: the first of `objects` never reached.
  std::optional<std::size_t> unreachable_by_any_owner(std::span<const std::size_t> objects) const {
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

  std::vector<std::uint32_t> first_;                            // per object: its first owner
  std::vector<std::pair<std::uint32_t, std::uint32_t>> later_;  // (owner, object) after that
  // Whether `number` owns `body` through a chain of owners, within the steps the message pays
  // for: a fixed allowance and 64 per object and per owner.
  new_owner search(std::uint32_t number, std::uint32_t body) {
    // Most often the holder's owners are its first owners all the way up (none of them has a
    // later owner): then `number` owns it only if it is one of them.
    std::uint32_t x = body;
    for (int step = 0; step < 64 && !has_later_owner(x); ++step) {
      if (x == number) return new_owner::closes_cycle;
      x = owner_of(x);
      if (x == nobody || x == outside_code) return new_owner::fine;
    }
    if (!linked_) link_all();
    const std::size_t allowed = 4096 + 64 * (first_.size() + later_.size());
    std::size_t steps = allowed - spent_;
    const owner_links::found f = links_.reaches(number, body, steps);
    spent_ = allowed - steps;
    if (f == owner_links::found::chain) return new_owner::closes_cycle;
    return f == owner_links::found::none ? new_owner::fine : new_owner::too_tangled;
  }
  // Starts following owners both ways: the links of every owner so far.
  void link_all() {
    linked_ = true;
    links_.resize(first_.size());
    each_edge([&](std::uint32_t from, std::uint32_t to) {
      if (from != root()) links_.add(from, to);
    });
  }

  bool has_later_owner(std::uint32_t number) const noexcept {
    return number < later_owned_.size() && later_owned_[number];
  }

  std::vector<bool> later_owned_;  // per object: whether it has a later owner
  owner_links links_;              // every owner both ways, from the first search that needs it
  bool linked_ = false;
  std::size_t spent_ = 0;  // steps the searches took
};

}  // namespace bale::detail
