// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::mpi::communicator: any serializable value between the ranks of an MPI communicator.
//
//   bale::mpi::communicator comm(MPI_COMM_WORLD);
//   comm.send(1, tag, cells);                         // rank 0
//   auto cells = comm.recv<std::vector<cell>>(0, tag);  // rank 1
//   comm.broadcast(config, 0);
//   std::vector<stats> all = comm.gather(mine, 0);
//
// The wrapped communicator is duplicated three times (messages, chunks of large messages,
// collectives), each with MPI_ERRORS_RETURN: a failing MPI call throws bale::mpi::error and never
// aborts, and bale's traffic never mixes with the program's own on the original communicator.
// A communicator is used by one thread at a time.

#include <mpi.h>

#include <chrono>
#include <climits>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "bale/binary/format.hpp"
#include "bale/core/format.hpp"
#include "bale/mpi/detail/collectives.hpp"
#include "bale/mpi/detail/incoming.hpp"
#include "bale/mpi/detail/outgoing.hpp"
#include "bale/mpi/error.hpp"
#include "bale/mpi/operations.hpp"
#include "bale/mpi/options.hpp"
#include "bale/mpi/probed_message.hpp"
#include "bale/mpi/request.hpp"

namespace bale::mpi {

inline constexpr int any_source = MPI_ANY_SOURCE;
inline constexpr int any_tag = MPI_ANY_TAG;

template <class Format = binary>
class basic_communicator {
  static_assert(format<Format>,
                "bale::mpi::basic_communicator<Format>: Format is a bale format tag");

 public:
  /// Duplicates `comm` (collective over its ranks). Throws bale::mpi::error.
  explicit basic_communicator(MPI_Comm comm, options settings = {})
      : state_(std::make_unique<state>()) {
    if (settings.chunk_bytes == 0 || settings.chunk_bytes > INT_MAX)
      throw error(bale::error(errc::invalid_value, "chunk_bytes must be within 1..INT_MAX"),
                  MPI_PROC_NULL, any_tag);
    state_->settings = settings;
    for (MPI_Comm* duplicate : {&state_->messages, &state_->chunks, &state_->collective}) {
      detail::check(MPI_Comm_dup(comm, duplicate), "MPI_Comm_dup");
      detail::check(MPI_Comm_set_errhandler(*duplicate, MPI_ERRORS_RETURN),
                    "MPI_Comm_set_errhandler");
    }
    detail::check(MPI_Comm_rank(comm, &state_->rank), "MPI_Comm_rank");
    detail::check(MPI_Comm_size(comm, &state_->size), "MPI_Comm_size");
  }
  basic_communicator(basic_communicator&&) noexcept = default;
  basic_communicator& operator=(basic_communicator&&) noexcept = default;

  int rank() const noexcept { return state_->rank; }
  int size() const noexcept { return state_->size; }
  const options& settings() const noexcept { return state_->settings; }
  /// The duplicate that carries point-to-point heads (for MPI calls beside bale's).
  MPI_Comm native() const noexcept { return state_->messages; }
  /// The duplicate that carries the chunks of large messages (for tools and tests).
  MPI_Comm native_chunks() const noexcept { return state_->chunks; }

  /// The ranks that give the same `colour`, ordered by `key` (then by rank here), as a
  /// communicator of their own with these options; none for a rank that gives MPI_UNDEFINED.
  /// Collective. A colour that is neither >= 0 nor MPI_UNDEFINED is errc::invalid_value on every
  /// rank, naming the lowest rank that gave one.
  std::optional<basic_communicator> split(int colour, int key) const {
    // Checked together first: MPI would fail the one rank and leave the others waiting.
    const int mine = colour >= 0 || colour == MPI_UNDEFINED ? size() : rank();
    int first_bad = size();
    detail::check(MPI_Allreduce(&mine, &first_bad, 1, MPI_INT, MPI_MIN, state_->collective),
                  "MPI_Allreduce");
    if (first_bad != size())
      throw error(bale::error(errc::invalid_value,
                              bale::detail::error_text(
                                  {"split: rank ", first_bad,
                                   " gave a colour that is neither >= 0 nor MPI_UNDEFINED"})),
                  first_bad, any_tag);
    MPI_Comm part = MPI_COMM_NULL;
    detail::check(MPI_Comm_split(state_->collective, colour, key, &part), "MPI_Comm_split");
    if (part == MPI_COMM_NULL) return std::nullopt;
    try {
      basic_communicator made(part, settings());
      MPI_Comm_free(&part);
      return made;
    } catch (...) {
      MPI_Comm_free(&part);
      throw;
    }
  }
  /// Another communicator of the same ranks, with private duplicates of its own. Collective.
  basic_communicator dup() const { return basic_communicator(state_->collective, settings()); }
  /// A communicator of the listed ranks, ranked in the order given, with these options.
  /// Collective over the listed ranks only, which all pass the same list; a rank not listed
  /// must not call it. Throws errc::invalid_value for a list with a rank out of range, twice, or
  /// without the calling rank.
  basic_communicator group(std::span<const int> ranks) const {
    check_group(ranks);
    MPI_Group all = MPI_GROUP_NULL;
    MPI_Group chosen = MPI_GROUP_NULL;
    MPI_Comm part = MPI_COMM_NULL;
    const auto release = [&] {
      if (part != MPI_COMM_NULL) MPI_Comm_free(&part);
      if (chosen != MPI_GROUP_NULL) MPI_Group_free(&chosen);
      if (all != MPI_GROUP_NULL) MPI_Group_free(&all);
    };
    try {
      detail::check(MPI_Comm_group(state_->collective, &all), "MPI_Comm_group");
      detail::check(MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &chosen),
                    "MPI_Group_incl");
      detail::check(MPI_Comm_create_group(state_->collective, chosen, detail::group_tag, &part),
                    "MPI_Comm_create_group");
      basic_communicator made(part, settings());
      release();
      return made;
    } catch (...) {
      release();
      throw;
    }
  }

