// SPDX-License-Identifier: BSL-1.0
#pragma once
// Elements kept aside while a read goes on, before they are moved into their container: in chunks
// that never move (an element is read in place and stays where it was read), each a power of two
// of elements in about 16 KB of raw storage, constructed only as elements arrive. Finding one by
// index is a shift and a mask (a deque's blocks hold a count that is not a power of two, and its
// every access divides).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace bale::detail {

template <class T>
class staging {
 public:
  staging() = default;
  staging(const staging&) = delete;
  staging& operator=(const staging&) = delete;
  ~staging() { clear(); }

  /// A value-initialized element at the end, to be read in place.
  T& emplace_back() {
    // clear() frees every chunk, so a full last chunk is the only reason to add one.
    const std::size_t slot = size_ % chunk_size;
    if (slot == 0) chunks_.push_back(std::unique_ptr<storage[]>(new storage[chunk_size]));
    T* element = ::new (static_cast<void*>(&chunks_[size_ / chunk_size][slot])) T();
    ++size_;
    return *element;
  }
  T& operator[](std::size_t i) noexcept {
    return *std::launder(reinterpret_cast<T*>(&chunks_[i / chunk_size][i % chunk_size]));
  }
  const T& operator[](std::size_t i) const noexcept {
    return *std::launder(reinterpret_cast<const T*>(&chunks_[i / chunk_size][i % chunk_size]));
  }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// Destroys the elements and frees the chunks.
  void clear() noexcept {
    for (std::size_t i = size_; i-- > 0;) (*this)[i].~T();
    size_ = 0;
    chunks_.clear();
  }

 private:
  struct storage {
    alignas(T) std::byte bytes[sizeof(T)];
  };
  static constexpr std::size_t chunk_size =
      std::bit_floor(std::max<std::size_t>(1, 16384 / sizeof(T)));

  std::vector<std::unique_ptr<storage[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace bale::detail
