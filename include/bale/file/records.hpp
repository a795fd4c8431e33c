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

#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/serialize.hpp"
#include "bale/file/checksum.hpp"
#include "bale/file/file.hpp"
#include "bale/fwd.hpp"
#include "bale/schema.hpp"

namespace bale {

namespace detail {
inline constexpr std::size_t records_header_size = 8;
inline constexpr std::size_t records_schema_head_size = 16;  // fingerprint, size, CRC32C
inline constexpr std::size_t record_prefix_size = 8;
}  // namespace detail

template <class T, format Format = binary>
class record_writer {
 public:
  /// Creates (or truncates) `path`.
  explicit record_writer(std::filesystem::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) detail::io_failure(path_, "cannot create");
    const type_schema& schema = schema_of<T>();
    const std::string& text = schema.text();
    buffer_.resize(detail::records_header_size + detail::records_schema_head_size + text.size());
    std::memcpy(buffer_.data(), "BALS", 4);
    buffer_[4] = std::byte{2};
    buffer_[5] = static_cast<std::byte>(Format::id);
    std::byte* head = buffer_.data() + detail::records_header_size;
    detail::put_u64(head, schema.fingerprint());
    detail::put_u32(head + 8, static_cast<std::uint32_t>(text.size()));
    detail::put_u32(head + 12, detail::crc32c(std::as_bytes(std::span(text))));
    std::memcpy(head + detail::records_schema_head_size, text.data(), text.size());
  }
  /// Writes what is left and closes, never throwing: call close() to learn of a failure. One that
  /// happens here (a full disk) is reported on stderr.
  ~record_writer() {
    if (fd_ < 0) return;
    try {
      flush();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bale::record_writer: records lost on destruction: %s\n", e.what());
    }
    ::close(fd_);
  }
  record_writer(const record_writer&) = delete;
  record_writer& operator=(const record_writer&) = delete;

  /// Appends one record. If the value's save() throws, nothing of it is written.
  void write(const T& value) {
    if (fd_ < 0) detail::file_error(errc::io_error, path_, "is closed or failed");
    const std::size_t start = buffer_.size();
    try {
      buffer_.resize(start + detail::record_prefix_size);
      const std::size_t size = serialize_into<Format>(buffer_, value);
      if (size > 0xFFFFFFFFu) throw error(errc::invalid_value, "a record is limited to 4 GiB");
      const auto payload =
          std::span<const std::byte>(buffer_).subspan(start + detail::record_prefix_size);
      detail::put_u32(buffer_.data() + start, static_cast<std::uint32_t>(size));
      detail::put_u32(buffer_.data() + start + 4, detail::crc32c(payload));
    } catch (...) {
      buffer_.resize(start);
      throw;
    }
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
      detail::io_failure(path_, "cannot sync");
    }
    if (::close(fd) != 0) detail::io_failure(path_, "cannot close");
  }
  std::size_t count() const noexcept { return count_; }

 private:
  // After a failed write the file ends in an unknown place: the writer stops accepting records.
  void flush() {
    const std::byte* data = buffer_.data();
    std::size_t n = buffer_.size();
    buffer_.clear();
    while (n > 0) {
      const ssize_t written = ::write(fd_, data, n);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        const int saved = errno;
        ::close(std::exchange(fd_, -1));
        errno = saved;
        detail::io_failure(path_, "cannot write");
      }
      data += written;
      n -= static_cast<std::size_t>(written);
    }
  }

  std::filesystem::path path_;
  int fd_ = -1;
  std::vector<std::byte> buffer_;
  std::size_t count_ = 0;
};

/// Reads records in the format the file's header names (binary or compact; a format named here
/// must match it, and MessagePack or JSON records are read with their format named).
template <class T, file_format Format = stored_format>
class record_reader {
 public:
  explicit record_reader(std::filesystem::path path, const limits& lim = {})
      : path_(std::move(path)), limits_(lim) {
    std::size_t size = 0;
    detail::unique_fd fd = detail::open_regular_file(path_, size);
    fd_ = fd.get();
    std::byte header[detail::records_header_size];
    const std::size_t got = detail::read_at(fd_, path_, header, sizeof header, 0);
    if (got < 4 || std::memcmp(header, "BALS", 4) != 0)
      detail::file_error(errc::invalid_value, path_, "is not a bale record file");
    if (got < sizeof header)
      detail::file_error(errc::end_of_input, path_, "is shorter than a record file header", got);
    const int version = std::to_integer<int>(header[4]);
    if (version != 1 && version != 2)
      detail::file_error(errc::invalid_value, path_,
                         std::string("has an unknown version ").append(std::to_string(version)), 4);
    format_id_ = std::to_integer<std::uint8_t>(header[5]);
    detail::check_file_format<Format>(path_, format_id_, 5);
    offset_ = detail::records_header_size;
    if (version == 2) check_schema(size);
    (void)fd.release();  // this reader closes it from now on
  }
  ~record_reader() {
    if (fd_ >= 0) ::close(fd_);
  }
  record_reader(const record_reader&) = delete;
  record_reader& operator=(const record_reader&) = delete;

