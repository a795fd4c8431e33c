// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::mpi::probed_message: a message matched by communicator::mprobe or improbe. Its head has
// arrived and no other receive can take it, so it says how large the value is and of which type
// before the program decides what to receive it into:
//
//   auto message = comm.mprobe(bale::mpi::any_source, tag);
//   if (message.holds<std::vector<double>>()) samples.reserve(message.payload_bytes() / 8);
//   message.recv(samples);
//
// A probed message that is never received is skipped: the rest of its bytes are received into
// nothing during later receives. It must not outlive its communicator.

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "bale/mpi/detail/header.hpp"
#include "bale/mpi/detail/incoming.hpp"
#include "bale/mpi/detail/skipping.hpp"
#include "bale/mpi/detail/waiting.hpp"
#include "bale/mpi/error.hpp"

namespace bale::mpi {

template <class Format>
class probed_message {
 public:
  probed_message(probed_message&& other) noexcept
      : on_(other.on_),
        from_(other.from_),
        head_(std::move(other.head_)),
        header_(other.header_),
        pending_(std::exchange(other.pending_, false)) {}
  probed_message& operator=(probed_message&& other) noexcept {
    if (this != &other) {
      skip();
      on_ = other.on_;
      from_ = other.from_;
      head_ = std::move(other.head_);
      header_ = other.header_;
      pending_ = std::exchange(other.pending_, false);
    }
    return *this;
  }
  probed_message(const probed_message&) = delete;
  probed_message& operator=(const probed_message&) = delete;
  ~probed_message() { skip(); }

  /// Where the message came from.
  status from() const noexcept { return from_; }
  /// The size of the value's encoding in the communicator's format: what a receive allocates at
  /// most for it, and the size of the array's elements for a contiguous array.
  std::size_t payload_bytes() const noexcept { return header_.payload_size; }
  /// Whether the message holds a T: it is in this communicator's format and its sender
  /// encoded a type of T's schema (a sender with check_types off sends no schema fingerprint:
  /// then only the format is known).
  template <class T>
  bool holds() const {
    if (header_.format != Format::id || (header_.flags & detail::flag_failed)) return false;
    return !(header_.flags & detail::flag_fingerprint) ||
           header_.fingerprint == detail::message_fingerprint<T>();
  }

  /// Receives the message into `value`, as communicator::recv would, once.
  template <class T>
  status recv(T& value) {
    return receive(value, detail::waiting::forever());
  }
  template <class T>
  T recv() {
    T value = T();
    recv(value);
    return value;
  }
  /// recv, waiting at most `timeout` for the rest of the message: then errc::timed_out.
  template <class T>
  status recv(T& value, std::chrono::steady_clock::duration timeout) {
    return receive(value, detail::waiting::within(timeout));
  }

 private:
  template <class>
  friend class basic_communicator;

  probed_message(const detail::channel& on, status from, std::vector<std::byte> head)
      : on_(on), from_(from), head_(std::move(head)), header_(detail::parse_head(head_, from)) {}

  /// Matches the next message from (source, tag) within the time `wait` allows and receives its
  /// head; none when `wait` gave up first.
  static std::optional<probed_message> match(const detail::channel& on, int source, int tag,
                                             const detail::waiting& wait) {
    std::optional<detail::matched_head> found = detail::match_head(on, source, tag, wait);
    if (!found) return std::nullopt;
    detail::refuse_oversized_head(*found, *on.settings);
    std::vector<std::byte> head(found->size);
    detail::check(MPI_Mrecv(head.data(), static_cast<int>(found->size), MPI_BYTE, &found->message,
                            MPI_STATUS_IGNORE),
                  "MPI_Mrecv", found->from.source, found->from.tag);
    return probed_message(on, found->from, std::move(head));
  }

  template <class T>
  status receive(T& value, const detail::waiting& wait) {
    if (!pending_)
      throw error(bale::error(errc::invalid_value, "this probed message was received already"),
                  from_.source, from_.tag);
    pending_ = false;  // from here on, the receiver owes what does not arrive
    detail::receiver<Format, T> rest(on_, value, on_.settings->limits.max_allocation);
    rest.start(head_, from_, wait);
    if (!rest.arrived(wait)) throw detail::timed_out(from_, rest.missing());
    rest.finish();
    std::vector<std::byte>().swap(head_);
    return from_;
  }

  void skip() noexcept {
    if (!pending_) return;
    pending_ = false;
    try {
      on_.debts->owe(from_.source, from_.tag,
                     header_.payload_size - (head_.size() - detail::header_size));
    } catch (...) {  // no memory to note the debt in: those chunks stay queued
    }
  }

  detail::channel on_;
  status from_;
  std::vector<std::byte> head_;
  detail::header header_;
  bool pending_ = true;
};

}  // namespace bale::mpi
