// SPDX-License-Identifier: BSL-1.0
#pragma once
// The MPI datatypes that move element_memory: any byte range of a strided array that starts and
// ends on whole elements is one datatype over the array's own memory, so a chunk or a broadcast
// piece is sent from it and received into it with no copy.

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "bale/mpi/detail/element_memory.hpp"
#include "bale/mpi/error.hpp"

namespace bale::mpi::detail {

/// A committed MPI datatype, freed with its owner (MPI lets a datatype go while an operation
/// posted with it is still in flight).
class scoped_datatype {
 public:
  explicit scoped_datatype(MPI_Datatype type) : type_(type) {}
  scoped_datatype(scoped_datatype&& other) noexcept
      : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)) {}
  scoped_datatype& operator=(scoped_datatype&&) = delete;
  ~scoped_datatype() {
    if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  MPI_Datatype get() const noexcept { return type_; }

 private:
  MPI_Datatype type_;
};

inline scoped_datatype committed(MPI_Datatype type) {
  if (const int code = MPI_Type_commit(&type); code != MPI_SUCCESS) {
    MPI_Type_free(&type);
    check(code, "MPI_Type_commit");
  }
  return scoped_datatype(type);
}

/// What one MPI call sends or receives: `count` items of `type` at `buffer`.
struct memory_piece {
  void* buffer;
  int count;
  MPI_Datatype type;
  std::optional<scoped_datatype> owned;  // the derived datatype, when there is one
};

namespace strided {

/// Builds the datatype of a range of elements: a struct of at most two pieces per index (the
/// partial slabs at either end) around whole slabs, each a vector of the slabs below; a range of
/// one piece (the whole array, whole rows) is that piece alone.
class range_builder {
 public:
  range_builder(const std::vector<travel_index>& indices, std::size_t element_bytes)
      : indices_(indices),
        element_bytes_(element_bytes),
        slab_types_(indices.size() + 1, MPI_DATATYPE_NULL) {
    below_.assign(indices.size() + 1, 1);
    for (std::size_t k = indices.size(); k-- > 0;) below_[k] = below_[k + 1] * indices[k].extent;
  }
  range_builder(const range_builder&) = delete;
  range_builder& operator=(const range_builder&) = delete;
  ~range_builder() {  // the parts: a struct or a committed type holds what it needs of them
    for (MPI_Datatype& type : made_)
      if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
  }

  /// The elements [first, first + count) of the whole array, at offsets from its first element.
  memory_piece build(std::byte* data, std::uint64_t first, std::uint64_t count) {
    range(0, 0, first, first + count);
    if (lengths_.size() == 1) {
      memory_piece piece{data + offsets_[0], lengths_[0], types_[0], std::nullopt};
      if (types_[0] != MPI_BYTE) piece.owned.emplace(committed(take(types_[0])));
      return piece;
    }
    MPI_Datatype type;
    check(MPI_Type_create_struct(static_cast<int>(lengths_.size()), lengths_.data(),
                                 offsets_.data(), types_.data(), &type),
          "MPI_Type_create_struct");
    memory_piece piece{data, 1, type, std::nullopt};
    piece.owned.emplace(committed(type));
    return piece;
  }

 private:
  // Elements [a, b) of the slab of index k (every index from k on) that starts at `offset`.
  void range(std::size_t k, MPI_Aint offset, std::uint64_t a, std::uint64_t b) {
    const std::uint64_t slab = below_[k + 1];
    const auto at = [&](std::uint64_t i) {
      return offset + static_cast<MPI_Aint>(i) * indices_[k].stride;
    };
    std::uint64_t i0 = a / slab;
    const std::uint64_t i1 = b / slab;
    if (i0 == i1) return range(k + 1, at(i0), a % slab, b % slab);
    if (a % slab != 0) range(k + 1, at(i0++), a % slab, slab);
    if (i1 > i0) whole(k, at(i0), i1 - i0);
    if (b % slab != 0) range(k + 1, at(i1), 0, b % slab);
  }

  // `n` neighbouring slabs of index k + 1, along index k.
  void whole(std::size_t k, MPI_Aint offset, std::uint64_t n) {
    if (k + 1 == indices_.size() &&
        indices_[k].stride == static_cast<std::ptrdiff_t>(element_bytes_))
      return add(offset, n * element_bytes_, MPI_BYTE);
    if (n == 1) return add(offset, 1, slab_type(k + 1));
    add(offset, 1, vector_of(k, n));
  }

  // `n` slabs of index k + 1 along index k; the elements themselves as runs of bytes.
  MPI_Datatype vector_of(std::size_t k, std::uint64_t n) {
    MPI_Datatype type;
    if (k + 1 == indices_.size())
      check(MPI_Type_create_hvector(static_cast<int>(n), static_cast<int>(element_bytes_),
                                    indices_[k].stride, MPI_BYTE, &type),
            "MPI_Type_create_hvector");
    else
      check(MPI_Type_create_hvector(static_cast<int>(n), 1, indices_[k].stride, slab_type(k + 1),
                                    &type),
            "MPI_Type_create_hvector");
    made_.emplace_back(type);
    return type;
  }

  // The whole slab of every index from k on (a single element past the last index).
  MPI_Datatype slab_type(std::size_t k) {
    if (slab_types_[k] != MPI_DATATYPE_NULL) return slab_types_[k];
    const bool contiguous =
        k == indices_.size() || (k + 1 == indices_.size() &&
                                 indices_[k].stride == static_cast<std::ptrdiff_t>(element_bytes_));
    if (!contiguous) return slab_types_[k] = vector_of(k, indices_[k].extent);
    const std::uint64_t elements = k == indices_.size() ? 1 : indices_[k].extent;
    MPI_Datatype type;
    check(MPI_Type_contiguous(static_cast<int>(elements * element_bytes_), MPI_BYTE, &type),
          "MPI_Type_contiguous");
    made_.emplace_back(type);
    return slab_types_[k] = type;
  }

  // A part that the caller now owns.
  MPI_Datatype take(MPI_Datatype type) {
    for (MPI_Datatype& made : made_)
      if (made == type) made = MPI_DATATYPE_NULL;
    return type;
  }

  void add(MPI_Aint offset, std::uint64_t length, MPI_Datatype type) {
    offsets_.push_back(offset);
    lengths_.push_back(static_cast<int>(length));
    types_.push_back(type);
  }

  const std::vector<travel_index>& indices_;
  std::size_t element_bytes_;
  std::vector<std::uint64_t> below_;  // elements in a slab of each index on
  std::vector<MPI_Datatype> slab_types_;
  std::vector<MPI_Datatype> made_;  // the parts
  std::vector<MPI_Aint> offsets_;
  std::vector<int> lengths_;
  std::vector<MPI_Datatype> types_;
};

}  // namespace strided

/// The bytes [offset, offset + count) of `memory`, which start and end on a multiple of its
/// unit().
inline memory_piece piece_of(const element_memory& memory, std::size_t offset, std::size_t count) {
  if (!memory.is_strided())
    return {memory.data() + offset, static_cast<int>(count), MPI_BYTE, std::nullopt};
  const std::size_t element = memory.unit();
  return strided::range_builder(memory.indices(), element)
      .build(memory.data(), offset / element, count / element);
}

/// Calls each(piece) for the successive pieces of `memory` of at most `chunk` bytes.
template <class Each>
void for_each_piece(const element_memory& memory, std::size_t chunk, Each&& each) {
  for (std::size_t done = 0; done < memory.size(); done += chunk)
    each(piece_of(memory, done, std::min(chunk, memory.size() - done)));
}

}  // namespace bale::mpi::detail
