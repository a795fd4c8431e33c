// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a bale::mpi communicator is set up with.

#include <chrono>
#include <climits>
#include <cstddef>

#include "bale/core/limits.hpp"

namespace bale::mpi {

struct options {
  /// Bounds for everything this communicator receives: a message announcing more than
  /// limits.max_allocation bytes is refused before anything is allocated for it.
  bale::limits limits{};
  /// Each message carries the fingerprint of the sent type's schema (bale::schema_of), and a
  /// receiver asking for another type gets errc::wrong_type instead of garbage, naming both
  /// schemas and where they differ when its program has the sender's type (every rank of one
  /// program does). It costs a compare per message (the header has room for it either way).
  /// Every compiler computes the same fingerprint for the same schema, so ranks built by GCC
  /// and Clang check each other.
  bool check_types = true;
  /// The largest single MPI message; a larger payload goes in chunks of this size on a private
  /// duplicate of the communicator. Counts stay within MPI's int at every size.
  std::size_t chunk_bytes = std::size_t{1} << 30;
  /// A contiguous array of trivially copyable elements at least this large is sent from and
  /// received into the user's memory; smaller ones are copied, which is faster.
  std::size_t zero_copy_bytes = std::size_t{2} << 10;
  /// Such an array up to this size travels in one MPI message with its header (a datatype
  /// joining the two places); a larger one as the header, then the array's memory alone on the
  /// chunk channel: contiguous memory on both sides lets Open MPI copy it once between
  /// processes, which is faster for large arrays than one message of two places.
  std::size_t one_message_bytes = std::size_t{1} << 20;
  /// A blocking receive that refuses a message (over the limits, another type) throws at once,
  /// after waiting at most this long for the message's chunks, so that an honest sender can
  /// finish; chunks still to come are received into nothing during later receives. test()
  /// never waits.
  std::chrono::milliseconds refused_chunks_wait{1000};
};

}  // namespace bale::mpi
