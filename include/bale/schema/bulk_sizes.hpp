// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which values of a schema are numbers at fixed places in a format, and how many bytes one takes:
// what lets a reader by schema (bale/schema/decode.hpp) take a run of them as one block.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bale/schema/tree.hpp"

namespace bale::detail {

/// The bytes one value of a schema node takes in Archive when all of it is numbers held as memory
/// holds them, at fixed places: a number, a record of such values without a presence mask, a
/// fixed array of them. 0 for anything else (and for a value of no bytes), so such values can be
/// read, or viewed, a run at a time. Each node is sized once: a hostile schema's records that
/// refer to each other cost one pass over its nodes.
template <class Archive>
class bulk_sizes {
 public:
  explicit bulk_sizes(const schema_tree& tree) : tree_(tree), sizes_(tree.nodes.size(), unknown) {}

  std::size_t of(std::uint32_t n) {
    if (sizes_[n] == in_progress) return 0;  // a record inside itself has no fixed size
    if (sizes_[n] == unknown) {
      sizes_[n] = in_progress;
      sizes_[n] = size_of(tree_[n]);
    }
    return sizes_[n];
  }

 private:
  static constexpr std::size_t unknown = ~std::size_t{0}, in_progress = unknown - 1;
  static constexpr std::size_t most = std::size_t{1} << 32;  // past it, not one run

  template <class T>
  static constexpr std::size_t number() {
    return Archive::template bulk<T> ? sizeof(T) : 0;
  }
  static std::size_t scalar_size(scalar_kind k) {
    switch (k) {
      case scalar_kind::i8:
        return number<std::int8_t>();
      case scalar_kind::i16:
        return number<std::int16_t>();
      case scalar_kind::i32:
        return number<std::int32_t>();
      case scalar_kind::i64:
        return number<std::int64_t>();
      case scalar_kind::u8:
        return number<std::uint8_t>();
      case scalar_kind::u16:
        return number<std::uint16_t>();
      case scalar_kind::u32:
        return number<std::uint32_t>();
      case scalar_kind::u64:
        return number<std::uint64_t>();
      case scalar_kind::f32:
        return number<float>();
      case scalar_kind::f64:
        return number<double>();
      default:
        return 0;
    }
  }
  std::size_t size_of(const schema_node& s) {
    switch (s.kind) {
      case schema_kind::scalar:
        return scalar_size(s.scalar);
      case schema_kind::array: {
        const std::size_t element = of(s.children[0]);
        if (element == 0 || s.count > most / element) return 0;
        return element * static_cast<std::size_t>(s.count);
      }
      case schema_kind::record: {
        if (s.flag) return 0;
        std::size_t size = 0;
        for (const std::uint32_t child : s.children) {
          const std::size_t member = of(child);
          if (member == 0 || size + member > most) return 0;
          size += member;
        }
        return size;
      }
      default:
        return 0;
    }
  }

  const schema_tree& tree_;
  std::vector<std::size_t> sizes_;
};

}  // namespace bale::detail
