// SPDX-License-Identifier: BSL-1.0
#pragma once
// Object numbers by address, for the writing side of a pointer graph: an open-addressing table
// (linear probing, Fibonacci hashing), one flat array and no allocation per object. A message of
// 10^6 objects looks each one up once per pass, so the table's cost is the graph's cost.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <typeinfo>
#include <utility>
#include <vector>

namespace bale::detail {

class address_map {
 public:
  /// What holds an object: a unique_ptr, shared_ptrs, or (so far) only observers.
  enum class holder : std::uint8_t { observers, unique, shared };
  struct slot {
    const void* address = nullptr;  // null: empty (a null pointer is never an object)
    std::uint32_t number = 0;
    holder held_by = holder::observers;
    const std::type_info* type = nullptr;
  };

  /// The slot for `address`, and true if it was added now from `fresh`.
  std::pair<slot*, bool> try_emplace(const slot& fresh) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    slot* s = probe(fresh.address);
    if (s->address) return {s, false};
    *s = fresh;
    ++size_;
    return {s, true};
  }
  /// The slot for `address`, or null.
  const slot* find(const void* address) const noexcept {
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = home(address);; i = (i + 1) & mask) {
      if (slots_[i].address == address) return &slots_[i];
      if (!slots_[i].address) return nullptr;
    }
  }
  /// Empties the table and gives its memory back.
  void clear() noexcept {
    slots_ = std::vector<slot>();
    size_ = 0;
    shift_ = 64;
  }

 private:
  // Multiplying by 2^64 / phi spreads addresses that differ only in their low bits (objects of
  // one size in a row) over the whole table; the top bits are the index.
  std::size_t home(const void* address) const noexcept {
    const std::uint64_t bits = reinterpret_cast<std::uintptr_t>(address);
    return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ULL) >> shift_);
  }
  slot* probe(const void* address) noexcept {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = home(address);; i = (i + 1) & mask)
      if (slots_[i].address == address || !slots_[i].address) return &slots_[i];
  }
  void grow() {
    std::vector<slot> old = std::move(slots_);
    const std::size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.assign(capacity, slot{});
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
    for (const slot& s : old)
      if (s.address) *probe(s.address) = s;
  }

  std::vector<slot> slots_;
  std::size_t size_ = 0;
  unsigned shift_ = 64;
};

}  // namespace bale::detail
