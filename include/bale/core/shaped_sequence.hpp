// SPDX-License-Identifier: BSL-1.0
#pragma once
// A sequence with a shape: the elements of an array of any rank, with its extents in the order
// the elements run (outermost first). A format that nests lists (JSON, MessagePack) writes them as
// lists of lists, one level per index; the others write the elements as any sequence. The verbs
// are optional in the archive contract: an archive without them writes and reads the elements as
// a plain sequence.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bale::detail {

/// Extents in the order the elements run, outermost first.
using sequence_shape = std::span<const std::uint64_t>;

/// Whether elements of `shape` are nested at all: two indices or more, and at least one element
/// (an empty array is an empty list, whatever its extents, so that its text stays small).
inline bool nests(sequence_shape shape, std::size_t count) noexcept {
  return shape.size() >= 2 && count != 0;
}

/// The number of elements of `shape`, which the array's serializer has checked fits in memory.
/// (A template, so that where the two types are one the conversion is no useless cast.)
template <class Size = std::size_t>
Size element_count_of(sequence_shape shape) noexcept {
  std::uint64_t count = 1;
  for (const std::uint64_t e : shape) count *= e;
  return static_cast<Size>(count);
}

/// Extents as errors show them: `[2,3]`.
template <class Extents>
std::string extents_text(const Extents& extents) {
  std::string text = "[";
  for (std::size_t k = 0; k < extents.size(); ++k) {
    if (k != 0) text += ',';
    text += std::to_string(extents[k]);
  }
  return text + ']';
}

/// count elements at data, of the given shape.
template <class Archive, class T>
void write_shaped_contiguous_sequence(Archive& ar, const T* data, std::size_t count,
                                      sequence_shape shape) {
  if constexpr (requires { ar.write_shaped_contiguous_sequence(data, count, shape); })
    ar.write_shaped_contiguous_sequence(data, count, shape);
  else
    ar.write_contiguous_sequence(data, count);
}

/// count elements of T of the given shape: write_elements(write_run) calls write_run(p, n) for
/// runs of them, of any length, in order.
template <class T, class Archive, class F>
void write_shaped_sequence(Archive& ar, std::size_t count, sequence_shape shape,
                           F&& write_elements) {
  if constexpr (requires { ar.template write_shaped_sequence<T>(count, shape, write_elements); })
    ar.template write_shaped_sequence<T>(count, shape, write_elements);
  else
    ar.write_sequence(count, [&] {
      write_elements([&](const T* run, std::size_t n) { ar.write_contiguous(run, n); });
    });
}

/// Elements of T into target, as read_sequence_into reads them; a format that nests lists checks
/// them against `shape`, and also takes the elements as one flat list.
template <class T, class Archive, class Target>
void read_shaped_sequence_into(Archive& ar, Target& target, sequence_shape shape) {
  if constexpr (requires { ar.template read_shaped_sequence_into<T>(target, shape); })
    ar.template read_shaped_sequence_into<T>(target, shape);
  else
    ar.template read_sequence_into<T>(target);
}

/// Where a writer stands in nested lists of `shape` as it writes elements in runs: how many are
/// left in the innermost list, and which lists end when it is full. Level 0 is the outermost list.
class nested_lists {
 public:
  explicit nested_lists(sequence_shape shape) : shape_(shape), index_(shape.size(), 0) {}

  std::size_t levels() const noexcept { return shape_.size(); }
  std::uint64_t extent(std::size_t level) const noexcept { return shape_[level]; }
  std::uint64_t left_in_row() const noexcept { return shape_.back() - index_.back(); }

  /// n more elements of the innermost list (at most left_in_row()): the number of lists, from
  /// the innermost outwards, that this fills. The outermost is never counted (its writer closes
  /// it), so after the last element all levels() - 1 inner ones are.
  std::size_t advance(std::uint64_t n) noexcept {
    index_.back() += n;
    std::size_t ended = 0;
    for (std::size_t k = shape_.size() - 1; k > 0 && index_[k] == shape_[k]; --k) {
      index_[k] = 0;
      ++index_[k - 1];
      ++ended;
    }
    return ended;
  }
  /// Whether every element has been written.
  bool done() const noexcept { return index_[0] == shape_[0]; }

 private:
  sequence_shape shape_;
  std::vector<std::uint64_t> index_;
};

}  // namespace bale::detail
