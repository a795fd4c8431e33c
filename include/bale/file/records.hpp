#pragma once
// Streams of records for data larger than memory: bale::record_writer appends values to a file one
// at a time; bale::record_reader reads them back one at a time, holding one record in memory.
//
//   bale::record_writer<event> out("events.bales");
//   for (const event& e : source) out.write(e);
//   out.close();                                   // syncs; the destructor closes too
//   bale::record_reader<event> in("events.bales");
//   while (auto e = in.next()) use(*e);
//
// File: "BALS" | u8 version (1) | u8 format id | u16 zero, then records, each
//   u32 payload size | u32 CRC32C of the payload | payload (the value in the format)
// A record's size is checked against limits::max_allocation before its buffer grows; a damaged or
// cut-off record is a bale::error naming the file and the record's offset.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
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

namespace bale {

namespace detail {
inline constexpr std::size_t records_header_size = 8;
inline constexpr std::size_t record_prefix_size = 8;
}  // namespace detail

template <class T, format Format = binary>
class record_writer {
 public:
  /// Creates (or truncates) `path`.
  explicit record_writer(std::filesystem::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) detail::io_failure(path_, "cannot create");
    std::byte header[detail::records_header_size]{};
    std::memcpy(header, "BALS", 4);
    header[4] = std::byte{1};
    header[5] = static_cast<std::byte>(Format::id);
    put(header, sizeof header);
  }
  ~record_writer() {
    if (fd_ >= 0) {
      flush();
      ::close(fd_);
    }
  }
  record_writer(const record_writer&) = delete;
  record_writer& operator=(const record_writer&) = delete;

  /// Appends one record.
  void write(const T& value) {
    const std::size_t start = buffer_.size();
    buffer_.resize(start + detail::record_prefix_size);
    const std::size_t size = serialize_into<Format>(buffer_, value);
    if (size > 0xFFFFFFFFu) throw error(errc::invalid_value, "a record is limited to 4 GiB", 0);
    const auto payload =
        std::span<const std::byte>(buffer_).subspan(start + detail::record_prefix_size);
    detail::put_u32(buffer_.data() + start, static_cast<std::uint32_t>(size));
    detail::put_u32(buffer_.data() + start + 4, detail::crc32c(payload));
    ++count_;
    if (buffer_.size() >= (std::size_t{1} << 16)) flush();
  }
  /// Writes what is buffered, syncs and closes; errors are thrown here rather than lost.
  void close() {
    flush();
    if (::fdatasync(fd_) != 0) detail::io_failure(path_, "cannot sync");
    if (::close(std::exchange(fd_, -1)) != 0) detail::io_failure(path_, "cannot close");
  }
  std::size_t count() const noexcept { return count_; }

 private:
  void flush() {
    put(buffer_.data(), buffer_.size());
    buffer_.clear();
  }
  void put(const std::byte* data, std::size_t n) {
    while (n > 0) {
      const ssize_t written = ::write(fd_, data, n);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) detail::io_failure(path_, "cannot write");
      data += written;
      n -= static_cast<std::size_t>(written);
    }
  }

  std::filesystem::path path_;
  int fd_ = -1;
  std::vector<std::byte> buffer_;
  std::size_t count_ = 0;
};

template <class T, format Format = binary>
class record_reader {
 public:
  explicit record_reader(std::filesystem::path path, const limits& lim = {})
      : path_(std::move(path)), limits_(lim) {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) detail::io_failure(path_, "cannot open");
    std::byte header[detail::records_header_size];
    if (!read_exactly(header, sizeof header))
      detail::file_error(errc::end_of_input, path_, "is shorter than a record file header", 0);
    if (std::memcmp(header, "BALS", 4) != 0)
      detail::file_error(errc::invalid_value, path_, "is not a bale record file");
    if (std::to_integer<int>(header[4]) != 1)
      detail::file_error(errc::invalid_value, path_, "has an unknown version", 4);
    if (std::to_integer<std::uint8_t>(header[5]) != Format::id)
      detail::file_error(errc::wrong_type, path_,
                         "holds another format than " + std::string(Format::name), 5);
    offset_ = detail::records_header_size;
  }
  ~record_reader() {
    if (fd_ >= 0) ::close(fd_);
  }
  record_reader(const record_reader&) = delete;
  record_reader& operator=(const record_reader&) = delete;

  /// The next record, or nothing at the end of the file.
  std::optional<T> next() {
    std::byte prefix[detail::record_prefix_size];
    const std::size_t at = offset_;
    const std::size_t got = read_some(prefix, sizeof prefix);
    if (got == 0) return std::nullopt;
    if (got != sizeof prefix)
      detail::file_error(errc::end_of_input, path_, "ends inside a record header", at);
    const std::uint32_t size = detail::get_u32(prefix);
    if (size > limits_.max_allocation)
      detail::file_error(errc::allocation_limit, path_,
                         "has a record of " + std::to_string(size) + " bytes", at);
    payload_.resize(size);
    if (!read_exactly(payload_.data(), size))
      detail::file_error(errc::end_of_input, path_, "ends inside a record", at);
    if (detail::crc32c(payload_) != detail::get_u32(prefix + 4))
      detail::file_error(errc::checksum_mismatch, path_, "has a damaged record", at);
    offset_ += sizeof prefix + size;
    try {
      return deserialize<T, Format>(payload_, limits_);
    } catch (const error& e) {
      error named(e.code(), "file '" + path_.string() + "': " + e.detail(),
                  at + sizeof prefix + e.offset());
      if (!e.path().empty()) named.prepend_field(e.path());
      throw named;
    }
  }

 private:
  std::size_t read_some(std::byte* out, std::size_t n) {
    std::size_t total = 0;
    while (total < n) {
      const ssize_t got = ::read(fd_, out + total, n - total);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) detail::io_failure(path_, "cannot read");
      if (got == 0) break;
      total += static_cast<std::size_t>(got);
    }
    return total;
  }
  bool read_exactly(std::byte* out, std::size_t n) { return read_some(out, n) == n; }

  std::filesystem::path path_;
  limits limits_;
  int fd_ = -1;
  std::size_t offset_ = 0;
  std::vector<std::byte> payload_;
};

}  // namespace bale
