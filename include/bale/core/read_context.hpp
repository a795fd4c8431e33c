#pragma once
// State that one decode shares across every input archive it creates: the limits, the nesting
// depth and the allocation budget, which is one budget for the whole message.

#include <cstddef>
#include <string>

#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"

namespace bale::detail {

class read_context {
 public:
  explicit read_context(const limits& lim) noexcept : limits_(lim) {}

  const bale::limits& limits() const noexcept { return limits_; }

  /// Charges `count` elements of `element_size` bytes to the budget, or says why not.
  bool try_charge(std::size_t count, std::size_t element_size) noexcept {
    const std::size_t left = limits_.max_allocation - allocated_;
    if (element_size != 0 && count > left / element_size) return false;
    allocated_ += count * element_size;
    return true;
  }
  std::size_t allocated() const noexcept { return allocated_; }

  bool try_enter() noexcept { return ++depth_ <= limits_.max_depth; }
  void leave() noexcept { --depth_; }
  std::size_t depth() const noexcept { return depth_; }

  /// Elements that took no input bytes; they cannot be bounded by the input size.
  std::size_t empty_elements_left() const noexcept {
    return limits_.max_empty_elements - empty_elements_;
  }
  bool try_count_empty(std::size_t n = 1) noexcept {
    if (n > empty_elements_left()) return false;
    empty_elements_ += n;
    return true;
  }

 private:
  bale::limits limits_;
  std::size_t allocated_ = 0;
  std::size_t depth_ = 0;
  std::size_t empty_elements_ = 0;
};

}  // namespace bale::detail
