// SPDX-License-Identifier: BSL-1.0
#pragma once
// The stack of open arrays and objects that the JSON writer and reader keep: pushed and popped
// for every bracket, so the common path is a compare and a store, and growing is out of line.

#include <cstddef>
#include <vector>

namespace bale::detail {

template <class Frame>
class frame_stack {
 public:
  void push_back(const Frame& frame) {
    if (size_ == storage_.size()) [[unlikely]]
      grow();
    storage_[size_++] = frame;
  }
  void pop_back() noexcept { --size_; }
  Frame& back() noexcept { return storage_[size_ - 1]; }
  const Frame& back() const noexcept { return storage_[size_ - 1]; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t size() const noexcept { return size_; }

 private:
  // Depth is limited by the read limits (reader) or the value's own nesting (writer).
  [[gnu::noinline]] void grow() { storage_.resize(storage_.empty() ? 16 : storage_.size() * 2); }

  std::vector<Frame> storage_;
  std::size_t size_ = 0;
};

}  // namespace bale::detail
