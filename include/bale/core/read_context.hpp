// SPDX-License-Identifier: BSL-1.0
#pragma once
// State that one decode shares across every input archive it creates: the limits, the nesting
// depth, the allocation budget, which is one budget for the whole message, and the parts that
// features keep (core/context_parts.hpp).

#include <cstddef>
#include <string>

#include "bale/core/context_parts.hpp"
#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/nesting.hpp"

namespace bale::detail {

class read_context : public nesting_state {
 public:
  explicit read_context(const limits& lim) noexcept : nesting_state(lim.max_depth), limits_(lim) {}

  const bale::limits& limits() const noexcept { return limits_; }

  /// Charges `count` elements of `element_size` bytes to the budget, or says why not.
  bool try_charge(std::size_t count, std::size_t element_size) noexcept {
    const std::size_t left = limits_.max_allocation - allocated_;
    if (element_size != 0 && count > left / element_size) return false;
    allocated_ += count * element_size;
    return true;
  }
  std::size_t allocated() const noexcept { return allocated_; }

  /// Views into the input (string_view, span) are refused when the input is a buffer the call
  /// frees or reuses (load_file, record_reader, every MPI receive): they would dangle. `instead`
  /// says what the caller can do, for the error.
  bool views_allowed() const noexcept { return views_instead_ == nullptr; }
  void forbid_views(const char* instead) noexcept { views_instead_ = instead; }
  const char* views_instead() const noexcept { return views_instead_; }

  /// What features keep for this message: pointer graphs, versions, named-member rules.
  context_parts& parts() noexcept { return parts_; }
  const context_parts& parts() const noexcept { return parts_; }
  /// After a message is read: why it is refused as a whole (an object that observers point at
  /// and nothing owns, say), or empty.
  std::string why_incomplete() const { return parts_.why_incomplete(); }
  /// What may explain bytes the message did not expect: empty, or " (...)".
  std::string error_hint() const { return parts_.error_hint(); }
  /// The next value is a message of its own (bale::reader).
  void restart_message() noexcept { parts_.forget_message(); }

  /// Elements that took no input bytes; they cannot be bounded by the input size.
  std::size_t empty_elements_left() const noexcept {
    return limits_.max_empty_elements - empty_elements_;
  }
  /// Counts one element that took no input bytes and the `size` bytes it occupies in memory.
  bool try_count_empty(std::size_t size) noexcept {
    if (empty_elements_left() == 0 || size > limits_.max_empty_bytes - empty_bytes_) return false;
    ++empty_elements_;
    empty_bytes_ += size;
    return true;
  }

 private:
  bale::limits limits_;
  std::size_t allocated_ = 0;
  std::size_t empty_elements_ = 0;
  std::size_t empty_bytes_ = 0;
  const char* views_instead_ = nullptr;
  context_parts parts_;
};

}  // namespace bale::detail
