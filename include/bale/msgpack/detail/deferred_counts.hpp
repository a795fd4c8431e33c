// SPDX-License-Identifier: BSL-1.0
#pragma once
// MessagePack writes an array's length before its elements. The bodies of a pointer graph are
// known only once written, so the sizing pass records how many each outermost pointer wrote and
// the writing pass puts that count first: a part of the write context (core/context_parts.hpp)
// that MessagePack keeps, made by the first pointer graph of a message.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bale::detail {

class msgpack_deferred_counts {
 public:
  /// The sizing pass: one more count, in the order the bodies were written.
  void record(std::uint32_t count) { counts_.push_back(count); }
  /// The writing pass: the next recorded count, or false if the sizing pass recorded no more.
  bool next(std::uint32_t& count) noexcept {
    if (next_ >= counts_.size()) return false;
    count = counts_[next_++];
    return true;
  }
  /// The writing pass starts: it reads the counts from the first.
  void restart_message() noexcept { next_ = 0; }

 private:
  std::vector<std::uint32_t> counts_;
  std::size_t next_ = 0;
};

}  // namespace bale::detail
