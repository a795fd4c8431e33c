// SPDX-License-Identifier: BSL-1.0
#pragma once
// Where the containers a self-describing reader stepped over end. A named composite (a type that
// asks for its members by name, in any order) steps over its members' values to index them, then
// reads them; each nested named composite would step over the same bytes again, once per level
// above it: depth times the input. With the ends kept while indexing, every container is stepped
// over once, and each end kept is charged to the read's budget. Small containers are not kept:
// one of at most small_bytes lies inside at most that many levels that step over it, so stepping
// over them again costs at most small_bytes times the input, and most containers are small.

#include <cstddef>
#include <unordered_map>

#include "bale/core/read_context.hpp"

namespace bale::detail {

template <class Position>
class skip_memo {
 public:
  /// Where the container starting at `start` ends, if it was stepped over before.
  Position end_of(Position start) const {
    if (ends_.empty()) return nullptr;
    const auto found = ends_.find(start);
    return found == ends_.end() ? nullptr : found->second;
  }
  /// Keeps the end of a container just stepped over, while a named composite is indexed;
  /// false when the budget cannot pay for it.
  [[nodiscard]] bool keep(read_context& context, Position start, Position end) {
    if (indexing_ == 0 || end - start <= small_bytes) return true;
    if (!context.try_charge(1, bytes_per_end)) return false;
    ends_.emplace(start, end);
    return true;
  }
  /// Around a named composite, and around the indexing of its members (a reader that threw is
  /// not used again, so these need not be exception-safe).
  void enter_composite() noexcept { ++composites_; }
  void leave_composite() {
    if (--composites_ == 0) ends_.clear();  // the outermost is read: no end is needed again
  }
  void start_indexing() noexcept { ++indexing_; }
  void stop_indexing() noexcept { --indexing_; }

 private:
  static constexpr std::ptrdiff_t small_bytes = 256;
  // A hash node holding two pointers, and its bucket.
  static constexpr std::size_t bytes_per_end = 4 * sizeof(void*);
  std::unordered_map<Position, Position> ends_;
  int composites_ = 0;
  int indexing_ = 0;
};

}  // namespace bale::detail
