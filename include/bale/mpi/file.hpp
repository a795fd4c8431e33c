// SPDX-License-Identifier: BSL-1.0
#pragma once
// Collective checkpoint files: every rank of a communicator contributes records to one indexed
// record file (record file version 3, bale/file/record_index.hpp), and any number of ranks read
// it back, each only its records' bytes.
//
//   bale::mpi::save_file(comm, "state.bales", my_cells);           // std::vector<cell>, any size
//   std::vector<cell> mine = bale::mpi::load_file<cell>(comm, "state.bales");
//
// Writing: the records' sizes counted and gathered from every rank (64-bit), each rank's
// records encoded piece by piece and written at their offset with MPI_File_write_at_all (a large
// array from its own memory; bale/mpi/detail/file_write.hpp), the index written by the ranks of its
// parts, the file synced and renamed over `path` only when every rank succeeded. A rank that
// fails (its values' save() threw, a write failed) leaves the previous file as it was, and
// every rank throws the same bale::mpi::error: the lowest failing rank's.
// Reading: the records are split in contiguous blocks (record_split), each rank finds its block
// in the index and reads it with bale::record_reader (schemas resolved as for any record file).
// The same file reads serially with bale::record_reader (read(first, count), seek(i)).

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bale/checksum/crc32c.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/file/posix_io.hpp"
#include "bale/file/record_index.hpp"
#include "bale/file/records.hpp"
#include "bale/mpi/communicator.hpp"
#include "bale/mpi/detail/file_write.hpp"
#include "bale/mpi/error.hpp"

namespace bale::mpi {

/// Which records a rank reads from a collective file.
struct record_split {
  enum class rule {
    blocks,      ///< rank r of P: records [N r / P, N (r + 1) / P), the default
    as_written,  ///< what the same rank wrote (the file's writers must be as many as the ranks)
    range,       ///< records [first, first + count), chosen by each rank
  };
  rule how = rule::blocks;
  std::size_t first = 0;
  std::size_t count = 0;

