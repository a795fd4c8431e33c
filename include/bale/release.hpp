// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which release of bale this is, and which wire formats it writes (docs/stability.md).

#if !defined(__cplusplus) || __cplusplus < 202002L
#error "bale needs C++20 or later: compile with -std=c++20 (or a later standard)"
#endif
#if !defined(__cpp_exceptions) && !defined(__EXCEPTIONS)
#error \
    "bale needs exceptions: it reports bad input as bale::error; -fno-exceptions is not supported"
#endif

#define BALE_VERSION_MAJOR 0
#define BALE_VERSION_MINOR 4
#define BALE_VERSION_PATCH 0
/// The version as one number, MAJOR * 10000 + MINOR * 100 + PATCH, for `#if`.
#define BALE_VERSION (BALE_VERSION_MAJOR * 10000 + BALE_VERSION_MINOR * 100 + BALE_VERSION_PATCH)

/// The version of the value encodings (binary, compact, JSON, MessagePack). A release that writes
/// other bytes for the same value raises it, and still reads every earlier one.
#define BALE_FORMAT_VERSION 3

namespace bale {

/// "MAJOR.MINOR.PATCH" of the headers this translation unit includes.
inline constexpr const char* version_string = "0.4.0";

/// The wire format versions this release writes: a file, record file, message or MPI header of
/// any of these versions or an earlier one reads in this and every later release.
struct wire_versions {
  /// The value encodings of binary, compact, JSON and MessagePack.
  static constexpr unsigned value_format = BALE_FORMAT_VERSION;
  /// `.bale` files (save_file): version 1 had no schema block.
  static constexpr unsigned file = 2;
  /// Record files (record_writer): version 1 had no schema block.
  static constexpr unsigned record_file = 2;
  /// Record files with a record index (bale::mpi::save_file): record file version 3.
  static constexpr unsigned indexed_record_file = 3;
  /// Framed messages (serialize_framed): version 1 named a schema by its 64-bit fingerprint,
  /// version 2 names it by the SHA-256 digest of its text.
  static constexpr unsigned framed_message = 2;
  /// The header of a bale::mpi message.
  static constexpr unsigned mpi_header = 1;
};

}  // namespace bale