  // Point to point ------------------------------------------------------------------------

  /// Sending to MPI_PROC_NULL (an edge of a Cartesian grid) does nothing.
  template <class T>
  void send(int dest, int tag, const T& value) {
    if (dest == MPI_PROC_NULL) return;
    detail::outgoing message =
        detail::encode<Format>(value, settings(), std::move(state_->sent_bytes));
    detail::send_message(p2p(), dest, tag, message);
    if (message.bytes.capacity() <= detail::kept_buffer_bytes)
      state_->sent_bytes = std::move(message.bytes);
  }

  /// Receives into `value`, reusing its capacity; returns where the message came from.
  /// Receiving from MPI_PROC_NULL leaves `value` as it is and returns that source.
  template <class T>
  status recv(int source, int tag, T& value) {
    if (source == MPI_PROC_NULL) return {MPI_PROC_NULL, MPI_ANY_TAG};
    return detail::receive<Format>(p2p(), source, tag, value, state_->scratch);
  }
  template <class T>
  T recv(int source, int tag) {
    T value = T();
    recv(source, tag, value);
    return value;
  }
  /// recv, waiting at most `timeout` for the peer: then errc::timed_out, naming the rank, the
  /// tag and what did not arrive. Chunks of the message that arrive later are skipped.
  template <class T>
  status recv(int source, int tag, T& value, std::chrono::steady_clock::duration timeout) {
    if (source == MPI_PROC_NULL) return {MPI_PROC_NULL, MPI_ANY_TAG};
    return detail::receive<Format>(p2p(), source, tag, value, state_->scratch,
                                   detail::waiting::within(timeout));
  }
  template <class T>
  T recv(int source, int tag, std::chrono::steady_clock::duration timeout) {
    T value = T();
    recv(source, tag, value, timeout);
    return value;
  }

  /// Waits for a message and says where it comes from, without receiving it.
  status probe(int source, int tag) const {
    MPI_Status probed;
    detail::check(MPI_Probe(source, tag, state_->messages, &probed), "MPI_Probe", source, tag);
    return {probed.MPI_SOURCE, probed.MPI_TAG};
  }
  std::optional<status> iprobe(int source, int tag) const {
    MPI_Status probed;
    int found = 0;
    detail::check(MPI_Iprobe(source, tag, state_->messages, &found, &probed), "MPI_Iprobe", source,
                  tag);
    if (!found) return std::nullopt;
    return status{probed.MPI_SOURCE, probed.MPI_TAG};
  }
  /// Waits for a message and matches it: no other receive can take it, and it says its size and
  /// type before it is received (probed_message::recv). Collects what earlier refused or
  /// abandoned messages still owe while it waits.
  probed_message<Format> mprobe(int source, int tag) {
    return *probed_message<Format>::match(p2p(), source, tag, detail::waiting::forever());
  }
  /// mprobe, waiting at most `timeout`: none when no message came.
  std::optional<probed_message<Format>> mprobe(int source, int tag,
                                               std::chrono::steady_clock::duration timeout) {
    return probed_message<Format>::match(p2p(), source, tag, detail::waiting::within(timeout));
  }
  /// mprobe when a message is there already, without waiting.
  std::optional<probed_message<Format>> improbe(int source, int tag) {
    return probed_message<Format>::match(p2p(), source, tag, detail::waiting::none());
  }

