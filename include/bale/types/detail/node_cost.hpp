// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a node-based container allocates for each element beyond the element itself, so that the
// allocation budget counts what a decode really takes from the heap. The read archives charge
// sizeof(element) per element; the adapters charge this on top, before each element is inserted.
// The figures model libstdc++ and glibc malloc (links, a cached hash, a bucket slot, an 8-byte
// chunk header, 16-byte rounding); another library differs by a few bytes per node.

#include <cstddef>

namespace bale::detail {

enum class node_kind { none, singly_linked, doubly_linked, tree, hashed };

constexpr std::size_t malloc_chunk(std::size_t bytes) noexcept {
  return (bytes + sizeof(void*) + 15) / 16 * 16;
}

/// Bytes allocated per element beyond sizeof(Element) for a container of that kind.
template <node_kind Kind, class Element>
constexpr std::size_t node_overhead() noexcept {
  constexpr std::size_t pointer = sizeof(void*);
  constexpr std::size_t element = sizeof(Element);
  switch (Kind) {
    case node_kind::none:
      return 0;
    case node_kind::singly_linked:
      return malloc_chunk(element + pointer) - element;
    case node_kind::doubly_linked:
      return malloc_chunk(element + 2 * pointer) - element;
    case node_kind::tree:  // parent, left, right, colour
      return malloc_chunk(element + 4 * pointer) - element;
    case node_kind::hashed:  // next, cached hash; one bucket slot per element at load factor 1
      return malloc_chunk(element + 2 * pointer) - element + pointer;
  }
  return 0;
}

}  // namespace bale::detail
