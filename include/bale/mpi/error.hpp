// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::mpi::error: a bale::error that also says which MPI routine failed (with MPI's own text),
// which rank the message came from or went to, its tag, and the sizes involved. A message that
// could not be decoded keeps the decoder's code, byte offset and field path.

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include "bale/core/error.hpp"

namespace bale::mpi {

/// Where a received message came from.
struct status {
  int source = MPI_ANY_SOURCE;
  int tag = MPI_ANY_TAG;
};

namespace detail {
/// What a rank could not do in a collective, as its failure mark carries it to the others.
enum class failure_kind : std::uint8_t {
  unknown = 0,
  encode = 1,
  operation = 2,
  receive = 3,
  values = 4
};
/// The rank where a collective's failure began, and what failed there.
struct failure_origin {
  int rank = MPI_PROC_NULL;
  failure_kind kind = failure_kind::unknown;
};
inline const char* failure_text(failure_kind kind) {
  switch (kind) {
    case failure_kind::encode:
      return "its value could not be encoded";
    case failure_kind::operation:
      return "the operation threw";
    case failure_kind::receive:
      return "a value it received could not be decoded";
    case failure_kind::values:
      return "it was given the wrong number of values";
    case failure_kind::unknown:
      break;
  }
  return "it could not take part";
}
}  // namespace detail

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

  /// Another rank's failure in a collective, reported on this one: names that rank and what
  /// failed there (its own exception stays on that rank).
  error(detail::failure_origin origin, int tag)
      : bale::error(errc::invalid_value,
                    "rank " + std::to_string(origin.rank) + " failed in a collective: " +
                        detail::failure_text(origin.kind) + about(origin.rank, tag)),
        peer_(origin.rank),
        tag_(tag),
        origin_(origin) {}

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
  /// For another rank's failure in a collective: that rank; MPI_PROC_NULL otherwise.
  int failed_rank() const noexcept { return origin_.rank; }
  detail::failure_origin origin() const noexcept { return origin_; }

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
  detail::failure_origin origin_;
};

namespace detail {
/// Throws bale::mpi::error when an MPI routine did not succeed.
inline void check(int code, const char* routine, int peer = MPI_PROC_NULL, int tag = MPI_ANY_TAG) {
  if (code != MPI_SUCCESS) throw error(routine, code, peer, tag);
}

/// Where the failure `failure` began: the rank a received failure mark names, or this rank
/// (`rank`) with `own` for a failure of its own.
inline failure_origin origin_of(const std::exception_ptr& failure, int rank, failure_kind own) {
  try {
    std::rethrow_exception(failure);
  } catch (const error& e) {
    if (e.failed_rank() != MPI_PROC_NULL) return e.origin();
  } catch (...) {
  }
  return {rank, own};
}
}  // namespace detail

}  // namespace bale::mpi
