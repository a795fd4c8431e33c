// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::mpi::error: a bale::error that also says which MPI routine failed (with MPI's own text),
// which rank the message came from or went to, its tag, and the sizes involved. A message that
// could not be decoded keeps the decoder's code, byte offset and field path.

#include <mpi.h>

#include <cstddef>
#include <string>
#include <utility>

#include "bale/core/error.hpp"

namespace bale::mpi {

/// Where a received message came from.
struct status {
  int source = MPI_ANY_SOURCE;
  int tag = MPI_ANY_TAG;
};

class error : public bale::error {
 public:
  static constexpr std::size_t no_size = static_cast<std::size_t>(-1);

  /// An MPI routine that returned `mpi_code`, on a message to or from `peer`.
  error(std::string routine, int mpi_code, int peer, int tag)
      : bale::error(errc::io_error, describe_failure(routine, mpi_code) + about(peer, tag)),
        routine_(std::move(routine)),
        mpi_code_(mpi_code),
        peer_(peer),
        tag_(tag) {}

  /// A message refused or undecodable: the cause's code, offset and path, with where it came from.
  error(const bale::error& cause, int peer, int tag, std::size_t expected = no_size,
        std::size_t actual = no_size)
      : bale::error(cause.code(), cause.detail() + about(peer, tag), cause.offset()),
        peer_(peer),
        tag_(tag),
        expected_(expected),
        actual_(actual) {
    if (!cause.path().empty()) prepend_field(cause.path());
  }

  /// The MPI routine that failed ("MPI_Mrecv"), empty when MPI reported no failure.
  const std::string& routine() const noexcept { return routine_; }
  /// MPI's error code, MPI_SUCCESS when MPI reported no failure.
  int mpi_code() const noexcept { return mpi_code_; }
  /// The rank the message came from (receiving) or went to (sending), in the communicator.
  int peer() const noexcept { return peer_; }
  int tag() const noexcept { return tag_; }
  /// For a refused size: the most the receiver accepts, and what the message announced.
  std::size_t expected_size() const noexcept { return expected_; }
  std::size_t actual_size() const noexcept { return actual_; }

 private:
  static std::string describe_failure(const std::string& routine, int code) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
    return routine + " failed: " + std::string(text, static_cast<std::size_t>(length));
  }
  static std::string about(int peer, int tag) {
    if (peer == MPI_PROC_NULL) return {};
    std::string text = " (rank ";
    text += peer == MPI_ANY_SOURCE ? std::string("any") : std::to_string(peer);
    text += ", tag ";
    text += tag == MPI_ANY_TAG ? std::string("any") : std::to_string(tag);
    text += ')';
    return text;
  }

  std::string routine_;
  int mpi_code_ = MPI_SUCCESS;
  int peer_;
  int tag_;
  std::size_t expected_ = no_size;
  std::size_t actual_ = no_size;
};

namespace detail {
/// Throws bale::mpi::error when an MPI routine did not succeed.
inline void check(int code, const char* routine, int peer = MPI_PROC_NULL, int tag = MPI_ANY_TAG) {
  if (code != MPI_SUCCESS) throw error(routine, code, peer, tag);
}
}  // namespace detail

}  // namespace bale::mpi
