// SPDX-License-Identifier: BSL-1.0
#pragma once
// How deep a read or a write is, shared by every archive of one call. Reading and writing count
// levels the same way, so a value that writes also reads back under the same limits.
//
// A level is entered by every container, every type described by hand (its own serialize, or
// save and load), a present optional and a variant. MessagePack and JSON also count tuples and
// reflected objects (arrays and maps there); in binary and compact their nesting is fixed by their
// types, so any recursion passes through a counted level. An optional or a variant wraps one
// value: that value's own level, entered next, counts with it, so an optional vector is one level,
// not two. A level that was counted with its wrapper does not pass the favour on, so at least
// every other level of any chain is counted and the stack a decode uses stays bounded by the
// limit, whatever the types.

#include <cstddef>
#include <utility>

namespace bale::detail {

class nesting_state {
 public:
  explicit nesting_state(std::size_t max_depth) noexcept : max_depth_(max_depth) {}

  bool try_enter() noexcept { return ++depth_ <= max_depth_; }
  void leave() noexcept { --depth_; }
  std::size_t depth() const noexcept { return depth_; }
  std::size_t max_depth() const noexcept { return max_depth_; }

  /// Whether the level being entered is the value of a wrapper entered just before (and is
  /// counted with it); asking clears it.
  bool take_wrapped() noexcept { return std::exchange(wrapped_, false); }
  void set_wrapped(bool wrapped) noexcept { wrapped_ = wrapped; }

 private:
  std::size_t max_depth_;
  std::size_t depth_ = 0;
  bool wrapped_ = false;
};

}  // namespace bale::detail