  static record_split blocks() { return {}; }
  static record_split as_written() { return {rule::as_written, 0, 0}; }
  static record_split range(std::size_t first, std::size_t count) {
    return {rule::range, first, count};
  }
};

struct collective_file_options {
  /// Sync the file and its directory before save_file returns (durable across a crash).
  bool sync = true;
  /// Bounds for reading, as for any record file.
  bale::limits limits{};
};

namespace detail {

/// The lowest rank whose `failure` is set, or INT_MAX when none is (collective).
inline int first_failing(MPI_Comm comm, int rank, const std::exception_ptr& failure) {
  int failed = failure ? rank : INT_MAX;
  check(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  return failed;
}

/// Every rank throws rank `failed`'s error: its code, offset and text (collective).
[[noreturn]] inline void share_failure(MPI_Comm comm, int rank, int failed,
                                       const std::exception_ptr& failure) {
  std::vector<char> text;
  std::uint64_t head[3] = {static_cast<std::uint64_t>(errc::io_error), 0, 0};
  if (rank == failed) {
    std::string what;
    try {
      std::rethrow_exception(failure);
    } catch (const bale::error& e) {
      head[0] = static_cast<std::uint64_t>(e.code());
      head[1] = e.offset();
      what = e.path().empty() ? e.detail() : e.path() + ": " + e.detail();
    } catch (const std::exception& e) {
      head[0] = static_cast<std::uint64_t>(errc::invalid_value);
      what = e.what();
    } catch (...) {
      what = "an exception that is not a std::exception";
    }
    text.assign(what.begin(), what.end());
    head[2] = text.size();
  }
  check(MPI_Bcast(head, 3, MPI_UINT64_T, failed, comm), "MPI_Bcast");
  text.resize(head[2]);
  check(MPI_Bcast(text.data(), static_cast<int>(text.size()), MPI_CHAR, failed, comm), "MPI_Bcast");
  throw error(
      bale::error(static_cast<errc>(head[0]), std::string(text.begin(), text.end()), head[1]),
      failed, MPI_ANY_TAG);
}

/// Whether any rank failed; if one did, every rank throws the lowest failing rank's error.
inline void agree(MPI_Comm comm, int rank, const std::exception_ptr& failure) {
  const int failed = first_failing(comm, rank, failure);
  if (failed != INT_MAX) share_failure(comm, rank, failed, failure);
}

/// Runs `step` on this rank, then agrees with every rank on whether all succeeded.
template <class Step>
void on_every_rank(MPI_Comm comm, int rank, Step&& step) {
  std::exception_ptr failure;
  try {
    step();
  } catch (...) {
    failure = std::current_exception();
  }
  agree(comm, rank, failure);
}

/// Writes `bytes` at `at` of `file`, collectively, in `pieces` pieces of at most file_piece
/// bytes (the most any rank needs: every rank makes as many calls). The first failure is kept.
inline void write_all(MPI_File file, std::uint64_t at, std::span<const std::byte> bytes,
                      std::uint64_t pieces, std::exception_ptr& failure) {
  write_blocks all;
  all.add(bytes.data(), bytes.size(), false);
  all.split([&](const write_blocks& piece) {
    piece.write_at_all(file, at, failure);
    at += piece.bytes();
    --pieces;
  });
  for (; pieces > 0; --pieces) write_blocks{}.write_at_all(file, at, failure);
}

/// This rank's part of the index: the index head and writer table on rank 0, this rank's record
/// offsets, and on the last rank the end of the records and the trailer, whose checksum covers
/// every rank's part: the parts' checksums are gathered there and joined (collective).
inline std::vector<std::byte> index_part(MPI_Comm comm, std::span<const std::uint64_t> starts,
                                         std::uint64_t part_at,
                                         std::span<const std::uint64_t> counts,
                                         std::uint64_t records_end, int rank) {
  std::vector<std::byte> out;
  if (rank == 0) out = bale::detail::record_index_head(counts);
  bale::detail::append_record_offsets(out, starts, part_at);
  const int last = static_cast<int>(counts.size()) - 1;
  const std::uint64_t mine[2] = {bale::detail::crc32c(out), out.size()};
  std::vector<std::uint64_t> parts(rank == last ? 2 * counts.size() : 2);
  check(MPI_Gather(mine, 2, MPI_UINT64_T, parts.data(), 2, MPI_UINT64_T, last, comm), "MPI_Gather");
  if (rank == last) {
    std::uint32_t before = 0;
    for (std::size_t r = 0; r + 1 < counts.size(); ++r)
      before = bale::detail::crc32c_combine(before, static_cast<std::uint32_t>(parts[2 * r]),
                                            parts[2 * r + 1]);
    bale::detail::append_record_index_end(out, records_end, before, 0);
  }
  return out;
}

/// How many pieces the largest rank's part of the index takes, as every rank can tell.
inline std::uint64_t index_pieces(std::span<const std::uint64_t> counts) {
  std::uint64_t largest = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    std::uint64_t bytes = 8 * counts[r];
    if (r == 0) bytes += bale::detail::record_index_head_size + 8 * counts.size();
    if (r + 1 == counts.size()) bytes += 8 + bale::detail::record_index_trailer_size;
    largest = std::max(largest, bytes);
  }
  return (largest + file_piece - 1) / file_piece;
}

/// Where this rank's part of the index goes.
inline std::uint64_t index_part_at(std::span<const std::uint64_t> counts, std::uint64_t records_end,
                                   int rank) {
  std::uint64_t before = 0;
  for (int r = 0; r < rank; ++r) before += counts[static_cast<std::size_t>(r)];
  const std::uint64_t offsets_at =
      records_end + bale::detail::record_index_head_size + 8 * counts.size();
  return rank == 0 ? records_end : offsets_at + 8 * before;
}

/// Rank 0 makes the temporary file next to the file `path` names (through a symbolic link, the
/// file it points to: its target, set in `target`); every rank learns its name (collective).
inline std::string temporary_for(MPI_Comm comm, int rank, const std::filesystem::path& path,
                                 std::filesystem::path& target) {
  std::string name;
  std::exception_ptr failure;
  if (rank == 0) {
    try {
      target = bale::detail::save_target(path);
      (void)bale::detail::create_temporary(target, name);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  constexpr std::uint64_t failed = UINT64_MAX;
  std::uint64_t size = failure ? failed : name.size();
  check(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm), "MPI_Bcast");
  if (size == failed) share_failure(comm, rank, 0, failure);
  name.resize(size);
  check(MPI_Bcast(name.data(), static_cast<int>(size), MPI_CHAR, 0, comm), "MPI_Bcast");
  return name;
}

/// Where every rank's part goes and how the index is laid out: what the ranks agreed on.
struct file_layout {
  std::uint64_t part_at = 0;          // this rank's first byte
  std::uint64_t records_end = 0;      // where the index starts
  std::vector<std::uint64_t> counts;  // every rank's records
};

/// Writes this rank's records, then its part of the index, into the open `file` (collective):
/// `writes` collective writes of records, the most any rank makes.
template <format Format, class T>
void write_records(MPI_File file, part_writer<Format, T>& part, std::uint64_t writes,
                   std::span<const std::byte> index, const file_layout& layout, int rank,
                   std::exception_ptr& failure) {
  std::uint64_t made = 0;
  try {
    part.walk(true, [&](const write_blocks& piece, std::uint64_t at) {
      piece.write_at_all(file, at, failure);
      ++made;
    });
  } catch (...) {  // a record's save() threw while encoding: the other ranks still write
    if (!failure) failure = std::current_exception();
  }
  for (; made < writes; ++made) write_blocks{}.write_at_all(file, 0, failure);
  write_all(file, index_part_at(layout.counts, layout.records_end, rank), index,
            index_pieces(layout.counts), failure);
}

/// Writes every rank's records into the file `name` (collective); the first failure is kept.
template <format Format, class T>
void write_parts(MPI_Comm comm, int rank, const std::string& name, std::span<const T> records,
                 const record_sizes& sizes, const file_layout& layout, bool sync,
                 std::exception_ptr& failure) {
  part_writer<Format, T> part(records, sizes, layout.part_at);
  const std::vector<std::byte> index =
      index_part(comm, sizes.starts(), layout.part_at, layout.counts, layout.records_end, rank);
  std::uint64_t writes = 0;
  part.walk(false, [&](const write_blocks&, std::uint64_t) { ++writes; });
  MPI_File file = MPI_FILE_NULL;
  int code = MPI_File_open(comm, name.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL, &file);
  // Whether some rank could not open the file, and the most writes any rank makes.
  std::uint64_t agreed[2] = {code == MPI_SUCCESS ? 0u : 1u, writes};
  check(MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_UINT64_T, MPI_MAX, comm), "MPI_Allreduce");
  if (agreed[0] != 0) {  // opened on some ranks only: those close it
    if (file != MPI_FILE_NULL) MPI_File_close(&file);
    if (code != MPI_SUCCESS)
      failure = std::make_exception_ptr(error("MPI_File_open", code, MPI_PROC_NULL, 0));
    else
      failure = std::make_exception_ptr(error(
          bale::error(errc::io_error, "another rank could not open the file"), MPI_PROC_NULL, 0));
    return;
  }
  write_records<Format>(file, part, agreed[1], index, layout, rank, failure);
  if (sync && (code = MPI_File_sync(file)) != MPI_SUCCESS && !failure)
    failure = std::make_exception_ptr(error("MPI_File_sync", code, MPI_PROC_NULL, 0));
  if ((code = MPI_File_close(&file)) != MPI_SUCCESS && !failure)
    failure = std::make_exception_ptr(error("MPI_File_close", code, MPI_PROC_NULL, 0));
}

/// Every rank's part size and record count, gathered in one collective: where this rank's part
/// goes and the index's layout. A rank whose records could not be measured makes every rank
/// throw its error.
inline file_layout agree_on_layout(MPI_Comm comm, int rank, int ranks, const record_sizes& sizes,
                                   const std::exception_ptr& failure) {
  const std::uint64_t mine[3] = {failure ? 1u : 0u, sizes.part_bytes, sizes.payloads.size()};
  std::vector<std::uint64_t> all(3 * static_cast<std::size_t>(ranks));
  check(MPI_Allgather(mine, 3, MPI_UINT64_T, all.data(), 3, MPI_UINT64_T, comm), "MPI_Allgather");
  file_layout layout;
  for (int r = 0; r < ranks; ++r) {
    const std::uint64_t* of = all.data() + 3 * static_cast<std::size_t>(r);
    if (of[0] != 0) share_failure(comm, rank, r, failure);  // the lowest failing rank
    if (r < rank) layout.part_at += of[1];
    layout.records_end += of[1];
    layout.counts.push_back(of[2]);
  }
  return layout;
}

/// The records rank `rank` of `ranks` reads by `split`, as [first, first + count).
template <class Reader>
std::pair<std::size_t, std::size_t> records_to_read(const Reader& in, const record_split& split,
                                                    int rank, int ranks) {
  const auto r = static_cast<std::uint64_t>(rank);
  const auto p = static_cast<std::uint64_t>(ranks);
  switch (split.how) {
    case record_split::rule::as_written:
      if (in.writers() != p)
        throw bale::error(errc::invalid_value,
                          bale::detail::error_text({"the file was written by ", in.writers(),
                                                    " ranks, read by ", ranks}));
      return {in.first_of_writer(r), in.first_of_writer(r + 1) - in.first_of_writer(r)};
    case record_split::rule::range:
      return {split.first, split.count};
    case record_split::rule::blocks:
      break;
  }
  // N r / P without overflow: N < 2^61 (8 bytes each in the index) and P < 2^31.
  const std::uint64_t n = in.size();
  const auto block_start = [&](std::uint64_t k) { return n / p * k + n % p * k / p; };
  return {block_start(r), block_start(r + 1) - block_start(r)};
}

}  // namespace detail

/// Writes every rank's `records` (any number, none included) into one record file at `path`,
/// in rank order, with an index of every record. Collective; every rank gets the same error.
template <format Format = binary, class CommunicatorFormat, class T>
void save_file(const basic_communicator<CommunicatorFormat>& comm,
               const std::filesystem::path& path, std::span<const T> records,
               const collective_file_options& settings = {}) {
  const MPI_Comm on = comm.native();
  const int rank = comm.rank();
  detail::record_sizes sizes;
  std::exception_ptr failure;
  try {
    sizes = detail::measure_records<Format>(records, rank, wire_versions::indexed_record_file);
  } catch (...) {
    failure = std::current_exception();
  }
  const detail::file_layout layout = detail::agree_on_layout(on, rank, comm.size(), sizes, failure);
  std::filesystem::path target;
  const std::string temporary = detail::temporary_for(on, rank, path, target);
  detail::write_parts<Format>(on, rank, temporary, records, sizes, layout, settings.sync, failure);
  int failed = detail::first_failing(on, rank, failure);  // the writes, on every rank
  if (failed == INT_MAX && rank == 0) {
    try {
      if (::rename(temporary.c_str(), target.c_str()) != 0)
        bale::detail::io_failure(path, "cannot rename the temporary file");
      if (settings.sync) bale::detail::sync_directory_of(target);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (failed == INT_MAX) failed = detail::first_failing(on, rank, failure);  // the rename
  if (failed == INT_MAX) return;
  if (rank == 0) ::unlink(temporary.c_str());  // a failed rename leaves it too
  detail::share_failure(on, rank, failed, failure);
}
/// Any other span: of values that are not const, or of a fixed extent.
template <format Format = binary, class CommunicatorFormat, class T, std::size_t Extent>
requires(!std::is_const_v<T> || Extent != std::dynamic_extent) void save_file(
    const basic_communicator<CommunicatorFormat>& comm, const std::filesystem::path& path,
    std::span<T, Extent> records, const collective_file_options& settings = {}) {
  save_file<Format>(comm, path, std::span<const std::remove_const_t<T>>(records), settings);
}
template <format Format = binary, class CommunicatorFormat, class T, class Alloc>
void save_file(const basic_communicator<CommunicatorFormat>& comm,
               const std::filesystem::path& path, const std::vector<T, Alloc>& records,
               const collective_file_options& settings = {}) {
  save_file<Format>(comm, path, std::span<const T>(records), settings);
}

/// This rank's records of a file save_file wrote, by `split` (contiguous blocks by default), on
/// any number of ranks. Collective; every rank gets the same error.
template <class T, file_format Format = stored_format, class CommunicatorFormat>
std::vector<T> load_file(const basic_communicator<CommunicatorFormat>& comm,
                         const std::filesystem::path& path, record_split split = {},
                         const collective_file_options& settings = {}) {
  std::vector<T> mine;
  detail::on_every_rank(comm.native(), comm.rank(), [&] {
    record_reader<T, Format> in(path, settings.limits);
    const auto [first, count] = detail::records_to_read(in, split, comm.rank(), comm.size());
    mine = in.read(first, count);
  });
  return mine;
}

}  // namespace bale::mpi
