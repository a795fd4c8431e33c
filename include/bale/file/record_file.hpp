// SPDX-License-Identifier: BSL-1.0
#pragma once
// The reading side of a record file (bale/file/records.hpp), whatever the records' type: the
// header and the writer's schema checked, then one record's payload at a time, its size and
// CRC32C checked. record_reader<T> decodes the payloads as T; bale::record_inspector by the schema.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bale/checksum/crc32c.hpp"
#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"
#include "bale/file/file.hpp"
#include "bale/file/record_index.hpp"
#include "bale/schema/schema_of.hpp"

namespace bale::detail {

inline constexpr std::size_t records_header_size = 8;
inline constexpr std::size_t records_schema_head_size = 16;  // fingerprint, size, CRC32C
inline constexpr std::size_t record_prefix_size = 8;

class record_file {
 public:
  using format_check = void (*)(const std::filesystem::path&, std::uint8_t, std::size_t);

  record_file(std::filesystem::path path, const limits& lim, format_check check_format)
      : path_(std::move(path)), limits_(lim), fd_(open_regular_file(path_, file_size_)) {
    std::byte header[records_header_size];
    const std::size_t got = read_at(fd_.get(), path_, header, sizeof header, 0);
    if (got < 4 || std::memcmp(header, "BALS", 4) != 0)
      file_error(errc::invalid_value, path_, "is not a bale record file");
    if (got < sizeof header)
      file_error(errc::end_of_input, path_, "is shorter than a record file header", got);
    version_ = std::to_integer<std::uint8_t>(header[4]);
    if (version_ < 1 || version_ > 3)
      file_error(errc::invalid_value, path_,
                 detail::error_text({"has an unknown version ", version_}), 4);
    format_id_ = std::to_integer<std::uint8_t>(header[5]);
    check_format(path_, format_id_, 5);
    offset_ = records_header_size;
    records_end_ = file_size_;
    if (version_ >= 2) read_schema();
    if (version_ == 3) {
      index_ = read_record_index(fd_.get(), path_, file_size_, offset_);
      records_end_ = index_.records_end;
    }
  }

  const std::filesystem::path& file_path() const noexcept { return path_; }
  std::uint8_t version() const noexcept { return version_; }
  std::uint8_t format_id() const noexcept { return format_id_; }
  /// The writer's schema text (empty in a version 1 file).
  const std::string& schema() const noexcept { return schema_; }
  const limits& record_limits() const noexcept { return limits_; }
  /// Whether the file has a record index (version 3), and then its counts.
  bool indexed() const noexcept { return version_ == 3; }
  const record_index& index() const noexcept { return index_; }
  /// The index, or an error for a file without one.
  const record_index& indexed_or_fail() const {
    if (!indexed())
      file_error(errc::invalid_value, path_,
                 "has no record index (record_writer writes none; bale::mpi::save_file does)", 4);
    return index_;
  }
  /// Where the next record's prefix starts.
  std::uint64_t position() const noexcept { return offset_; }

  /// Goes to record `i` of an indexed file (`i` = the count: the end).
  void seek_record(std::uint64_t i) {
    if (i > indexed_or_fail().records)
      file_error(errc::invalid_value, path_,
                 detail::error_text({"has ", index_.records, " records, not ", i + 1}),
                 index_.records_end + 16);
    // The record found at offset i must end at offset i + 1: a record and its index that
    // disagree (a writer's fault the checksum does not see) are refused as damage.
    offset_ = index_.offsets[i];
    index_end_ =
        i < index_.records ? std::optional<std::uint64_t>(index_.offsets[i + 1]) : std::nullopt;
  }
  /// Where records first..last of an indexed file start (last may be the count), checked.
  std::vector<std::uint64_t> record_offsets(std::uint64_t first, std::uint64_t last) const {
    return bale::detail::record_offsets(path_, index_, first, last);
  }
  void seek_offset(std::uint64_t at) noexcept {
    offset_ = at;
    index_end_.reset();
  }

  /// The next record's payload (valid until the next call) and, in `at`, where its prefix starts;
  /// nothing at the end of the file. After an error the next call goes on with the next record.
  std::optional<std::span<const std::byte>> next_payload(std::size_t& at) {
    std::byte prefix[record_prefix_size];
    at = offset_;
    const std::optional<std::uint64_t> index_end = std::exchange(index_end_, std::nullopt);
    if (at >= records_end_) return std::nullopt;
    const std::byte* head = nullptr;
    const std::size_t got =
        read_window(at, std::min<std::size_t>(sizeof prefix, records_end_ - at), head);
    if (got != 0) std::memcpy(prefix, head, got);  // the window moves on for the payload
    if (got == 0) return std::nullopt;
    if (got != sizeof prefix) {
      offset_ += got;
      file_error(errc::end_of_input, path_, "ends inside a record header", at);
    }
    const std::uint32_t size = get_u32(prefix);
    if (indexed() && size > records_end_ - at - sizeof prefix) {
      offset_ = records_end_;
      file_error(errc::invalid_value, path_, "has a record that runs into its index", at);
    }
    if (size > limits_.max_allocation) {
      offset_ = at + sizeof prefix + size;  // skipped, like a damaged record
      file_error(errc::allocation_limit, path_,
                 detail::error_text({"has a record of ", size, " bytes"}), at);
    }
    const std::size_t read = read_payload(at + sizeof prefix, size);
    offset_ = at + sizeof prefix + read;
    if (read != size) file_error(errc::end_of_input, path_, "ends inside a record", at);
    if (index_end && offset_ != *index_end)
      file_error(errc::invalid_value, path_, "has a record index that disagrees with its records",
                 at);
    if (crc32c(payload_view_) != get_u32(prefix + 4))
      file_error(errc::checksum_mismatch, path_, "has a damaged record", at);
    return payload_view_;
  }

