// SPDX-License-Identifier: BSL-1.0
#pragma once
// Sending: a value becomes a head (header + the start of the payload) and a rest. The rest is
// either the serialized bytes past the head or, for a large array, the array's own memory:
// contiguous, or strided and sent through derived datatypes. A payload of at most chunk_bytes is
// one MPI message, except an array over one_message_bytes, whose memory follows its head alone; a
// larger payload comes in chunks.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "bale/core/serialize.hpp"
#include "bale/mpi/detail/header.hpp"
#include "bale/mpi/detail/strided_datatype.hpp"
#include "bale/mpi/error.hpp"
#include "bale/mpi/options.hpp"

namespace bale::mpi::detail {

class chunk_debts;

/// Which communicators a message's head and its chunks go on, and the chunks still owed on them.
struct channel {
  MPI_Comm heads = MPI_COMM_NULL;
  MPI_Comm chunks = MPI_COMM_NULL;
  const options* settings = nullptr;
  chunk_debts* debts = nullptr;
  int rank = MPI_PROC_NULL;  // this rank, which a failure mark it sends names
};

/// A communicator keeps the buffers of its last send and receive for the next ones, up to this
/// size; a larger one is given back.
inline constexpr std::size_t kept_buffer_bytes = std::size_t{1} << 20;

struct outgoing {
  std::vector<std::byte> bytes;     // the header, then the serialized payload (or its length only)
  std::span<const std::byte> head;  // the first MPI message, or its first part when joined
  element_memory rest;              // the payload after the head
  bool joined = false;              // whether the rest goes in the head's MPI message
};

/// One MPI message of `first` then `second`, used with MPI_BOTTOM: an array travels between its
/// own memory on both sides, with its header in the same message.
inline scoped_datatype two_places(const void* first, std::size_t first_bytes, const void* second,
                                  std::size_t second_bytes) {
  const std::array<int, 2> lengths = {static_cast<int>(first_bytes),
                                      static_cast<int>(second_bytes)};
  std::array<MPI_Aint, 2> places{};
  MPI_Get_address(first, &places[0]);
  MPI_Get_address(second, &places[1]);
  MPI_Datatype type;
  check(MPI_Type_create_hindexed(2, lengths.data(), places.data(), MPI_BYTE, &type),
        "MPI_Type_create_hindexed");
  if (const int code = MPI_Type_commit(&type); code != MPI_SUCCESS) {
    MPI_Type_free(&type);
    check(code, "MPI_Type_commit");
  }
  return scoped_datatype(type);
}

/// `reuse`: a buffer from an earlier message, whose capacity the encoding may take over.
template <class Format, class T>
outgoing encode(const T& value, const options& settings, std::vector<std::byte> reuse = {}) {
  outgoing message;
  message.bytes = std::move(reuse);
  header h{Format::id, 0, 0, 0, settings.chunk_bytes};
  if (settings.check_types) {
    h.flags = flag_fingerprint;
    h.fingerprint = message_fingerprint<T>();
  }
  message.bytes.clear();
  if constexpr (contiguous_payload<Format, T>::value) {
    using payload = contiguous_payload<Format, T>;
    element_memory memory = payload::memory(value);
    // A strided array's chunks hold whole elements.
    const std::size_t chunk = settings.chunk_bytes - settings.chunk_bytes % memory.unit();
    if (!memory.empty() && memory.size() >= settings.zero_copy_bytes && worth_a_datatype(memory) &&
        chunk != 0) {
      message.bytes.resize(header_size + payload::head_size);
      payload::write_head(message.bytes.data() + header_size, value);
      h.payload_size = payload::head_size + memory.size();
      h.chunk_bytes = chunk;
      write_header(message.bytes.data(), h);
      message.head = message.bytes;
      message.joined = payload::sized_by_count && !memory.is_strided() &&
                       h.payload_size <= std::min(settings.one_message_bytes, chunk);
      message.rest = std::move(memory);
      return message;
    }
  }
  message.bytes.resize(header_size);
  serialize_into<Format>(message.bytes, value);
  h.payload_size = message.bytes.size() - header_size;
  write_header(message.bytes.data(), h);
  const std::span<const std::byte> all(message.bytes);
  const bool fits = h.payload_size <= settings.chunk_bytes;
  message.head = fits ? all : all.first(header_size);
  message.rest = element_memory(fits ? std::span<const std::byte>() : all.subspan(header_size));
  return message;
}

/// What a rank sends in a collective in place of a value it could not give: a header that names
/// where the failure began (its rank + 1, 0 when unknown, where a value's fingerprint goes) and
/// what failed (where the chunk size goes; a mark has no payload).
inline outgoing failure_message(failure_origin origin = {}) {
  outgoing message;
  message.bytes.resize(header_size);
  const std::uint64_t named = origin.rank < 0 ? 0 : static_cast<std::uint64_t>(origin.rank) + 1;
  write_header(message.bytes.data(),
               header{0, flag_failed, named, 0, static_cast<std::uint64_t>(origin.kind)});
  message.head = message.bytes;
  return message;
}

/// The chunk size a message's header announces.
inline std::size_t chunk_size(const outgoing& message) {
  return get_u64(message.head.data() + 24);
}

inline void send_message(const channel& to, int dest, int tag, const outgoing& message) {
  if (message.joined) {
    const std::span<const std::byte> rest = message.rest.bytes();
    const scoped_datatype whole =
        two_places(message.head.data(), message.head.size(), rest.data(), rest.size());
    check(MPI_Send(MPI_BOTTOM, 1, whole.get(), dest, tag, to.heads), "MPI_Send", dest, tag);
    return;
  }
  check(MPI_Send(message.head.data(), static_cast<int>(message.head.size()), MPI_BYTE, dest, tag,
                 to.heads),
        "MPI_Send", dest, tag);
  for_each_piece(message.rest, chunk_size(message), [&](const memory_piece& piece) {
    check(MPI_Send(piece.buffer, piece.count, piece.type, dest, tag, to.chunks), "MPI_Send", dest,
          tag);
  });
}

/// Posts the sends of a message; `requests` gets one per MPI message, completed in any order.
inline void post_message(const channel& to, int dest, int tag, const outgoing& message,
                         std::vector<MPI_Request>& requests) {
  requests.emplace_back();
  if (message.joined) {
    const std::span<const std::byte> rest = message.rest.bytes();
    const scoped_datatype whole =
        two_places(message.head.data(), message.head.size(), rest.data(), rest.size());
    check(MPI_Isend(MPI_BOTTOM, 1, whole.get(), dest, tag, to.heads, &requests.back()), "MPI_Isend",
          dest, tag);
    return;
  }
  check(MPI_Isend(message.head.data(), static_cast<int>(message.head.size()), MPI_BYTE, dest, tag,
                  to.heads, &requests.back()),
        "MPI_Isend", dest, tag);
  for_each_piece(message.rest, chunk_size(message), [&](const memory_piece& piece) {
    requests.emplace_back();
    check(MPI_Isend(piece.buffer, piece.count, piece.type, dest, tag, to.chunks, &requests.back()),
          "MPI_Isend", dest, tag);
  });
}

}  // namespace bale::mpi::detail
