#pragma once
// State that one write shares across every output archive it creates, as read_context does for a
// decode: one per serialize*, save_file or record write, passed to the sizing pass and the writing
// pass alike, so both see the same state. It holds nothing yet; state that must live for a whole
// message (an object table for shared pointers, for one) belongs here, not in a writer.

namespace bale::detail {

class write_context {
 public:
  write_context() noexcept = default;
  write_context(const write_context&) = delete;
  write_context& operator=(const write_context&) = delete;
};

}  // namespace bale::detail