  /// An error from decoding the record at `at`, with the file's name and offsets in the file.
  error in_record(const error& e, std::size_t at) const {
    error named(e.code(), "file '" + path_.string() + "': " + e.detail(),
                e.offset_in_whole(at + record_prefix_size));
    if (!e.path().empty()) named.prepend_field(e.path());
    return named;
  }

 private:
  void read_schema() {
    const std::size_t at = records_header_size;
    std::byte head[records_schema_head_size];
    if (read_at(fd_.get(), path_, head, sizeof head, at) != sizeof head)
      file_error(errc::end_of_input, path_, "ends inside its schema", at);
    const std::uint32_t n = get_u32(head + 8);
    const std::size_t text_at = at + sizeof head;
    if (n > file_size_ - text_at)
      file_error(errc::end_of_input, path_, "ends inside its schema", text_at);
    schema_.assign(n, '\0');
    if (read_at(fd_.get(), path_, reinterpret_cast<std::byte*>(schema_.data()), n, text_at) != n)
      file_error(errc::end_of_input, path_, "shrank while it was being read", text_at);
    if (crc32c(std::as_bytes(std::span(schema_))) != get_u32(head + 12) ||
        fnv1a64(schema_) != get_u64(head))
      file_error(errc::checksum_mismatch, path_, "has a damaged schema", at);
    offset_ = text_at + n;
  }

  // A payload the file's length holds is read at once. Past that length the buffer grows as
  // bytes arrive (doubling from 64 KiB): a size in a damaged or hostile prefix costs memory only
  // as far as the file really goes (it may have grown since it was opened).
  // A large one goes into memory that is not zero-filled and is mapped in huge pages (byte_block).
  std::size_t read_payload(std::size_t at, std::size_t size) {
    if (size <= small_payload) {
      const std::byte* in_window = nullptr;
      const std::size_t got = read_window(at, size, in_window);
      payload_view_ = std::span<const std::byte>(in_window, got);
      return got;
    }
    if (at <= file_size_ && size <= file_size_ - at) {
      std::byte* into = nullptr;
      if (size >= large_payload) {
        if (large_.bytes().size() < size) large_ = byte_block(size);
        into = large_.data();
      } else {
        payload_.resize(size);
        into = payload_.data();
      }
      const std::size_t got = read_at(fd_.get(), path_, into, size, at);
      payload_view_ = std::span<const std::byte>(into, got);
      return got;
    }
    std::size_t have = 0;
    while (have < size) {
      const std::size_t room = std::min(size, std::max(2 * have, std::size_t{1} << 16));
      payload_.resize(room);
      const std::size_t got =
          read_at(fd_.get(), path_, payload_.data() + have, room - have, at + have);
      have += got;
      if (have < room) break;
    }
    payload_.resize(have);
    payload_view_ = payload_;
    return have;
  }

  // Up to `n` bytes at `at`, from a window of the file read ahead (at most window_bytes, as far
  // as the file went when opened, and at least `n`): a run of small records costs one read per
  // window, not two per record.
  std::size_t read_window(std::size_t at, std::size_t n, const std::byte*& out) {
    if (at < window_at_ || at + n > window_at_ + window_.size()) {
      const std::size_t left = at < file_size_ ? file_size_ - at : 0;
      window_.resize(std::max(n, std::min(window_bytes, left)));
      window_.resize(read_at(fd_.get(), path_, window_.data(), window_.size(), at));
      window_at_ = at;
    }
    out = window_.data() + (at - window_at_);
    return std::min(n, window_at_ + window_.size() - at);
  }

  std::filesystem::path path_;
  limits limits_;
  std::size_t file_size_ = 0;
  unique_fd fd_;
  std::size_t offset_ = 0;
  std::optional<std::uint64_t> index_end_;  // after seek_record: where the index says it ends
  std::size_t records_end_ = 0;
  record_index index_;
  std::uint8_t version_ = 0;
  std::uint8_t format_id_ = 0;
  std::string schema_;
  static constexpr std::size_t window_bytes = std::size_t{1} << 20;
  static constexpr std::size_t small_payload = std::size_t{64} << 10;  // read through the window
  static constexpr std::size_t large_payload = std::size_t{1} << 20;
  std::vector<std::byte> window_;
  std::size_t window_at_ = 0;
  std::vector<std::byte> payload_;
  byte_block large_;
  std::span<const std::byte> payload_view_;  // the last record's payload, in one of the two
};

}  // namespace bale::detail
