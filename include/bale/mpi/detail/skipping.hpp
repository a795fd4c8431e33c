// SPDX-License-Identifier: BSL-1.0
#pragma once
// Bytes a receiver does not want, received into nothing: a refused message must not stay queued,
// and the chunks of a message a receiver gave up on (refused from its head, failed, timed out)
// must never be taken for those of a later message from the same rank and tag. Nobody waits for
// such chunks: they are owed, and received into nothing whenever they have arrived.

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "bale/mpi/error.hpp"

namespace bale::mpi::detail {

/// A datatype that takes any number of bytes into one buffer of sink_bytes, block after block
/// over the same memory. MPI must never truncate a receive: Open MPI 4.1 writes a truncated
/// single-copy message past the end of the buffer. Bytes a receiver refuses land here instead.
inline constexpr int sink_bytes = 1 << 16;
inline MPI_Datatype sink_type() {
  static const MPI_Datatype sink = [] {
    MPI_Datatype block;
    MPI_Datatype blocks;
    check(MPI_Type_contiguous(sink_bytes, MPI_BYTE, &block), "MPI_Type_contiguous");
    check(MPI_Type_create_resized(block, 0, 0, &blocks), "MPI_Type_create_resized");
    check(MPI_Type_commit(&blocks), "MPI_Type_commit");
    MPI_Type_free(&block);
    return blocks;
  }();
  return sink;
}
/// How many sink blocks take `bytes`.
inline int sink_count(std::size_t bytes) {
  return static_cast<int>(bytes / sink_bytes + 1);
}

/// Receives a matched message of `bytes` into nothing.
inline void discard(MPI_Message& message, std::size_t bytes) {
  const auto sink = std::unique_ptr<std::byte[]>(new std::byte[sink_bytes]);
  MPI_Mrecv(sink.get(), sink_count(bytes), sink_type(), &message, MPI_STATUS_IGNORE);
}

/// The chunks a communicator's receivers gave up on, by rank and tag.
class chunk_debts {
 public:
  /// `bytes` of chunks from (source, tag) are to be received into nothing.
  void owe(int source, int tag, std::size_t bytes) {
    if (bytes == 0) return;
    if (const auto d = find(source, tag); d != owed_.end())
      d->bytes += bytes;
    else
      owed_.push_back({source, tag, bytes});
  }

  /// Receives into nothing the owed chunks from (source, tag) that have arrived; whether none
  /// is owed any more. Never blocks.
  bool settle(MPI_Comm chunks, int source, int tag) {
    return pay(source, tag, [&](MPI_Message& message, MPI_Status& probed) {
      int found = 0;
      check(MPI_Improbe(source, tag, chunks, &found, &message, &probed), "MPI_Improbe", source,
            tag);
      return found != 0;
    });
  }
  /// Waits for the owed chunks from (source, tag) and receives them into nothing.
  void settle_blocking(MPI_Comm chunks, int source, int tag) {
    pay(source, tag, [&](MPI_Message& message, MPI_Status& probed) {
      check(MPI_Mprobe(source, tag, chunks, &message, &probed), "MPI_Mprobe", source, tag);
      return true;
    });
  }
  /// settle() for every rank and tag owed: MPI does not keep what has arrived queued.
  void settle_all(MPI_Comm chunks) {
    for (std::size_t i = owed_.size(); i-- > 0;) settle(chunks, owed_[i].source, owed_[i].tag);
  }

  bool empty() const noexcept { return owed_.empty(); }

 private:
  struct debt {
    int source;
    int tag;
    std::size_t bytes;
  };
  std::vector<debt>::iterator find(int source, int tag) {
    return std::find_if(owed_.begin(), owed_.end(),
                        [&](const debt& d) { return d.source == source && d.tag == tag; });
  }
  // Takes the owed chunks from (source, tag) that `probe` matches; whether none is owed now.
  template <class Probe>
  bool pay(int source, int tag, Probe&& probe) {
    const auto d = find(source, tag);
    if (d == owed_.end()) return true;
    while (d->bytes > 0) {
      MPI_Message message;
      MPI_Status probed;
      if (!probe(message, probed)) return false;
      take(*d, message, probed);
    }
    owed_.erase(d);
    return true;
  }
  static void take(debt& d, MPI_Message& message, const MPI_Status& probed) {
    int count = 0;
    MPI_Get_count(&probed, MPI_BYTE, &count);
    const auto bytes = static_cast<std::size_t>(std::max(count, 0));
    discard(message, bytes);
    // A chunk of another size than announced (a damaged peer) still pays off one chunk.
    d.bytes -= std::min(d.bytes, std::max<std::size_t>(bytes, 1));
  }

  std::vector<debt> owed_;
};

}  // namespace bale::mpi::detail
