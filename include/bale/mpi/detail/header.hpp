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
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/little_endian.hpp"
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

/// A top-level value whose bytes in Format are a length and then its elements' memory
/// (bale::array_is_memory): it is sent from and received into that memory, with no copy.
template <class Format, class T>
struct contiguous_payload : std::false_type {};
template <class Format, class E, class Alloc>
requires array_is_memory<Format, E>
struct contiguous_payload<Format, std::vector<E, Alloc>> : std::true_type {
  using element = E;
};
template <class Format, class E, std::size_t N>
requires array_is_memory<Format, std::remove_const_t<E>>
struct contiguous_payload<Format, std::span<E, N>> : std::true_type {
  using element = std::remove_const_t<E>;
};

/// A message's type check: its schema's fingerprint, the same for every compiler and for every
/// type written alike (a span and the vector it is received into).
template <class T>
std::uint64_t message_fingerprint() {
  return bale::schema_of<std::remove_cv_t<T>>().fingerprint();
}

}  // namespace bale::mpi::detail