  /// Sends `value` to dest and receives into `received` from source, in either order, so that
  /// ranks exchanging with each other cannot deadlock. A large contiguous array is sent from its
  /// own memory.
  template <class T, class U>
  status sendrecv(int dest, int send_tag, const T& value, int source, int recv_tag, U& received) {
    send_request sending = isend(dest, send_tag, value);
    const status from = recv(source, recv_tag, received);
    sending.wait();
    return from;
  }
  template <class U, class T>
  U sendrecv(int dest, int send_tag, const T& value, int source, int recv_tag) {
    U received{};
    sendrecv(dest, send_tag, value, source, recv_tag, received);
    return received;
  }

  /// Sends without waiting. A large contiguous array (zero_copy_bytes and up) is sent from its
  /// own memory: an rvalue is moved into the request; an lvalue is borrowed, and, as with
  /// MPI_Isend, must stay alive and unchanged until the request completes. Any other value is
  /// encoded into memory the request owns.
  template <class T>
  send_request isend(int dest, int tag, T&& value) {
    using V = std::remove_cvref_t<T>;
    if (dest == MPI_PROC_NULL) return {};
    auto posted = std::make_unique<send_request::state>();
    posted->dest = dest;
    posted->tag = tag;
    if constexpr (!std::is_lvalue_reference_v<T> && detail::contiguous_payload<Format, V>::value) {
      auto kept = std::make_shared<const V>(std::move(value));
      posted->message = detail::encode<Format>(*kept, settings());
      posted->kept = std::move(kept);
    } else {
      posted->message = detail::encode<Format>(value, settings());
    }
    detail::post_message(p2p(), dest, tag, posted->message, posted->requests);
    return send_request(std::move(posted));
  }

  /// Receives without waiting, into a posted MPI_Irecv: a message whose payload is larger than
  /// max_bytes is an error.
  template <class T>
  recv_request<Format, T> irecv(int source, int tag, std::size_t max_bytes) {
    return recv_request<Format, T>(p2p(), source, tag, max_bytes);
  }
  /// Receives a message of any size (within the limits), matched only in test() and wait().
  template <class T>
  recv_request<Format, T> irecv(int source, int tag) {
    return recv_request<Format, T>(p2p(), source, tag, std::nullopt);
  }

  // Collectives ----------------------------------------------------------------------------

  /// `value` is read on root and written on every other rank.
  template <class T>
  void broadcast(T& value, int root) {
    detail::broadcast<Format>(collective(), value, root, rank());
  }
  /// Every rank's value, in rank order, on root; an empty vector elsewhere.
  template <class T>
  std::vector<T> gather(const T& value, int root) {
    return detail::gather<Format>(collective(), value, root, rank(), size(), state_->scratch);
  }
  /// Every rank's value, in rank order, on every rank.
  template <class T>
  std::vector<T> all_gather(const T& value) {
    std::vector<T> values = gather(value, 0);
    broadcast(values, 0);
    return values;
  }
  /// values[r] (read on root, one per rank) arrives on rank r.
  template <class T>
  T scatter(const std::vector<T>& values, int root) {
    return detail::scatter<Format>(collective(), values, root, rank(), size(), state_->scratch);
  }
  /// values[r] goes to rank r; returns what every rank sent to this one, in rank order.
  template <class T>
  std::vector<T> all_to_all(const std::vector<T>& values) {
    return detail::all_to_all<Format>(collective(), values, rank(), size(), state_->scratch);
  }
  /// op(op(v0, v1), v2)... over every rank's value in rank order, on root (op need not be
  /// commutative; it runs on log2(size) levels of a tree). Other ranks get T{}. An operation of
  /// bale/mpi/operations.hpp on arithmetic values or arrays of them is MPI_Reduce itself.
  template <class T, class Op>
  T reduce(const T& value, Op op, int root) {
    if constexpr (detail::native_reduction<Op, T>)
      return detail::native_reduce<Op>(value, root, rank(), state_->collective);
    else
      return serialized_reduce(value, op, root);
  }
  /// reduce, with the result on every rank (MPI_Allreduce for operations.hpp's operations).
  template <class T, class Op>
  T all_reduce(const T& value, Op op) {
    if constexpr (detail::native_reduction<Op, T>)
      return detail::native_all_reduce<Op>(value, state_->collective);
    else
      return serialized_all_reduce(value, op);
  }
  /// op over the values of ranks 0..rank, in rank order (op need not be commutative): rank r
  /// gets v0 op v1 ... op vr. One message per rank along a chain; MPI_Scan for operations.hpp's
  /// operations on arithmetic values and arrays.
  template <class T, class Op>
  T scan(const T& value, Op op) {
    return prefix(value, op, true);
  }
  /// The same over ranks 0..rank-1: rank 0 gets T{}.
  template <class T, class Op>
  T exscan(const T& value, Op op) {
    return prefix(value, op, false);
  }
  void barrier() { detail::check(MPI_Barrier(state_->collective), "MPI_Barrier"); }

