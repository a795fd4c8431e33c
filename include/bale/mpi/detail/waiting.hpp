// SPDX-License-Identifier: BSL-1.0
#pragma once
// How long a receive may wait for a peer: not at all (test()), until a deadline, or for as long
// as it takes. Each step of a receive offers a try that never blocks and a blocking call; a
// deadline polls the try, so that a peer that stops sending costs a bounded wait and an error.

#include <algorithm>
#include <chrono>
#include <thread>

namespace bale::mpi::detail {

class waiting {
 public:
  using clock = std::chrono::steady_clock;

  /// Only what has arrived already: nothing blocks.
  static waiting none() { return waiting(kind::none, {}); }
  /// As long as it takes, in MPI's own blocking calls.
  static waiting forever() { return waiting(kind::forever, {}); }
  /// Until `timeout` from now.
  static waiting within(clock::duration timeout) {
    const clock::time_point now = clock::now();
    if (timeout > clock::time_point::max() - now)  // no deadline a clock can hold
      return waiting(kind::until, clock::time_point::max());
    return waiting(kind::until, now + timeout);
  }

  bool blocks() const noexcept { return how_ != kind::none; }
  /// The same wait, by polling only: while chunks are owed (skipping.hpp), every wait must go
  /// on receiving them, or their honest sender would stay blocked.
  waiting polled() const {
    return how_ == kind::forever ? waiting(kind::until, clock::time_point::max()) : *this;
  }

  /// Whether `attempt` succeeded (a callable returning bool that never blocks) in the time this
  /// allows; `block` (a blocking callable) is used instead when the wait has no end.
  template <class Attempt, class Block>
  bool step(Attempt&& attempt, Block&& block) const {
    if (how_ == kind::forever) {
      block();
      return true;
    }
    // Polling MPI drives its progress. The pause grows to a tenth of a millisecond: a long wait
    // costs little CPU, and a peer sending many chunks is not slowed down much.
    auto pause = std::chrono::microseconds(1);
    while (true) {
      if (attempt()) return true;
      if (how_ == kind::none || clock::now() >= deadline_) return false;
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(100));
    }
  }

 private:
  enum class kind { none, forever, until };
  waiting(kind how, clock::time_point deadline) : how_(how), deadline_(deadline) {}

  kind how_;
  clock::time_point deadline_;
};

}  // namespace bale::mpi::detail
