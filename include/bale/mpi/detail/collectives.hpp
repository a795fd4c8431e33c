// SPDX-License-Identifier: BSL-1.0
#pragma once
// Collectives for any serializable type, on the communicator's private collective duplicate.
// Broadcast sends a fixed head (header and a small payload whole, or what a larger one holds
// ahead of its array's elements) with MPI_Bcast, then the rest in pieces, from the root's array
// straight into the array on every rank. Gather, scatter,
// all-to-all and reduce move each value as a point-to-point message (head, then chunks), so sizes
// are 64-bit everywhere, each message is checked against the receiver's limits before anything
// is allocated, and no displacement is ever an int. A rank that cannot encode its value sends a
// failure mark instead, so the others finish the collective and report it.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <utility>
#include <vector>

#include "bale/mpi/detail/incoming.hpp"
#include "bale/mpi/detail/outgoing.hpp"

namespace bale::mpi::detail {

/// A broadcast moves in pieces of at most this size: a rank that refuses a broadcast still takes
/// part, through one buffer of at most a piece.
inline constexpr std::size_t broadcast_piece = std::size_t{16} << 20;

enum collective_tag : int {
  gather_tag = 1,
  scatter_tag,
  all_to_all_tag,
  reduce_tag,
  scan_tag,
  group_tag
};

struct encoded {
  outgoing message;
  std::exception_ptr failure;
};
template <class Format, class T>
encoded encode_or_fail(const T& value, const options& settings) {
  try {
    return {encode<Format>(value, settings), nullptr};
  } catch (...) {
    return {failure_message(), std::current_exception()};
  }
}

inline void broadcast_pieces(const element_memory& memory, std::size_t piece, int root,
                             MPI_Comm comm) {
  for_each_piece(memory, piece, [&](const memory_piece& at) {
    check(MPI_Bcast(at.buffer, at.count, at.type, root, comm), "MPI_Bcast", root);
  });
}

/// The payload bytes of an encoded message after its first `skip`, wherever they are held.
inline std::span<const std::byte> payload_after(const outgoing& message, std::size_t skip) {
  const std::span<const std::byte> in_head = message.head.subspan(header_size);
  if (in_head.size() > skip) return in_head.subspan(skip);
  return message.rest.bytes().subspan(skip - in_head.size());
}

/// The pieces a broadcast moves its payload after the head in: the header's chunks, at most
/// broadcast_piece bytes each.
inline std::size_t broadcast_piece_size(std::uint64_t chunk_bytes) {
  return static_cast<std::size_t>(std::min<std::uint64_t>(chunk_bytes, broadcast_piece));
}

/// A broadcast's head: the header, then the whole payload when it is this small (one MPI_Bcast
/// in all). Of a larger payload the head holds what the root's message keeps ahead of a
/// contiguous array's elements (a vector's length; an array's layout, extents and count), so that
/// those elements land in the array on every rank, and that byte count in its last 8 bytes.
inline constexpr std::size_t broadcast_inline = 1024;
inline constexpr std::size_t broadcast_split_at = broadcast_inline - 8;
static_assert(strided_from_memory_bytes > broadcast_inline,
              "a strided array's payload never fits in a broadcast's head");

/// The root's split: the bytes its message holds ahead of an array sent from its own memory, or
/// 8 for a message encoded whole (a receiving vector still takes its elements in place). Never 0,
/// which stands for 8 from an earlier release.
inline std::size_t split_to_send(const outgoing& message, std::uint64_t payload_size) {
  if (payload_size <= broadcast_inline) return payload_size;
  const std::size_t in_head = message.head.size() - header_size;
  const bool array_follows = !message.rest.empty() && in_head != 0;
  return array_follows && in_head <= broadcast_split_at ? in_head : 8;
}

/// A receiver's split, from the head the root sent; a split past the head is the root's error.
/// A root of release 0.4 or earlier left the split 0 and held 8 bytes in the head.
inline std::size_t split_received(std::span<const std::byte> head, status from) {
  const std::uint64_t payload_size = get_u64(head.data() + 16);
  if (payload_size <= broadcast_inline) return payload_size;
  const std::uint64_t first = get_u64(head.data() + header_size + broadcast_split_at);
  if (first == 0) return 8;
  if (first > broadcast_split_at)
    throw error(
        bale::error(errc::invalid_value,
                    bale::detail::error_text({"a broadcast's head splits its payload at ", first,
                                              " bytes, past the head's ", broadcast_split_at})),
        from.source, from.tag);
  return first;
}

/// `root_failed`: the root has no value to send (it failed before); the others are told so.
template <class Format, class T>
void broadcast(const channel& on, T& value, int root, int rank, bool root_failed = false) {
  std::array<std::byte, header_size + broadcast_inline> head{};
  if (rank == root) {
    encoded sent = root_failed ? encoded{failure_message(), nullptr}
                               : encode_or_fail<Format>(value, *on.settings);
    const outgoing& message = sent.message;
    const std::uint64_t payload_size = get_u64(message.head.data() + 16);
    const std::size_t first = split_to_send(message, payload_size);
    std::memcpy(head.data(), message.head.data(), header_size);
    // A strided array moves in pieces of whole elements, whatever broadcast_piece holds.
    const std::size_t unit = message.rest.unit();
    const std::size_t piece = broadcast_piece_size(chunk_size(message)) / unit * unit;
    put_u64(head.data() + 24, piece);
    if (payload_size > broadcast_inline)
      put_u64(head.data() + header_size + broadcast_split_at, first);
    // The head's payload, then the rest's (never a strided array's: its head is all of `first`).
    for (std::size_t copied = 0; copied < first;) {
      const std::span<const std::byte> part = payload_after(message, copied);
      const std::size_t count = std::min(part.size(), first - copied);
      std::memcpy(head.data() + header_size + copied, part.data(), count);
      copied += count;
    }
    check(MPI_Bcast(head.data(), static_cast<int>(head.size()), MPI_BYTE, root, on.heads),
          "MPI_Bcast", root);
    if (first < payload_size) {
      const std::span<const std::byte> rest = payload_after(message, first);
      broadcast_pieces(message.rest.is_strided() ? message.rest : element_memory(rest), piece, root,
                       on.heads);
    }
    if (sent.failure) std::rethrow_exception(sent.failure);
    return;
  }
  check(MPI_Bcast(head.data(), static_cast<int>(head.size()), MPI_BYTE, root, on.heads),
        "MPI_Bcast", root);
  const status from{root, MPI_ANY_TAG};
  const std::size_t first = split_received(head, from);
  const header h = parse_head(std::span<const std::byte>(head).first(header_size + first), from);
  const std::size_t rest = h.payload_size - first;
  const std::size_t piece = broadcast_piece_size(h.chunk_bytes);
  if (auto refused =
          refusal<Format, T>(h, *on.settings, on.settings->limits.max_allocation, from)) {
    std::vector<std::byte> discarded(std::min(rest, piece));
    for (std::size_t left = rest; left > 0; left -= std::min(left, piece))
      broadcast_pieces(
          element_memory(std::span<const std::byte>(discarded).first(std::min(left, piece))), piece,
          root, on.heads);
    throw *refused;
  }
  payload_target<Format, T> target(*on.settings, value);
  const element_memory destination =
      target.prepare(h, std::span<const std::byte>(head).subspan(header_size, first), piece);
  broadcast_pieces(destination, piece, root, on.heads);
  target.finish(from);
}

/// Receives one message from each rank in `sources`, into values[rank]; a failure is reported
/// after every message has been received, so that no sender is left blocked.
template <class Format, class T, class Ranks>
void receive_from_each(const channel& on, int tag, const Ranks& sources, std::vector<T>& values,
                       std::vector<std::byte>& scratch, std::exception_ptr& failure) {
  for (const int source : sources) {
    try {
      receive<Format>(on, source, tag, values[static_cast<std::size_t>(source)], scratch);
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
}

inline std::vector<int> ranks_except(int size, int self) {
  std::vector<int> ranks;
  for (int rank = 0; rank < size; ++rank)
    if (rank != self) ranks.push_back(rank);
  return ranks;
}

template <class Format, class T>
std::vector<T> gather(const channel& on, const T& value, int root, int rank, int size,
                      std::vector<std::byte>& scratch) {
  if (rank != root) {
    encoded sent = encode_or_fail<Format>(value, *on.settings);
    send_message(on, root, gather_tag, sent.message);
    if (sent.failure) std::rethrow_exception(sent.failure);
    return {};
  }
  std::vector<T> values(static_cast<std::size_t>(size));
  values[static_cast<std::size_t>(root)] = value;
  std::exception_ptr failure;
  receive_from_each<Format>(on, gather_tag, ranks_except(size, root), values, scratch, failure);
  if (failure) std::rethrow_exception(failure);
  return values;
}

/// Posts one message to each rank but this one: values[rank], or failure marks when `values`
/// does not hold one value per rank.
template <class Format, class T>
std::exception_ptr post_to_each(const channel& on, int tag, const std::vector<T>& values, int rank,
                                int size, std::vector<outgoing>& messages,
                                std::vector<MPI_Request>& requests) {
  std::exception_ptr failure;
  if (values.size() != static_cast<std::size_t>(size))
    failure = std::make_exception_ptr(bale::error(
        errc::invalid_value, bale::detail::error_text({"one value per rank is needed: ", size,
                                                       " ranks, ", values.size(), " values"})));
  messages.reserve(static_cast<std::size_t>(size));
  for (const int dest : ranks_except(size, rank)) {
    if (failure) {
      messages.push_back(failure_message());
    } else {
      encoded sent = encode_or_fail<Format>(values[static_cast<std::size_t>(dest)], *on.settings);
      if (sent.failure) failure = sent.failure;
      messages.push_back(std::move(sent.message));
    }
    post_message(on, dest, tag, messages.back(), requests);
  }
  return failure;
}

inline void wait_for(std::vector<MPI_Request>& requests) {
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
        "MPI_Waitall");
}

template <class Format, class T>
T scatter(const channel& on, const std::vector<T>& values, int root, int rank, int size,
          std::vector<std::byte>& scratch) {
  T mine{};
  if (rank != root) {
    receive<Format>(on, root, scatter_tag, mine, scratch);
    return mine;
  }
  std::vector<outgoing> messages;
  std::vector<MPI_Request> requests;
  const std::exception_ptr failure =
      post_to_each<Format>(on, scatter_tag, values, rank, size, messages, requests);
  wait_for(requests);
  if (failure) std::rethrow_exception(failure);
  return values[static_cast<std::size_t>(root)];
}

template <class Format, class T>
std::vector<T> all_to_all(const channel& on, const std::vector<T>& values, int rank, int size,
                          std::vector<std::byte>& scratch) {
  std::vector<outgoing> messages;
  std::vector<MPI_Request> requests;
  std::exception_ptr failure =
      post_to_each<Format>(on, all_to_all_tag, values, rank, size, messages, requests);
  std::vector<T> received(static_cast<std::size_t>(size));
  receive_from_each<Format>(on, all_to_all_tag, ranks_except(size, rank), received, scratch,
                            failure);
  wait_for(requests);
  if (failure) std::rethrow_exception(failure);
  received[static_cast<std::size_t>(rank)] = values[static_cast<std::size_t>(rank)];
  return received;
}

/// Combines every rank's value with op in rank order (op need not be commutative) along a
/// binomial tree rooted at rank 0: each rank combines at most log2(size) values.
template <class Format, class T, class Op>
T reduce_to_first(const channel& on, const T& value, Op& op, int rank, int size,
                  std::vector<std::byte>& scratch) {
  T combined = value;
  std::exception_ptr failure;
  for (int step = 1; step < size; step <<= 1) {
    if (rank & step) {
      encoded sent = failure ? encoded{failure_message(), failure}
                             : encode_or_fail<Format>(combined, *on.settings);
      send_message(on, rank - step, reduce_tag, sent.message);
      failure = sent.failure;
      break;
    }
    if (rank + step >= size) continue;
    try {
      T other{};
      receive<Format>(on, rank + step, reduce_tag, other, scratch);
      if (!failure) combined = op(std::move(combined), std::move(other));
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  return combined;
}

/// The prefixes of every rank's value in rank order, along a chain: rank r receives the
/// combination of ranks 0..r-1 from r-1 and sends its own to r+1. `inclusive`: rank r gets
/// op(prefix, its value); else the prefix (T{} on rank 0). A rank that fails passes a failure
/// mark on, so every later rank fails too and none is left waiting.
template <class Format, class T, class Op>
T scan_chain(const channel& on, const T& value, Op& op, int rank, int size, bool inclusive,
             std::vector<std::byte>& scratch) {
  std::exception_ptr failure;
  T before{};
  T through = value;
  if (rank > 0) {
    try {
      receive<Format>(on, rank - 1, scan_tag, before, scratch);
      through = op(before, value);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (rank + 1 < size) {
    encoded sent = failure ? encoded{failure_message(), failure}
                           : encode_or_fail<Format>(through, *on.settings);
    send_message(on, rank + 1, scan_tag, sent.message);
    if (!failure) failure = sent.failure;
  }
  if (failure) std::rethrow_exception(failure);
  return inclusive ? through : before;
}

}  // namespace bale::mpi::detail
