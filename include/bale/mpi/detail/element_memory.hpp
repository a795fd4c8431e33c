// SPDX-License-Identifier: BSL-1.0
#pragma once
// Where a message's bytes after its head lie: one block of memory, or the elements of a strided
// array (an Eigen block, a multi_array view, a submatrix) in the order they travel. MPI moves them
// through derived datatypes (strided_datatype.hpp), so the bytes on the wire are those of the
// gathered array with no copy made.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace bale::mpi::detail {

/// One index of a strided array as it travels: its extent, and the bytes between neighbours.
struct travel_index {
  std::uint64_t extent;
  std::ptrdiff_t stride;
};

/// The indices of a strided array, last fastest, with those of extent 1 dropped and neighbours
/// that lie contiguously joined, so that contiguous runs are as long as the memory allows.
inline std::vector<travel_index> simplified(const std::vector<travel_index>& indices) {
  std::vector<travel_index> kept;
  for (const travel_index& index : indices) {
    if (index.extent == 1) continue;
    if (!kept.empty() &&
        kept.back().stride == static_cast<std::ptrdiff_t>(index.extent) * index.stride) {
      kept.back() = {kept.back().extent * index.extent, index.stride};
      continue;
    }
    kept.push_back(index);
  }
  return kept;
}

/// The bytes of a message after its head, wherever they lie.
class element_memory {
 public:
  element_memory() = default;
  explicit element_memory(std::span<const std::byte> bytes)
      : data_(const_cast<std::byte*>(bytes.data())), size_(bytes.size()) {}

  /// An array's elements of `element_bytes` each, `indices` in the order they travel (the last
  /// fastest): one block when they lie contiguously in that order. Sending from it never writes
  /// to it.
  static element_memory strided(const void* first, std::size_t element_bytes,
                                const std::vector<travel_index>& indices) {
    element_memory memory;
    memory.data_ = static_cast<std::byte*>(const_cast<void*>(first));
    std::uint64_t count = 1;
    for (const travel_index& index : indices) count *= index.extent;
    memory.size_ = count * element_bytes;
    memory.indices_ = simplified(indices);
    const bool block = memory.indices_.empty() ||
                       (memory.indices_.size() == 1 &&
                        memory.indices_[0].stride == static_cast<std::ptrdiff_t>(element_bytes));
    if (block || count == 0)
      memory.indices_.clear();
    else
      memory.element_bytes_ = element_bytes;
    return memory;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  bool is_strided() const noexcept { return element_bytes_ != 0; }
  /// A piece must start and end on a multiple of this many bytes.
  std::size_t unit() const noexcept { return is_strided() ? element_bytes_ : 1; }
  /// The block of memory (empty when strided).
  std::span<const std::byte> bytes() const noexcept {
    return is_strided() ? std::span<const std::byte>() : std::span<const std::byte>(data_, size_);
  }

  /// The bytes that lie together in memory, one after the other: the whole block, or a strided
  /// array's innermost run.
  std::size_t run_bytes() const noexcept {
    if (!is_strided()) return size_;
    const travel_index& last = indices_.back();
    const bool joined = last.stride == static_cast<std::ptrdiff_t>(element_bytes_);
    return joined ? static_cast<std::size_t>(last.extent) * element_bytes_ : element_bytes_;
  }

  /// The first byte (of the block, or the strided array's first element).
  std::byte* data() const noexcept { return data_; }
  /// The strided array's indices as they travel, simplified (none for a block).
  const std::vector<travel_index>& indices() const noexcept { return indices_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t element_bytes_ = 0;  // 0: one block
  std::vector<travel_index> indices_;
};

/// A strided array smaller than this goes through a buffer (gathered, or decoded): building a
/// datatype costs more than copying it.
inline constexpr std::size_t strided_from_memory_bytes = std::size_t{4} << 10;
/// One whose runs in memory are shorter than short_run_bytes goes through a buffer up to this
/// size: Open MPI's datatype engine takes each run on its own, and a copy is faster until the
/// copies a datatype saves outweigh it (measured: 1.6 times faster at 128 KiB, half as fast at
/// 8 MiB).
inline constexpr std::size_t short_run_bytes = 64;
inline constexpr std::size_t short_runs_from_memory_bytes = std::size_t{1} << 20;

/// Whether MPI moves `memory` where it lies rather than through a buffer, on either side: a
/// block always; a strided array where a datatype over it beats a copy.
inline bool worth_a_datatype(const element_memory& memory) {
  if (!memory.is_strided()) return true;
  const std::size_t least = memory.run_bytes() < short_run_bytes ? short_runs_from_memory_bytes
                                                                 : strided_from_memory_bytes;
  return memory.size() >= least && memory.unit() <= strided_from_memory_bytes;
}

}  // namespace bale::mpi::detail
