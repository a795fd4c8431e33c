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
#include <climits>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
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
encoded encode_or_fail(const T& value, const channel& on) {
  try {
    return {encode<Format>(value, *on.settings), nullptr};
  } catch (...) {
    return {failure_message({on.rank, failure_kind::encode}), std::current_exception()};
  }
}

/// The mark a rank sends on for `failure`: where it began, or here with `own` as what failed.
inline outgoing failure_message_for(const channel& on, const std::exception_ptr& failure,
                                    failure_kind own) {
  return failure_message(origin_of(failure, on.rank, own));
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

/// What a broadcast's head announces will follow it, from its raw fields (payload size, split,
/// piece size): the same on every rank, whatever a rank makes of the head.
struct announced_pieces {
  std::uint64_t rest = 0;
  std::size_t piece = 0;
};
inline announced_pieces announced_after(std::span<const std::byte> head) {
  const std::uint64_t payload_size = get_u64(head.data() + 16);
  if (payload_size <= broadcast_inline) return {};
  const std::uint64_t split = get_u64(head.data() + header_size + broadcast_split_at);
  const std::uint64_t first = split == 0 ? 8 : split;
  const std::size_t piece = broadcast_piece_size(get_u64(head.data() + 24));
  if (first >= payload_size || piece == 0) return {};
  return {payload_size - first, piece};
}

/// Past this much after the head, the ranks agree (one MPI_Allreduce) that every receiver takes
/// the value before the root sends it: a refused value then costs no rank the time to move it.
inline constexpr std::uint64_t broadcast_agreed_above = broadcast_piece;

/// The lowest rank that refuses the broadcast's value, or INT_MAX (collective, with the root).
inline int first_refusing(const channel& on, int rank, bool refusing) {
  const int mine = refusing ? rank : INT_MAX;
  int first = INT_MAX;
  check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, on.heads), "MPI_Allreduce");
  return first;
}
inline error refused_by(int rank, int root) {
  return error(bale::error(errc::invalid_value,
                           bale::detail::error_text(
                               {"rank ", rank, " refused the broadcast's value; it was not sent"})),
               root, MPI_ANY_TAG);
}

/// Takes the pieces a root sends after a head this rank refused, as the head announces them,
/// into a buffer of one piece.
inline void drain_announced_rest(const announced_pieces& announced, int root, MPI_Comm comm) {
  if (announced.rest == 0) return;
  std::vector<std::byte> discarded(
      static_cast<std::size_t>(std::min<std::uint64_t>(announced.rest, announced.piece)));
  for (std::uint64_t left = announced.rest; left > 0;) {
    const std::size_t count =
        static_cast<std::size_t>(std::min<std::uint64_t>(left, announced.piece));
    broadcast_pieces(element_memory(std::span<const std::byte>(discarded).first(count)),
                     announced.piece, root, comm);
    left -= count;
  }
}

/// The root's side: the head, then (when every receiver takes it) the rest in pieces.
template <class Format, class T>
void broadcast_from_root(const channel& on, const T& value, int root,
                         const failure_origin* root_failed) {
  std::array<std::byte, header_size + broadcast_inline> head{};
  encoded sent = root_failed ? encoded{failure_message(*root_failed), nullptr}
                             : encode_or_fail<Format>(value, on);
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
  if (announced_after(head).rest > broadcast_agreed_above) {
    const int refusing = first_refusing(on, root, false);
    if (refusing != INT_MAX) {
      if (sent.failure) std::rethrow_exception(sent.failure);
      throw refused_by(refusing, root);
    }
  }
  if (first < payload_size) {
    const std::span<const std::byte> rest = payload_after(message, first);
    broadcast_pieces(message.rest.is_strided() ? message.rest : element_memory(rest), piece, root,
                     on.heads);
  }
  if (sent.failure) std::rethrow_exception(sent.failure);
}

