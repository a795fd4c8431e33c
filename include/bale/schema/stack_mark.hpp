// SPDX-License-Identifier: BSL-1.0
#pragma once
// How much stack a read by schema has taken: those paths recurse once per level of the writer's
// schema, with frames several times a typed read's, so max_depth alone cannot keep them within
// the thread's stack. The frame address at the start of the read is the mark.

#include <cstddef>
#include <cstdint>

namespace bale::detail {

class stack_mark {
 public:
  [[gnu::always_inline]] stack_mark() noexcept : at_(here()) {}

  /// The bytes of stack between the mark and the caller's frame (stacks grow down).
  [[gnu::always_inline]] std::size_t used() const noexcept {
    const std::uintptr_t now = here();
    const std::size_t below = now < at_ ? at_ - now : 0;
    return below;
  }

 private:
  [[gnu::always_inline]] static std::uintptr_t here() noexcept {
    return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  }
  std::uintptr_t at_;
};

}  // namespace bale::detail
