// SPDX-License-Identifier: BSL-1.0
#pragma once
// The index at the end of an indexed record file (record file version 3, written by
// bale::mpi::save_file): where every record starts, and which writer wrote which records, so
// that a reader finds record i without reading the records before it.
//
//   at I, after the last record:
//     "BALI" | u32 zero | u64 writers P | u64 records N        (index head, 24 bytes)
//     P x u64: the first record of each writer, in rank order  (writer table)
//     (N + 1) x u64: where each record's prefix starts; the last is I
//   the last 16 bytes of the file:
//     u64 I | u32 CRC32C of the whole index (head, writer table, offsets) | "BIDX"
//
// The sizes fix the file's length, so a count read from the file never allocates more than the
// file holds. The index is read and checked whole at open (8 bytes a record): its checksum, then
// its offsets, increasing, each record at least its 8-byte prefix, within the records.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <vector>

#include "bale/checksum/crc32c.hpp"
#include "bale/core/error.hpp"
#include "bale/core/little_endian.hpp"
#include "bale/file/posix_io.hpp"

namespace bale::detail {

inline constexpr std::size_t record_index_head_size = 24;
inline constexpr std::size_t record_index_trailer_size = 16;

/// The index's fixed parts as read and checked, and what they say about the file.
struct record_index {
  std::uint64_t records_begin = 0;  // the first record's prefix: after the schema
  std::uint64_t records_end = 0;    // I: where the index starts
  std::uint64_t writers = 0;
  std::uint64_t records = 0;
  std::vector<std::uint64_t> first_of_writer;  // P + 1 entries, the last N
  std::vector<std::uint64_t> offsets;          // N + 1 entries, the last I

  std::uint64_t offsets_at() const { return records_end + record_index_head_size + 8 * writers; }
};

/// The index head and writer table for `counts` records per writer, and its CRC32C.
inline std::vector<std::byte> record_index_head(std::span<const std::uint64_t> counts) {
  std::vector<std::byte> head(record_index_head_size + 8 * counts.size());
  std::memcpy(head.data(), "BALI", 4);
  put_u64(head.data() + 8, counts.size());
  std::uint64_t first = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    put_u64(head.data() + record_index_head_size + 8 * r, first);
    first += counts[r];
  }
  put_u64(head.data() + 16, first);
  return head;
}
/// Appends record offsets to an index being written.
inline void append_record_offsets(std::vector<std::byte>& out,
                                  std::span<const std::uint64_t> offsets, std::uint64_t base) {
  std::size_t at = out.size();
  out.resize(at + 8 * offsets.size());
  for (const std::uint64_t offset : offsets) {
    put_u64(out.data() + at, base + offset);
    at += 8;
  }
}
/// Appends the end of an index: the last offset (where the records end) and the trailer, whose
/// checksum covers the whole index. The index's bytes are those of `out` from `from` on, after
/// index bytes written elsewhere whose CRC32C is `crc_before` (0 for none).
inline void append_record_index_end(std::vector<std::byte>& out, std::uint64_t records_end,
                                    std::uint32_t crc_before, std::size_t from) {
  const std::size_t at = out.size();
  out.resize(at + 8 + record_index_trailer_size);
  put_u64(out.data() + at, records_end);
  const std::span<const std::byte> here(out.data() + from, at + 8 - from);
  put_u64(out.data() + at + 8, records_end);
  put_u32(out.data() + at + 16, crc32c_extend(crc_before, here));
  std::memcpy(out.data() + at + 20, "BIDX", 4);
}