/// `root_failed`: the root has no value to send (a failure before, which began there); the
/// others are told so.
template <class Format, class T>
void broadcast(const channel& on, T& value, int root, int rank,
               const failure_origin* root_failed = nullptr) {
  if (rank == root) return broadcast_from_root<Format>(on, value, root, root_failed);
  std::array<std::byte, header_size + broadcast_inline> head{};
  check(MPI_Bcast(head.data(), static_cast<int>(head.size()), MPI_BYTE, root, on.heads),
        "MPI_Bcast", root);
  const status from{root, MPI_ANY_TAG};
  const announced_pieces announced = announced_after(head);
  std::optional<payload_target<Format, T>> target;
  element_memory destination;
  std::size_t piece = 0;
  std::exception_ptr refused;
  try {
    const std::size_t first = split_received(head, from);
    const header h = parse_head(std::span<const std::byte>(head).first(header_size + first), from);
    piece = broadcast_piece_size(h.chunk_bytes);
    if (auto refusal_error =
            refusal<Format, T>(h, *on.settings, on.settings->limits.max_allocation, from))
      throw *refusal_error;
    target.emplace(*on.settings, value);
    destination =
        target->prepare(h, std::span<const std::byte>(head).subspan(header_size, first), piece);
  } catch (...) {
    refused = std::current_exception();
  }
  if (announced.rest > broadcast_agreed_above) {
    // Every rank learns whether the rest moves; when some rank refuses, it does not.
    const int refusing = first_refusing(on, rank, refused != nullptr);
    if (refused) std::rethrow_exception(refused);
    if (refusing != INT_MAX) {
      target->abandon();
      throw refused_by(refusing, root);
    }
  } else if (refused) {
    // The root sends what its head announced whatever this rank makes of it: taking it keeps
    // the next collective in step on every rank.
    drain_announced_rest(announced, root, on.heads);
    std::rethrow_exception(refused);
  }
  broadcast_pieces(destination, piece, root, on.heads);
  target->finish(from);
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
    encoded sent = encode_or_fail<Format>(value, on);
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
  failure_kind what = failure_kind::values;
  for (const int dest : ranks_except(size, rank)) {
    if (failure) {
      messages.push_back(failure_message_for(on, failure, what));
    } else {
      encoded sent = encode_or_fail<Format>(values[static_cast<std::size_t>(dest)], on);
      if (sent.failure) {
        failure = sent.failure;
        what = failure_kind::encode;
      }
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

/// A reduction's value on this rank, or why it has none and where that failure began.
template <class T>
struct reduced {
  T value;
  std::exception_ptr failure;
  failure_origin origin;
};

/// Combines every rank's value with op in rank order (op need not be commutative) along a
/// binomial tree rooted at rank 0: each rank combines at most log2(size) values. A rank that
/// fails sends a failure mark up the tree in place of its value; nothing throws here.
template <class Format, class T, class Op>
reduced<T> reduce_to_first(const channel& on, const T& value, Op& op, int rank, int size,
                           std::vector<std::byte>& scratch) {
  reduced<T> result{value, nullptr, {}};
  const auto fail = [&](failure_kind what) {
    result.failure = std::current_exception();
    result.origin = origin_of(result.failure, rank, what);
  };
  for (int step = 1; step < size; step <<= 1) {
    if (rank & step) {
      if (result.failure) {
        send_message(on, rank - step, reduce_tag, failure_message(result.origin));
      } else {
        encoded sent = encode_or_fail<Format>(result.value, on);
        send_message(on, rank - step, reduce_tag, sent.message);
        if (sent.failure) {
          result.failure = sent.failure;
          result.origin = {rank, failure_kind::encode};
        }
      }
      break;
    }
    if (rank + step >= size) continue;
    T other = T();
    try {
      receive<Format>(on, rank + step, reduce_tag, other, scratch);
    } catch (...) {
      if (!result.failure) fail(failure_kind::receive);
      continue;
    }
    if (result.failure) continue;
    try {
      result.value = op(std::move(result.value), std::move(other));
    } catch (...) {
      fail(failure_kind::operation);
    }
  }
  return result;
}

/// The prefixes of every rank's value in rank order, along a chain: rank r receives the
/// combination of ranks 0..r-1 from r-1 and sends its own to r+1. `inclusive`: rank r gets
/// op(prefix, its value); else the prefix (T{} on rank 0). A rank that fails passes a failure
/// mark on, so every later rank fails too and none is left waiting.
template <class Format, class T, class Op>
T scan_chain(const channel& on, const T& value, Op& op, int rank, int size, bool inclusive,
             std::vector<std::byte>& scratch) {
  std::exception_ptr failure;
  failure_kind what = failure_kind::receive;
  T before = T();
  T through = value;
  if (rank > 0) {
    try {
      receive<Format>(on, rank - 1, scan_tag, before, scratch);
      what = failure_kind::operation;
      through = op(before, value);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (rank + 1 < size) {
    encoded sent = failure ? encoded{failure_message_for(on, failure, what), failure}
                           : encode_or_fail<Format>(through, on);
    send_message(on, rank + 1, scan_tag, sent.message);
    if (!failure) failure = sent.failure;
  }
  if (failure) std::rethrow_exception(failure);
  return inclusive ? through : before;
}

}  // namespace bale::mpi::detail
