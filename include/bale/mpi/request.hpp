// SPDX-License-Identifier: BSL-1.0
#pragma once
// Nonblocking operations. A send_request owns what it sends until it completes. A recv_request
// receives in one of two ways:
//   with a maximum size   an MPI_Irecv is posted at once, so MPI progresses it like any receive;
//                         a larger message is an error;
//   of any size           the message is matched (MPI_Improbe) only inside test() and wait(),
//                         then received: it makes progress only while the caller asks.
// Either way the value is decoded when the last byte has arrived. Destroying an unfinished
// send_request waits for it; destroying an unfinished recv_request cancels it.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <exception>
#include <memory>
#include <optional>
#include <ranges>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bale/mpi/detail/incoming.hpp"
#include "bale/mpi/detail/outgoing.hpp"

namespace bale::mpi {

template <class Format>
class basic_communicator;

class send_request {
 public:
  send_request() = default;
  send_request(send_request&&) noexcept = default;
  send_request& operator=(send_request&& other) noexcept {
    if (this != &other) {
      finish_quietly();
      state_ = std::move(other.state_);
    }
    return *this;
  }
  ~send_request() { finish_quietly(); }

  /// Whether the request has yet to complete: the *_any and *_some calls skip the others.
  bool active() const noexcept { return state_ != nullptr; }
  /// Whether every byte has left (the owned copy is then released).
  bool test() {
    if (!state_) return true;
    int done = 0;
    detail::check(MPI_Testall(count(), state_->requests.data(), &done, MPI_STATUSES_IGNORE),
                  "MPI_Testall", state_->dest, state_->tag);
    if (done) state_.reset();
    return done != 0;
  }
  void wait() {
    if (!state_) return;
    detail::check(MPI_Waitall(count(), state_->requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall",
                  state_->dest, state_->tag);
    state_.reset();
  }

 private:
  template <class>
  friend class basic_communicator;
  struct state {
    detail::outgoing message;
    std::shared_ptr<const void> kept;  // a value moved into the request, sent from its memory
    std::vector<MPI_Request> requests;
    int dest = MPI_PROC_NULL;
    int tag = 0;
  };
  explicit send_request(std::unique_ptr<state> posted) : state_(std::move(posted)) {}
  int count() const { return static_cast<int>(state_->requests.size()); }
  void finish_quietly() noexcept {
    if (state_) MPI_Waitall(count(), state_->requests.data(), MPI_STATUSES_IGNORE);
    state_.reset();
  }

  std::unique_ptr<state> state_;
};

template <class Format, class T>
class recv_request {
 public:
  recv_request(recv_request&&) noexcept = default;
  recv_request& operator=(recv_request&&) noexcept = default;
  ~recv_request() {
    if (state_) give_up();
  }

  /// Gives the receive up, as destroying the request does: a receive MPI has not matched is
  /// cancelled; the rest of a message already matched is received into nothing during later
  /// receives. test() and wait() then throw. Nothing to do for a request that has completed.
  void cancel() {
    if (!state_) return;
    state& s = *state_;
    if (s.now == phase::done || s.failure) return;
    give_up();
    s.rest.reset();
    s.failure = std::make_exception_ptr(
        error(bale::error(errc::invalid_value, "the receive was cancelled"), s.source, s.tag));
  }

  /// Whether the request has yet to complete or fail: the *_any and *_some calls skip the others.
  bool active() const noexcept { return state_ && state_->now != phase::done && !state_->failure; }
  /// Whether the value has arrived and been decoded; never blocks. Throws bale::mpi::error.
  bool test() { return advance(detail::waiting::none()); }
  /// Waits for the value and returns it (it stays in the request).
  T& wait() {
    advance(detail::waiting::forever());
    return state_->value;
  }
  /// Waits at most `timeout`: whether the value arrived. When it did not, the request stays
  /// pending: test, wait again, or destroy it to give up (what arrives later is skipped).
  bool wait_for(std::chrono::steady_clock::duration timeout) {
    return advance(detail::waiting::within(timeout));
  }
  /// After completion: where the message came from.
  status source() const { return state_->from; }

