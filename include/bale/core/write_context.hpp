// SPDX-License-Identifier: BSL-1.0
#pragma once
// State that one write shares across every output archive it creates, as read_context does for a
// decode: one per serialize*, save_file or record write, passed to the sizing pass and the writing
// pass alike, so both see the same state: the nesting depth, limited as reading limits it, and
// the parts that features keep (core/context_parts.hpp), made when a feature is first met.

#include <string>

#include "bale/core/context_parts.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/nesting.hpp"

namespace bale::detail {

class write_context : public nesting_state {
 public:
  explicit write_context(const bale::limits& lim = {}) noexcept
      : nesting_state(lim.max_depth), limits_(lim) {}
  write_context(const write_context&) = delete;
  write_context& operator=(const write_context&) = delete;

  const bale::limits& limits() const noexcept { return limits_; }

  /// What features keep for this message: pointer graphs, versions, a format's bookkeeping.
  context_parts& parts() noexcept { return parts_; }
  const context_parts& parts() const noexcept { return parts_; }
  /// After a message's first (or only) pass: why it is refused as a whole (an object that
  /// observers point at and no pointer of the message owns, say), or empty.
  std::string why_incomplete() const { return parts_.why_incomplete(); }
  /// Called between the sizing pass and the writing pass: both must number objects and store
  /// versions alike.
  void restart_message() noexcept { parts_.restart_message(); }
  /// Called instead after a sizing pass that walked only part of the value (an estimate): the
  /// writing pass is then the message's one whole pass, and starts from nothing.
  void forget_message() noexcept { parts_.forget_message(); }

 private:
  bale::limits limits_;
  context_parts parts_;
};

}  // namespace bale::detail