  /// The next record, or nothing at the end of the file. After a damaged record (an error), the
  /// next call goes on with the record after it; after a cut-off one, the file has ended.
  std::optional<T> next() {
    std::byte prefix[detail::record_prefix_size];
    const std::size_t at = offset_;
    const std::size_t got = detail::read_at(fd_, path_, prefix, sizeof prefix, at);
    if (got == 0) return std::nullopt;
    if (got != sizeof prefix) {
      offset_ += got;
      detail::file_error(errc::end_of_input, path_, "ends inside a record header", at);
    }
    const std::uint32_t size = detail::get_u32(prefix);
    if (size > limits_.max_allocation) {
      offset_ = at + sizeof prefix + size;  // skipped, like a damaged record
      detail::file_error(errc::allocation_limit, path_,
                         "has a record of " + std::to_string(size) + " bytes", at);
    }
    const std::size_t read = read_payload(at + sizeof prefix, size);
    offset_ = at + sizeof prefix + read;
    if (read != size) detail::file_error(errc::end_of_input, path_, "ends inside a record", at);
    if (detail::crc32c(payload_) != detail::get_u32(prefix + 4))
      detail::file_error(errc::checksum_mismatch, path_, "has a damaged record", at);
    try {
      detail::read_context context(limits_);
      context.forbid_views();  // the buffer is reused by the next record
      T value{};
      detail::deserialize_stored<Format>(format_id_, context, payload_, value);
      return value;
    } catch (const error& e) {
      error named(e.code(), "file '" + path_.string() + "': " + e.detail(),
                  e.offset_in_whole(at + sizeof prefix));
      if (!e.path().empty()) named.prepend_field(e.path());
      throw named;
    }
  }

 private:
  // Reads the schema after the header and refuses one other than T's.
  void check_schema(std::size_t file_size) {
    const std::size_t at = detail::records_header_size;
    std::byte head[detail::records_schema_head_size];
    if (detail::read_at(fd_, path_, head, sizeof head, at) != sizeof head)
      detail::file_error(errc::end_of_input, path_, "ends inside its schema", at);
    const std::uint32_t n = detail::get_u32(head + 8);
    const std::size_t text_at = at + sizeof head;
    if (n > file_size - text_at)
      detail::file_error(errc::end_of_input, path_, "ends inside its schema", text_at);
    std::string text(n, '\0');
    if (detail::read_at(fd_, path_, reinterpret_cast<std::byte*>(text.data()), n, text_at) != n)
      detail::file_error(errc::end_of_input, path_, "shrank while it was being read", text_at);
    if (detail::crc32c(std::as_bytes(std::span(text))) != detail::get_u32(head + 12) ||
        detail::fnv1a64(text) != detail::get_u64(head))
      detail::file_error(errc::checksum_mismatch, path_, "has a damaged schema", at);
    if (text != schema_of<T>().text())
      detail::file_error(
          errc::wrong_type, path_,
          "holds another type: " + detail::schema_difference(text, schema_of<T>().text()), text_at);
    offset_ = text_at + n;
  }

  // The buffer grows as bytes arrive (doubling from 64 KiB): a size in a damaged or hostile
  // prefix costs memory only as far as the file really goes.
  std::size_t read_payload(std::size_t at, std::size_t size) {
    std::size_t have = 0;
    while (have < size) {
      const std::size_t room = std::min(size, std::max(2 * have, std::size_t{1} << 16));
      payload_.resize(room);
      const std::size_t got =
          detail::read_at(fd_, path_, payload_.data() + have, room - have, at + have);
      have += got;
      if (have < room) break;
    }
    payload_.resize(have);
    return have;
  }

  std::filesystem::path path_;
  limits limits_;
  int fd_ = -1;
  std::size_t offset_ = 0;
  std::uint8_t format_id_ = 0;
  std::vector<std::byte> payload_;
};

}  // namespace bale