 private:
  template <class>
  friend class basic_communicator;
  enum class phase { matching, head, chunks, done };
  struct state {
    detail::channel on;
    int source = MPI_ANY_SOURCE;
    int tag = MPI_ANY_TAG;
    std::size_t max_payload = 0;
    phase now = phase::matching;
    std::vector<std::byte> head;
    std::size_t whole_array_bytes = 0;  // a message received whole into the array, or 0
    std::unique_ptr<std::byte[]> sink;  // where the bytes past a too small head buffer go
    MPI_Request head_request = MPI_REQUEST_NULL;
    status from;
    T value = T();
    std::optional<detail::receiver<Format, T>> rest;
    std::exception_ptr failure;
  };

  recv_request(const detail::channel& on, int source, int tag, std::optional<std::size_t> max)
      : state_(std::make_unique<state>()) {
    state& s = *state_;
    s.on = on;
    s.source = source;
    s.tag = tag;
    s.max_payload = std::min(max.value_or(on.settings->limits.max_allocation),
                             on.settings->limits.max_allocation);
    if (source == MPI_PROC_NULL) {  // completes at once, with the value as constructed
      s.from = {MPI_PROC_NULL, MPI_ANY_TAG};
      s.now = phase::done;
      return;
    }
    if (!max) return;
    // The buffer holds any head of a message within the maximum (a chunked message's head is 40
    // bytes at most); the bytes of a larger message go to a sink, so MPI never truncates.
    s.head.resize(detail::header_size + std::max<std::size_t>(s.max_payload, 8));
    s.sink = std::unique_ptr<std::byte[]>(new std::byte[detail::sink_bytes]);
    const std::array<int, 2> counts = {
        static_cast<int>(s.head.size()),
        static_cast<int>((INT_MAX - s.head.size()) / detail::sink_bytes)};
    std::array<MPI_Aint, 2> places{};
    MPI_Get_address(s.head.data(), &places[0]);
    MPI_Get_address(s.sink.get(), &places[1]);
    const std::array<MPI_Datatype, 2> types = {MPI_BYTE, detail::sink_type()};
    MPI_Datatype head_then_sink;
    detail::check(
        MPI_Type_create_struct(2, counts.data(), places.data(), types.data(), &head_then_sink),
        "MPI_Type_create_struct");
    detail::check(MPI_Type_commit(&head_then_sink), "MPI_Type_commit");
    const int posted =
        MPI_Irecv(MPI_BOTTOM, 1, head_then_sink, source, tag, on.heads, &s.head_request);
    MPI_Type_free(&head_then_sink);
    detail::check(posted, "MPI_Irecv", source, tag);
    s.now = phase::head;
  }

  bool advance(const detail::waiting& wait) {
    state& s = *state_;
    if (s.failure) std::rethrow_exception(s.failure);
    try {
      if (s.now == phase::matching && !match(wait)) return false;
      if (s.now == phase::head && !head_arrived(wait)) return false;
      if (s.now == phase::chunks) {
        if (!s.rest->arrived(wait)) return false;
        s.rest->finish();
        s.rest.reset();
        s.now = phase::done;
      }
      return true;
    } catch (...) {
      s.failure = std::current_exception();
      s.rest.reset();
      throw;
    }
  }

  bool match(const detail::waiting& wait) {
    state& s = *state_;
    std::optional<detail::matched_head> found = detail::match_head(s.on, s.source, s.tag, wait);
    if (!found) return false;
    detail::refuse_oversized_head(*found, *s.on.settings);
    s.from = found->from;
    if constexpr (detail::received_whole<Format, T>()) {
      if (const auto elements =
              detail::whole_array_elements<Format, T>(found->size, *s.on.settings)) {
        receive_whole_array(*found, *elements);
        return true;
      }
    }
    s.head.resize(found->size);
    detail::check(MPI_Imrecv(s.head.data(), static_cast<int>(found->size), MPI_BYTE,
                             &found->message, &s.head_request),
                  "MPI_Imrecv", found->from.source, found->from.tag);
    s.now = phase::head;
    return true;
  }

