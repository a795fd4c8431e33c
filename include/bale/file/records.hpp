// SPDX-License-Identifier: BSL-1.0
#pragma once
// Streams of records for data larger than memory: bale::record_writer appends values to a file one
// at a time; bale::record_reader reads them back one at a time, holding one record in memory.
//
//   bale::record_writer<event> out("events.bales");
//   for (const event& e : source) out.write(e);
//   out.close();                        // syncs and reports errors; the destructor never throws
//   bale::record_reader<event> in("events.bales");
//   while (auto e = in.next()) use(*e);
//
// File: "BALS" | u8 version (2) | u8 format id | u16 zero | u64 schema fingerprint | u32 schema
// size n | u32 CRC32C of the schema | the n bytes of the schema text (bale::schema_of<T>), then
// records, each
//   u32 payload size | u32 CRC32C of the payload | payload (the value in the format)
// A reader refuses a file of another schema than its type's before the first record. Version 1
// files (no schema: the records follow the first 8 bytes) are still read, unchecked.
// A record's size is checked against limits::max_allocation, and its buffer grows only as its bytes
// are read; a damaged or cut-off record is a bale::error naming the file and the record's offset.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bale/checksum/crc32c.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/serialize.hpp"
#include "bale/file/file.hpp"
#include "bale/file/record_file.hpp"
#include "bale/fwd.hpp"
#include "bale/schema/schema_of.hpp"

namespace bale {
namespace detail {

/// A record file's header and schema block for records of `schema` in the format numbered
/// `format_id`.
inline std::vector<std::byte> record_file_head(const type_schema& schema, std::uint8_t format_id,
                                               unsigned version) {
  const std::string& text = schema.text();
  std::vector<std::byte> out(records_header_size + records_schema_head_size + text.size());
  std::memcpy(out.data(), "BALS", 4);
  out[4] = static_cast<std::byte>(version);
  out[5] = static_cast<std::byte>(format_id);
  std::byte* head = out.data() + records_header_size;
  put_u64(head, schema.fingerprint());
  put_u32(head + 8, static_cast<std::uint32_t>(text.size()));
  put_u32(head + 12, crc32c(std::as_bytes(std::span(text))));
  std::memcpy(head + records_schema_head_size, text.data(), text.size());
  return out;
}
/// The same for records of T in Format.
template <class T, format Format>
std::vector<std::byte> record_file_head(unsigned version) {
  return record_file_head(schema_of<T>(), Format::id, version);
}

/// Appends a record to `buffer`: size, CRC32C, and the payload `write(buffer)` appends. If it
/// throws, the buffer is as it was.
template <class Write>
void append_record_with(std::vector<std::byte>& buffer, Write&& write) {
  const std::size_t start = buffer.size();
  try {
    buffer.resize(start + record_prefix_size);
    write(buffer);
    const std::size_t size = buffer.size() - start - record_prefix_size;
    if (size > 0xFFFFFFFFu) throw error(errc::invalid_value, "a record is limited to 4 GiB");
    const auto payload = std::span<const std::byte>(buffer).subspan(start + record_prefix_size);
    put_u32(buffer.data() + start, static_cast<std::uint32_t>(size));
    put_u32(buffer.data() + start + 4, crc32c(payload));
  } catch (...) {
    buffer.resize(start);
    throw;
  }
}
/// Appends `value` to `buffer` as a record in Format.
template <format Format, class T>
void append_record(std::vector<std::byte>& buffer, const T& value) {
  append_record_with(buffer, [&](std::vector<std::byte>& b) { serialize_into<Format>(b, value); });
}

/// A record file being written, whatever its records' type: its header first, then records as
/// `add` appends them, buffered; a failed write stops it.
class record_file_writer {
 public:
  /// Creates (or truncates) `path`, to start with `head` (record_file_head).
  record_file_writer(std::filesystem::path path, std::vector<std::byte> head)
      : path_(std::move(path)), buffer_(std::move(head)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) io_failure(path_, "cannot create");
  }
  /// Writes what is left and closes, never throwing: call close() to learn of a failure. One that
  /// happens here (a full disk) is reported on stderr.
  ~record_file_writer() {
    if (fd_ < 0) return;
    try {
      flush();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bale::record_writer: records lost on destruction: %s\n", e.what());
    }
    ::close(fd_);
  }
  record_file_writer(const record_file_writer&) = delete;
  record_file_writer& operator=(const record_file_writer&) = delete;

  /// Appends one record, which `write(buffer)` appends (append_record_with).
  template <class Write>
  void add(Write&& write) {
    if (fd_ < 0) file_error(errc::io_error, path_, "is closed or failed");
    append_record_with(buffer_, write);
    ++count_;
    if (buffer_.size() >= (std::size_t{1} << 16)) flush();
  }
  /// Writes what is buffered, syncs and closes; errors are thrown here rather than lost.
  void close() {
    if (fd_ < 0) return;
    const int fd = fd_;
    try {
      flush();
    } catch (...) {
      if (fd_ >= 0) ::close(std::exchange(fd_, -1));
      throw;
    }
    fd_ = -1;
    if (::fdatasync(fd) != 0) {
      ::close(fd);
      io_failure(path_, "cannot sync");
    }
    if (::close(fd) != 0) io_failure(path_, "cannot close");
  }
  std::size_t count() const noexcept { return count_; }

