#pragma once
// State that one write shares across every output archive it creates, as read_context does for a
// decode: one per serialize*, save_file or record write, passed to the sizing pass and the writing
// pass alike, so both see the same state: the nesting depth, limited as reading limits it (state
// that must live for a whole message, such as an object table for shared pointers, belongs here
// too, not in a writer).

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

 private:
  bale::limits limits_;
};

}  // namespace bale::detail