  // Posts the receive of a large contiguous array straight into the value.
  void receive_whole_array(detail::matched_head& found, std::size_t elements) {
    state& s = *state_;
    s.head.resize(detail::array_head_size);
    s.whole_array_bytes = found.size;
    try {
      const detail::scoped_datatype whole =
          detail::whole_array_type(s.head.data(), s.value, elements);
      detail::check(MPI_Imrecv(MPI_BOTTOM, 1, whole.get(), &found.message, &s.head_request),
                    "MPI_Imrecv", found.from.source, found.from.tag);
    } catch (...) {
      if (found.message != MPI_MESSAGE_NULL) detail::discard(found.message, found.size);
      throw;
    }
    s.now = phase::head;
  }

  bool head_arrived(const detail::waiting& wait) {
    state& s = *state_;
    MPI_Status received;
    const bool owing = !s.on.debts->empty();
    const bool done =
        (owing ? wait.polled() : wait)
            .step(
                [&] {
                  if (owing) s.on.debts->settle_all(s.on.chunks);
                  int arrived = 0;
                  detail::check(MPI_Test(&s.head_request, &arrived, &received), "MPI_Test",
                                s.source, s.tag);
                  return arrived != 0;
                },
                [&] {
                  detail::check(MPI_Wait(&s.head_request, &received), "MPI_Wait", s.source, s.tag);
                });
    if (!done) return false;
    if constexpr (detail::received_whole<Format, T>()) {
      if (s.whole_array_bytes != 0) {  // only contiguous arrays are received whole
        detail::check_whole_array<Format>(s.head, s.whole_array_bytes, s.value, *s.on.settings,
                                          s.from);
        s.now = phase::done;
        return true;
      }
    }
    int size = 0;
    MPI_Get_count(&received, MPI_BYTE, &size);
    s.from = {received.MPI_SOURCE, received.MPI_TAG};
    if (static_cast<std::size_t>(size) > s.head.size())  // a single message over the maximum
      throw error(bale::error(errc::allocation_limit,
                              bale::detail::error_text({"a message of ", size,
                                                        " bytes, over the request's maximum of ",
                                                        s.max_payload})),
                  s.from.source, s.from.tag, s.max_payload,
                  static_cast<std::size_t>(size) - detail::header_size);
    s.rest.emplace(s.on, s.value, s.max_payload);
    s.rest->start(std::span<const std::byte>(s.head.data(), static_cast<std::size_t>(size)), s.from,
                  wait);
    s.now = phase::chunks;
    return true;
  }

  // Cancels a posted head receive. One that MPI had matched already has arrived: the chunks its
  // header announces are owed, so that they are not taken for the next message's.
  void give_up() noexcept {
    state& s = *state_;
    if (s.head_request == MPI_REQUEST_NULL) return;
    MPI_Status ended;
    MPI_Cancel(&s.head_request);
    MPI_Wait(&s.head_request, &ended);
    int cancelled = 0;
    MPI_Test_cancelled(&ended, &cancelled);
    int size = 0;
    MPI_Get_count(&ended, MPI_BYTE, &size);
    if (cancelled || s.whole_array_bytes != 0 || size < 0) return;
    const std::size_t arrived = std::min(static_cast<std::size_t>(size), s.head.size());
    try {
      const detail::header h =
          detail::read_header(std::span<const std::byte>(s.head.data(), arrived));
      const std::size_t in_head = static_cast<std::size_t>(size) - detail::header_size;
      if (h.payload_size > in_head)
        s.on.debts->owe(ended.MPI_SOURCE, ended.MPI_TAG, h.payload_size - in_head);
    } catch (...) {  // not a bale message, or no memory to note the debt in: nothing is owed
    }
  }

