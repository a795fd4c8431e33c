// SPDX-License-Identifier: BSL-1.0
#pragma once
// The 32-byte header in front of every bale::mpi message, and which values travel as raw memory.
//
//   0  u32 magic "bmpi"         8  u64 type fingerprint (0 when not sent)
//   4  u8  wire version (1)    16  u64 payload size: every byte after the header, head and chunks
//   5  u8  format id            24  u64 chunk size: the rest of the payload comes in MPI messages
//   6  u8  flags (1: fingerprint,      of this size (the last one shorter) on the chunk channel
//            2: sender failed)
//   7  u8  zero
//
// A message is one head (the header and the first bytes of the payload) on the communicator, then,
// when the payload did not fit in the head, chunks from the same rank with the same tag on a
// private duplicate: a wildcard receive can never match a chunk, and chunks never overtake.

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "bale/arrays/serializer.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/little_endian.hpp"
#include "bale/mpi/detail/element_memory.hpp"
#include "bale/schema/schema_of.hpp"

namespace bale::mpi::detail {

using bale::detail::get_u64;
using bale::detail::put_u64;

inline constexpr std::size_t header_size = 32;
inline constexpr std::uint32_t message_magic = 0x69706d62;  // "bmpi" in little-endian order
inline constexpr std::uint8_t wire_version = wire_versions::mpi_header;
inline constexpr std::uint8_t flag_fingerprint = 1;
/// Sent in place of a value the sender could not encode, so that a collective still completes.
inline constexpr std::uint8_t flag_failed = 2;

struct header {
  std::uint8_t format = 0;
  std::uint8_t flags = 0;
  std::uint64_t fingerprint = 0;
  std::uint64_t payload_size = 0;
  std::uint64_t chunk_bytes = 0;
};

inline void write_header(std::byte* out, const header& h) {
  bale::detail::put_u32(out, message_magic);
  out[4] = static_cast<std::byte>(wire_version);
  out[5] = static_cast<std::byte>(h.format);
  out[6] = static_cast<std::byte>(h.flags);
  out[7] = std::byte{0};
  put_u64(out + 8, h.fingerprint);
  put_u64(out + 16, h.payload_size);
  put_u64(out + 24, h.chunk_bytes);
}

/// The header of a head of `head.size()` bytes; a head that is not a bale message is an error.
inline header read_header(std::span<const std::byte> head) {
  if (head.size() < header_size)
    throw bale::error(
        errc::end_of_input,
        bale::detail::error_text({"a message of ", head.size(), " bytes has no bale header"}), 0);
  if (bale::detail::get_u32(head.data()) != message_magic)
    throw bale::error(errc::wrong_type, "not a bale::mpi message (no 'bmpi' magic)", 0);
  if (head[4] != std::byte{wire_version} || head[7] != std::byte{0})
    throw bale::error(
        errc::wrong_type,
        bale::detail::error_text({"bale::mpi wire version ", static_cast<int>(head[4]),
                                  " (this build reads version 1)"}),
        4);
  header h;
  h.format = static_cast<std::uint8_t>(head[5]);
  h.flags = static_cast<std::uint8_t>(head[6]);
  h.fingerprint = get_u64(head.data() + 8);
  h.payload_size = get_u64(head.data() + 16);
  h.chunk_bytes = get_u64(head.data() + 24);
  const std::size_t in_head = head.size() - header_size;
  if (h.payload_size < in_head)
    throw bale::error(
        errc::invalid_value,
        bale::detail::error_text({"the header announces a payload of ", h.payload_size,
                                  " bytes, the message holds ", in_head}),
        16);
  if (h.payload_size > in_head && (h.chunk_bytes == 0 || h.chunk_bytes > INT_MAX))
    throw bale::error(errc::invalid_value, bale::detail::error_text({"chunk size ", h.chunk_bytes}),
                      24);
  return h;
}

/// A top-level value whose bytes in Format are a head (a length; an array's layout, extents and
/// length) and then its elements' memory (bale::array_is_memory): it is sent from and received
/// into that memory, with no copy. Each says:
///   head_size                  the head's bytes
///   sized_by_count             whether a receiver can size the value from the message's size
///                              alone, and so take header, head and elements in one receive
///   elements(v)                the elements as one block, empty when they are strided
///   memory(v)                  the elements where they lie, in the order write_head announces
///   write_head(out, v)         the head, as Format writes it
///   prepare(v, head, count)    sizes v for a head announcing `count` elements and says where
///                              they go; none when the head is not one v takes as memory (the
///                              payload is then decoded, with its checks and errors)
///   abandon(v)                 the elements did not all arrive
template <class Format, class T>
struct contiguous_payload : std::false_type {};

template <class Format, class E, class Alloc>
requires array_is_memory<Format, E>
struct contiguous_payload<Format, std::vector<E, Alloc>> : std::true_type {
  using element = E;
  static constexpr std::size_t head_size = 8;
  static constexpr bool sized_by_count = true;
  static std::span<const E> elements(const std::vector<E, Alloc>& v) { return v; }
  static element_memory memory(const std::vector<E, Alloc>& v) {
    return element_memory(std::as_bytes(std::span(v)));
  }
  static void write_head(std::byte* out, const std::vector<E, Alloc>& v) { put_u64(out, v.size()); }
  static std::optional<element_memory> prepare(std::vector<E, Alloc>& v, const std::byte* head,
                                               std::size_t count) {
    if (get_u64(head) != count) return std::nullopt;
    v.resize(count);
    return element_memory(std::as_bytes(std::span(v)));
  }
  static void abandon(std::vector<E, Alloc>& v) { v.clear(); }
};

template <class Format, class E, std::size_t N>
requires array_is_memory<Format, std::remove_const_t<E>>
struct contiguous_payload<Format, std::span<E, N>> : std::true_type {
  using element = std::remove_const_t<E>;
  static constexpr std::size_t head_size = 8;
  static constexpr bool sized_by_count = true;
  static std::span<const element> elements(std::span<E, N> v) { return v; }
  static element_memory memory(std::span<E, N> v) { return element_memory(std::as_bytes(v)); }
  static void write_head(std::byte* out, std::span<E, N> v) { put_u64(out, v.size()); }
};

/// An array of a fixed rank (bale/arrays/): its layout (one byte), extents and length, then its
/// elements in that layout. Contiguous ones are sent from their memory as stored; strided ones
/// (a block, a slice) in the layout nearest their memory, through a datatype over it. Its extents
/// are in the head, so it is received from the head first, never whole.
template <class Format, class A>
requires array_type<A> &&(array_traits<A>::rank != dynamic_rank) &&
    array_is_memory<Format, bale::detail::array_element<A>> struct contiguous_payload<Format, A>
    : std::true_type {
  using traits = array_traits<A>;
  using element = bale::detail::array_element<A>;
  static constexpr std::size_t rank = traits::rank;
  static constexpr std::size_t head_size = 1 + 8 * rank + 8;
  static constexpr bool sized_by_count = false;

  static std::span<const element> elements(const A& a) {
    const auto view = traits::view(a);
    if (!bale::detail::stored_layout(view)) return {};
    return {view.data, count_of(view.extents)};
  }
  static element_memory memory(const A& a) {
    const auto view = traits::view(a);
    return in_order(view, bale::detail::nearest_layout(view));
  }
  static void write_head(std::byte* out, const A& a) {
    const auto view = traits::view(a);
    out[0] = static_cast<std::byte>(bale::detail::nearest_layout(view));
    for (std::size_t k = 0; k < rank; ++k) put_u64(out + 1 + 8 * k, view.extents[k]);
    put_u64(out + 1 + 8 * rank, count_of(view.extents));
  }
  static std::optional<element_memory> prepare(A& a, const std::byte* head, std::size_t count) {
    const auto layout = std::to_integer<std::uint8_t>(head[0]);
    array_extents<rank> extents{};
    for (std::size_t k = 0; k < rank; ++k) extents[k] = get_u64(head + 1 + 8 * k);
    std::size_t product = 0;
    if (layout > 1 || get_u64(head + 1 + 8 * rank) != count ||
        !bale::detail::element_count<element>(extents, product) || product != count ||
        !traits::holds(a, extents))
      return std::nullopt;
    return in_order(traits::reshape(a, extents), static_cast<array_layout>(layout));
  }
  static void abandon(A&) {}

 private:
  static std::size_t count_of(const array_extents<rank>& extents) {
    std::size_t count = 0;
    (void)bale::detail::element_count<element>(extents, count);
    return count;
  }
  // The elements in `layout`'s order: a row-major walk of the indices, reversed for
  // column-major.
  template <class E>
  static element_memory in_order(const array_ref<E, rank>& view, array_layout layout) {
    const auto walked = layout == array_layout::row_major ? view : bale::detail::reversed(view);
    std::vector<travel_index> indices(rank);
    for (std::size_t k = 0; k < rank; ++k)
      indices[k] = {walked.extents[k],
                    walked.strides[k] * static_cast<std::ptrdiff_t>(sizeof(element))};
    return element_memory::strided(view.data, sizeof(element), indices);
  }
};

/// Whether a message of T may be received whole, header and elements in one MPI receive.
template <class Format, class T>
constexpr bool received_whole() {
  if constexpr (contiguous_payload<Format, T>::value)
    return contiguous_payload<Format, T>::sized_by_count;
  else
    return false;
}

/// The types this program sends or receives, as functions that give their schemas: filled as
/// the program starts, so that every rank of one program knows every type any of its ranks
/// sends, and a receiver of another type can name the sender's (a message carries only the
/// fingerprint of its type's schema).
using schema_function = const type_schema& (*)();
inline std::vector<schema_function>& message_types() {
  static std::vector<schema_function> all;
  return all;
}
template <class T>
struct message_type {
  static inline const bool known = (message_types().push_back(&bale::schema_of<T>), true);
};

/// The schema of a type of this program whose fingerprint is `fingerprint`, or null.
inline const type_schema* schema_of_message_type(std::uint64_t fingerprint) {
  for (const schema_function schema : message_types())
    if (schema().fingerprint() == fingerprint) return &schema();
  return nullptr;
}

/// A message's type check: its schema's fingerprint, the same for every compiler and for every
/// type written alike (a span and the vector it is received into).
template <class T>
std::uint64_t message_fingerprint() {
  (void)message_type<std::remove_cv_t<T>>::known;
  return bale::schema_of<std::remove_cv_t<T>>().fingerprint();
}

}  // namespace bale::mpi::detail