 private:
  // After a failed write the file ends in an unknown place: the writer stops accepting records.
  void flush() {
    const std::byte* data = buffer_.data();
    std::size_t n = buffer_.size();
    while (n > 0) {
      const ssize_t written = ::write(fd_, data, n);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        const int saved = errno;
        ::close(std::exchange(fd_, -1));
        errno = saved;
        io_failure(path_, "cannot write");
      }
      data += written;
      n -= static_cast<std::size_t>(written);
    }
    buffer_.clear();
  }

  std::filesystem::path path_;
  int fd_ = -1;
  std::vector<std::byte> buffer_;
  std::size_t count_ = 0;
};

}  // namespace detail

template <class T, format Format = binary>
class record_writer {
 public:
  /// Creates (or truncates) `path`.
  explicit record_writer(std::filesystem::path path)
      : file_(std::move(path), detail::record_file_head<T, Format>(wire_versions::record_file)) {}

  /// Appends one record. If the value's save() throws, nothing of it is written.
  void write(const T& value) {
    file_.add([&](std::vector<std::byte>& buffer) { serialize_into<Format>(buffer, value); });
  }
  /// Writes what is buffered, syncs and closes; errors are thrown here rather than lost.
  void close() { file_.close(); }
  std::size_t count() const noexcept { return file_.count(); }

 private:
  detail::record_file_writer file_;
};

/// Reads records in the format the file's header names (binary or compact; a format named here
/// must match it, and MessagePack or JSON records are read with their format named).
template <class T, file_format Format = stored_format>
class record_reader : private detail::record_file {
 public:
  explicit record_reader(std::filesystem::path path, const limits& lim = {})
      : record_file(std::move(path), lim, &detail::check_file_format<Format>) {
    const std::string& wanted = schema_of<T>().text();
    if (version() >= 2 && schema() != wanted) resolve(wanted);
  }

  /// Whether the file has a record index (bale::mpi::save_file writes one): then size() and
  /// seek() work without reading the records.
  using record_file::indexed;
  /// The number of records of an indexed file.
  std::size_t size() const { return indexed_or_fail().records; }
  /// The number of ranks that wrote an indexed file, and the first record each wrote.
  std::size_t writers() const { return indexed_or_fail().writers; }
  std::size_t first_of_writer(std::size_t w) const {
    if (w > writers())
      detail::file_error(errc::invalid_value, file_path(),
                         detail::error_text({"has ", writers(), " writers, not ", w + 1}), 4);
    return index().first_of_writer[w];
  }
  /// Makes record `i` of an indexed file the next one read: a record or a range read alone.
  void seek(std::size_t i) { seek_record(i); }
  /// Records first .. first + count - 1 of an indexed file, found through its index (only their
  /// bytes are read); each must start where the index says.
  std::vector<T> read(std::size_t first, std::size_t count) {
    if (first > size() || count > size() - first)
      detail::file_error(
          errc::invalid_value, file_path(),
          detail::error_text({"has ", size(), " records, not ", first, " + ", count}), 4);
    const std::vector<std::uint64_t> offsets = record_offsets(first, first + count);
    seek_offset(offsets[0]);
    std::vector<T> out;
    for (std::size_t k = 0; k < count; ++k) {
      if (position() != offsets[k])
        detail::file_error(errc::invalid_value, file_path(),
                           "has a record index that disagrees with its records", position());
      std::optional<T> value = next();
      if (!value)
        detail::file_error(errc::end_of_input, file_path(), "ends inside its records", position());
      out.push_back(std::move(*value));
    }
    if (position() != offsets[count])
      detail::file_error(errc::invalid_value, file_path(),
                         "has a record index that disagrees with its records", position());
    return out;
  }

  /// The next record, or nothing at the end of the file. After a damaged record (an error), the
  /// next call goes on with the record after it; after a cut-off one, the file has ended.
  std::optional<T> next() {
    std::size_t at = 0;
    const auto payload = next_payload(at);
    if (!payload) return std::nullopt;
    try {
      detail::read_context context(record_limits());
      context.forbid_views("use std::string / std::vector");  // the buffer is reused
      T value = T();
      detail::deserialize_stored<Format>(format_id(), context, *payload, value,
                                         plan_ ? &*plan_ : nullptr);
      return value;
    } catch (const error& e) {
      throw in_record(e, at);
    }
  }

 private:
  // Records of another schema: resolved against T's (bale/schema/resolution.hpp), or refused
  // with the member where they differ.
  void resolve(const std::string& wanted) {
    constexpr std::size_t at = detail::records_header_size + detail::records_schema_head_size;
    plan_.emplace(detail::file_resolution(file_path(), format_id(), schema(), wanted, at));
  }

  std::optional<detail::resolution> plan_;
};

}  // namespace bale