  std::unique_ptr<state> state_;
};

/// Waits for every request given.
template <class... Requests>
void wait_all(Requests&... requests) {
  (requests.wait(), ...);
}

// Over any mix of send and receive requests (as arguments), or over a range of one kind (a
// request pool). A request that failed throws from any of these, as from its own test().

/// Whether every request has completed; never blocks.
template <class... Requests>
bool test_all(Requests&... requests) {
  bool all = true;
  ((all = requests.test() && all), ...);
  return all;
}
/// What the *_any calls return when no request is active (each has completed before), as
/// MPI_Waitany gives MPI_UNDEFINED once every request is MPI_REQUEST_NULL.
inline constexpr std::size_t undefined = static_cast<std::size_t>(-1);

namespace detail {
// Tests one request if it is active: whether it completed in this call.
template <class Request>
bool completes_now(Request& request, bool& any_active) {
  if (!request.active()) return false;
  any_active = true;
  return request.test();
}
}  // namespace detail

/// The position of the first active request found complete; `undefined` when none is active;
/// none when the active ones are pending. Never blocks.
template <class... Requests>
requires(sizeof...(Requests) > 1) std::optional<std::size_t> test_any(Requests&... requests) {
  std::size_t i = 0;
  bool any_active = false;
  std::optional<std::size_t> done;
  ((!done && detail::completes_now(requests, any_active) ? (void)(done = i) : (void)++i), ...);
  if (!done && !any_active) return undefined;
  return done;
}
/// Waits until one active request has completed; returns its position, or `undefined` when
/// none is active. A request that completed before (by any call) is skipped, so a loop of
/// wait_any handles each request once.
template <class... Requests>
requires(sizeof...(Requests) > 1) std::size_t wait_any(Requests&... requests) {
  std::optional<std::size_t> done;
  detail::waiting::forever().polled().step(
      [&] { return (done = test_any(requests...)).has_value(); }, [] {});
  return *done;
}

template <class Range>
concept request_range = std::ranges::random_access_range<Range> &&
    requires(std::ranges::range_reference_t<Range> r) {
  r.test();
  r.active();
};

/// The positions of the active requests of `pool` that completed in this call (each test()ed
/// once); requests that completed before are skipped.
template <request_range Range>
std::vector<std::size_t> test_some(Range&& pool) {
  std::vector<std::size_t> done;
  std::size_t i = 0;
  bool any_active = false;
  for (auto&& request : pool) {
    if (detail::completes_now(request, any_active)) done.push_back(i);
    ++i;
  }
  return done;
}
/// Waits until at least one active request of `pool` has completed; their positions, or none
/// when no request is active.
template <request_range Range>
std::vector<std::size_t> wait_some(Range&& pool) {
  std::vector<std::size_t> done;
  const auto active = [&] {
    for (const auto& request : pool)
      if (request.active()) return true;
    return false;
  };
  detail::waiting::forever().polled().step(
      [&] { return !active() || !(done = test_some(pool)).empty(); }, [] {});
  return done;
}
/// The position of the first active request of `pool` found complete; `undefined` when none is
/// active; none when the active ones are pending. Never blocks.
template <request_range Range>
std::optional<std::size_t> test_any(Range&& pool) {
  std::size_t i = 0;
  bool any_active = false;
  for (auto&& request : pool) {
    if (detail::completes_now(request, any_active)) return i;
    ++i;
  }
  if (!any_active) return undefined;
  return std::nullopt;
}
/// Waits until one active request of a non-empty `pool` has completed; returns its position,
/// or `undefined` when none is active.
template <request_range Range>
std::size_t wait_any(Range&& pool) {
  if (std::ranges::begin(pool) == std::ranges::end(pool))
    throw std::invalid_argument("bale::mpi::wait_any of no requests");
  std::optional<std::size_t> done;
  detail::waiting::forever().polled().step([&] { return (done = test_any(pool)).has_value(); },
                                           [] {});
  return *done;
}
/// Waits for every request of `pool`.
template <request_range Range>
void wait_all(Range&& pool) {
  for (auto&& request : pool) request.wait();
}
/// Whether every request of `pool` has completed; never blocks.
template <request_range Range>
bool test_all(Range&& pool) {
  bool all = true;
  for (auto&& request : pool) all = request.test() && all;
  return all;
}

}  // namespace bale::mpi