 private:
  struct state {
    MPI_Comm messages = MPI_COMM_NULL;
    MPI_Comm chunks = MPI_COMM_NULL;
    MPI_Comm collective = MPI_COMM_NULL;
    options settings;
    int rank = 0;
    int size = 0;
    std::vector<std::byte> scratch;     // heads received, kept for the next receive
    std::vector<std::byte> sent_bytes;  // the last message sent, kept for the next send
    detail::chunk_debts p2p_debts;      // chunks of messages given up on, to be skipped
    detail::chunk_debts collective_debts;

    state() = default;
    state(const state&) = delete;
    state& operator=(const state&) = delete;
    ~state() {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (finalized) return;
      for (MPI_Comm* duplicate : {&messages, &chunks, &collective})
        if (*duplicate != MPI_COMM_NULL) MPI_Comm_free(duplicate);
    }
  };

  void check_group(std::span<const int> ranks) const {
    std::vector<bool> seen(static_cast<std::size_t>(size()));
    bool mine = false;
    for (const int r : ranks) {
      if (r < 0 || r >= size() || seen[static_cast<std::size_t>(r)])
        throw error(bale::error(errc::invalid_value,
                                bale::detail::error_text(
                                    {"group: rank ", r, " is ",
                                     r < 0 || r >= size() ? "out of range" : "listed twice"})),
                    r, any_tag);
      seen[static_cast<std::size_t>(r)] = true;
      mine = mine || r == rank();
    }
    if (!mine)
      throw error(bale::error(errc::invalid_value, "group: the calling rank is not listed"), rank(),
                  any_tag);
  }

  detail::channel p2p() const {
    return {state_->messages, state_->chunks, &state_->settings, &state_->p2p_debts, state_->rank};
  }
  detail::channel collective() const {
    return {state_->collective, state_->collective, &state_->settings, &state_->collective_debts,
            state_->rank};
  }
  template <class T, class Op>
  T prefix(const T& value, Op& op, bool inclusive) {
    if constexpr (detail::native_reduction<Op, T>)
      return detail::native_scan<Op>(value, inclusive, rank(), state_->collective);
    else
      return detail::scan_chain<Format>(collective(), value, op, rank(), size(), inclusive,
                                        state_->scratch);
  }
  template <class T, class Op>
  T serialized_reduce(const T& value, Op& op, int root) {
    detail::reduced<T> r =
        detail::reduce_to_first<Format>(collective(), value, op, rank(), size(), state_->scratch);
    if (root != 0 && rank() == 0) {
      if (r.failure) {
        detail::send_message(collective(), root, detail::reduce_tag,
                             detail::failure_message(r.origin));
      } else {
        detail::encoded sent = detail::encode_or_fail<Format>(r.value, collective());
        detail::send_message(collective(), root, detail::reduce_tag, sent.message);
        if (sent.failure) {
          r.failure = sent.failure;
          r.origin = {0, detail::failure_kind::encode};
        }
      }
    } else if (root != 0 && rank() == root) {
      try {
        detail::receive<Format>(collective(), 0, detail::reduce_tag, r.value, state_->scratch);
      } catch (...) {
        if (!r.failure) {
          r.failure = std::current_exception();
          r.origin = detail::origin_of(r.failure, rank(), detail::failure_kind::receive);
        }
      }
    }
    fail_together(r);
    return rank() == root ? std::move(r.value) : T();
  }
  template <class T, class Op>
  T serialized_all_reduce(const T& value, Op& op) {
    detail::reduced<T> r =
        detail::reduce_to_first<Format>(collective(), value, op, rank(), size(), state_->scratch);
    try {
      detail::broadcast<Format>(collective(), r.value, 0, rank(),
                                rank() == 0 && r.failure ? &r.origin : nullptr);
    } catch (...) {
      if (!r.failure) r.failure = std::current_exception();
    }
    if (r.failure) std::rethrow_exception(r.failure);
    return std::move(r.value);
  }
  // After a reduction's messages: every rank learns the lowest rank where a failure began (one
  // MPI_Allreduce), since ranks off the tree's path to the root see none. A rank that failed
  // rethrows its own exception; the others throw an error naming that rank and what failed.
  template <class T>
  void fail_together(const detail::reduced<T>& r) {
    struct {
      int rank;
      int kind;
    } mine{r.failure ? r.origin.rank : size(), static_cast<int>(r.origin.kind)}, first{};
    detail::check(MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MINLOC, state_->collective),
                  "MPI_Allreduce");
    if (r.failure) std::rethrow_exception(r.failure);
    if (first.rank != size())
      throw error(detail::failure_origin{first.rank, static_cast<detail::failure_kind>(first.kind)},
                  detail::reduce_tag);
  }

  std::unique_ptr<state> state_;
};

using communicator = basic_communicator<binary>;

}  // namespace bale::mpi
