// SPDX-License-Identifier: BSL-1.0
#pragma once
// The reader of the hand-written baselines: reads bale binary's bytes with the checks a careful
// reader of untrusted input makes and no others (every read against the bytes left, every length
// against what its elements need, the memory a length allocates against a budget).

#include <bale/all.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace bench {

class checked_input {
 public:
  explicit checked_input(std::span<const std::byte> in)
      : at_(in.data()), end_(in.data() + in.size()) {}
  template <class T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  const std::byte* take(std::size_t n) {
    if (n > static_cast<std::size_t>(end_ - at_)) throw std::runtime_error("end of input");
    const std::byte* from = at_;
    at_ += n;
    return from;
  }
  /// A length whose elements take at least `each` bytes of input, and `charge` bytes of memory
  /// each.
  std::size_t count(std::size_t each, std::size_t charge) {
    const auto n = get<std::uint64_t>();
    if (n > static_cast<std::size_t>(end_ - at_) / each) throw std::runtime_error("length");
    if (n * charge > budget_) throw std::runtime_error("budget");
    budget_ -= n * charge;
    return static_cast<std::size_t>(n);
  }
  /// A length-prefixed run of trivially copyable elements (a string, a vector).
  template <class Range>
  void get_run(Range& r) {
    using element = std::remove_reference_t<decltype(*r.data())>;
    r.resize(count(sizeof(element), sizeof(element)));
    std::memcpy(r.data(), take(r.size() * sizeof(element)), r.size() * sizeof(element));
  }
  bool done() const { return at_ == end_; }

 private:
  const std::byte* at_;
  const std::byte* end_;
  std::size_t budget_ = bale::limits{}.max_allocation;
};

}  // namespace bench
