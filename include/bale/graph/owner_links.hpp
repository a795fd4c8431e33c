// SPDX-License-Identifier: BSL-1.0
#pragma once
// The owning pointers between a message's objects, followed both ways, to tell as a pointer is
// read whether the object it points at already owns (through any chain) the object that holds
// it: then the pointer would close a cycle that nothing frees. The search runs from both ends at
// once (the objects the pointee owns, the objects that own the holder) and stops as soon as
// either side has nothing left, so a pointer into a small part of the graph costs little however
// large the rest is. Each object costs 16 bytes and each owning pointer 16, only in messages
// whose pointers come back to objects read before them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bale::detail {

class owner_links {
 public:
  /// What a search found: a chain of owners, none, or that it ran out of the steps it was given.
  enum class found : std::uint8_t { chain, none, out_of_steps };

  /// Makes room for objects 0 to `objects` - 1.
  void resize(std::size_t objects) {
    out_.resize(objects, end);
    in_.resize(objects, end);
    down_mark_.resize(objects, 0);
    up_mark_.resize(objects, 0);
  }
  std::size_t objects() const noexcept { return out_.size(); }
  /// `owner` owns `object`.
  void add(std::uint32_t owner, std::uint32_t object) {
    const auto k = static_cast<std::uint32_t>(links_.size());
    links_.push_back({owner, object, out_[owner], in_[object]});
    out_[owner] = k;
    in_[object] = k;
  }

  /// Whether `from` owns `to` through a chain of owners (or is it), within `steps` links
  /// followed; `steps` is lowered by the links followed.
  found reaches(std::uint32_t from, std::uint32_t to, std::size_t& steps) {
    if (from == to) return found::chain;
    next_mark();
    down_.assign(1, from);
    up_.assign(1, to);
    down_mark_[from] = mark_;
    up_mark_[to] = mark_;
    for (std::size_t d = 0, u = 0; d < down_.size() && u < up_.size();) {
      // One object from each side: what the pointee owns, what owns the holder.
      if (const auto f = expand<&owning_link::next_out, &owning_link::object>(
              out_[down_[d++]], down_, down_mark_, up_mark_, steps);
          f != found::none)
        return f;
      if (const auto f = expand<&owning_link::next_in, &owning_link::owner>(
              in_[up_[u++]], up_, up_mark_, down_mark_, steps);
          f != found::none)
        return f;
    }
    return found::none;
  }

 private:
  static constexpr std::uint32_t end = 0xFFFFFFFFu;
  struct owning_link {
    std::uint32_t owner, object;
    std::uint32_t next_out, next_in;  // the owner's next link, the object's next link
  };
  // Follows the links from `first` (along Next) to the objects at their other end (Far): one the
  // other side reached closes the chain; one this side has not reached joins it.
  template <std::uint32_t owning_link::*Next, std::uint32_t owning_link::*Far>
  found expand(std::uint32_t first, std::vector<std::uint32_t>& side,
               std::vector<std::uint32_t>& marked, const std::vector<std::uint32_t>& other,
               std::size_t& steps) {
    for (std::uint32_t k = first; k != end; k = links_[k].*Next) {
      if (steps == 0) return found::out_of_steps;
      --steps;
      const std::uint32_t next = links_[k].*Far;
      if (other[next] == mark_) return found::chain;
      if (marked[next] != mark_) marked[next] = mark_, side.push_back(next);
    }
    return found::none;
  }
  // A new mark for a search: objects marked with an older one count as unseen.
  void next_mark() {
    if (++mark_ != 0) return;
    std::fill(down_mark_.begin(), down_mark_.end(), 0);
    std::fill(up_mark_.begin(), up_mark_.end(), 0);
    mark_ = 1;
  }

  std::vector<owning_link> links_;
  std::vector<std::uint32_t> out_, in_;  // per object: its first link as owner, as owned
  std::vector<std::uint32_t> down_mark_, up_mark_;
  std::vector<std::uint32_t> down_, up_;  // the two sides' objects, in the order reached
  std::uint32_t mark_ = 0;
};

}  // namespace bale::detail