/// Reads and checks the index of the file open as `fd`, of `size` bytes, whose records begin at
/// `records_begin`: a damaged or hostile index is an error naming the file, before anything is
/// allocated that the file's length did not pay for.
inline record_index read_record_index(int fd, const std::filesystem::path& path, std::size_t size,
                                      std::uint64_t records_begin) {
  const auto damaged = [&](const char* what, std::size_t at) {
    file_error(errc::invalid_value, path, what, at);
  };
  if (size < records_begin + record_index_head_size + 8 + record_index_trailer_size)
    file_error(errc::end_of_input, path, "is too short for its record index", size);
  std::byte trailer[record_index_trailer_size];
  const std::size_t trailer_at = size - record_index_trailer_size;
  if (read_at(fd, path, trailer, sizeof trailer, trailer_at) != sizeof trailer)
    file_error(errc::end_of_input, path, "shrank while it was being read", trailer_at);
  if (std::memcmp(trailer + 12, "BIDX", 4) != 0)
    damaged("has no record index (no 'BIDX' at its end)", trailer_at + 12);
  record_index index;
  index.records_begin = records_begin;
  index.records_end = get_u64(trailer);
  if (index.records_end < records_begin || index.records_end > trailer_at - record_index_head_size)
    damaged("has a record index outside the file", trailer_at);
  std::byte head[record_index_head_size];
  if (read_at(fd, path, head, sizeof head, index.records_end) != sizeof head)
    file_error(errc::end_of_input, path, "shrank while it was being read", index.records_end);
  if (std::memcmp(head, "BALI", 4) != 0 || get_u32(head + 4) != 0)
    damaged("has a damaged record index", index.records_end);
  index.writers = get_u64(head + 8);
  index.records = get_u64(head + 16);
  // The file's length is I + head + 8 P + 8 (N + 1) + trailer: P and N are paid for by it.
  const std::uint64_t room = trailer_at - index.records_end - record_index_head_size;
  if (index.writers == 0 || index.writers > room / 8 || index.records >= room / 8 ||
      8 * index.writers + 8 * (index.records + 1) != room)
    damaged("has a record index whose counts do not fit the file", index.records_end + 8);
  // The whole index, read once: its checksum covers every byte of it, the offsets included.
  const std::size_t offsets_bytes = 8 * (index.records + 1);
  std::vector<std::byte> table(record_index_head_size + 8 * index.writers + offsets_bytes);
  std::memcpy(table.data(), head, sizeof head);
  const std::size_t table_at = index.records_end + record_index_head_size;
  const std::size_t rest = table.size() - sizeof head;
  if (read_at(fd, path, table.data() + sizeof head, rest, table_at) != rest)
    file_error(errc::end_of_input, path, "shrank while it was being read", table_at);
  if (crc32c(table) != get_u32(trailer + 8))
    file_error(errc::checksum_mismatch, path, "has a damaged record index", index.records_end);
  index.first_of_writer.resize(index.writers + 1);
  for (std::uint64_t r = 0; r < index.writers; ++r) {
    index.first_of_writer[r] = get_u64(table.data() + record_index_head_size + 8 * r);
    if (index.first_of_writer[r] > index.records ||
        (r > 0 && index.first_of_writer[r] < index.first_of_writer[r - 1]) ||
        (r == 0 && index.first_of_writer[r] != 0))
      damaged("has a record index whose writers' records overlap", table_at + 8 * r);
  }
  index.first_of_writer[index.writers] = index.records;
  // Increasing, each record at least its 8-byte prefix, within the records, the last at I.
  const std::byte* offsets = table.data() + record_index_head_size + 8 * index.writers;
  index.offsets.resize(index.records + 1);
  for (std::size_t i = 0; i < index.offsets.size(); ++i) {
    const std::uint64_t o = get_u64(offsets + 8 * i);
    const bool last = i + 1 == index.offsets.size();
    if (o < index.records_begin || o > index.records_end || (last && o != index.records_end) ||
        (i > 0 && o < index.offsets[i - 1] + 8))
      damaged("has a record index whose extents overlap or leave the records",
              index.offsets_at() + 8 * i);
    index.offsets[i] = o;
  }
  return index;
}

/// Where records [first, last] start (last may be N: the end of the records).
inline std::vector<std::uint64_t> record_offsets(const std::filesystem::path& path,
                                                 const record_index& index, std::uint64_t first,
                                                 std::uint64_t last) {
  if (first > last || last > index.records)
    file_error(errc::invalid_value, path, "has no such records", index.records_end + 16);
  return {index.offsets.begin() + static_cast<std::ptrdiff_t>(first),
          index.offsets.begin() + static_cast<std::ptrdiff_t>(last) + 1};
}

}  // namespace bale::detail
