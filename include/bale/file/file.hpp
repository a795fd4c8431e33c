#pragma once
// bale::save_file and bale::load_file: a value in a file, with a header that says what is inside
// and a checksum of the payload. Loading maps the file and decodes from the mapping (no stream);
// saving writes a temporary file in the same directory, syncs it and renames it over the target,
// so a crash never leaves a half-written file in place of a good one. POSIX only.
//
//   bale::save_file("cells.bale", cells);                       // binary, uncompressed
//   bale::save_file<bale::compact>("cells.bale", cells, {.compression = bale::codec::zstd});
//   auto back = bale::load_file<std::vector<cell>>("cells.bale");
//
// The 40-byte header, all integers little-endian:
//   0  "BALE"      magic                      16 u64  payload size (bytes stored after the header)
//   4  u8 version  (1)                        24 u64  raw size (payload size once decompressed)
//   5  u8 format   (1 binary, 2 compact)      32 u32  CRC32C of the payload
//   6  u8 codec    (0 none, 1 lz4, 2 zstd)    36 u32  CRC32C of header bytes 0..35
//   7  u8 zero
//   8  u64 type fingerprint (FNV-1a of the C++ type's name as the compiler spells it)

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bale/compress/compress.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/serialize.hpp"
#include "bale/core/write_context.hpp"
#include "bale/file/checksum.hpp"
#include "bale/fwd.hpp"

namespace bale {

/// How save_file and load_file work.
struct file_options {
  /// Compress the payload (save_file); load_file reads whatever the header says.
  codec compression = codec::none;
  /// The codec's level (0: its default).
  int level = 0;
  /// fsync the file and its directory before save_file returns.
  bool sync = true;
  /// Refuse a file written for another C++ type (the fingerprint is compiler-specific: turn this
  /// off to read files written by a build with another compiler).
  bool check_type = true;
  /// Check the payload's CRC32C before decoding (load_file). Turning it off saves one pass over
  /// the payload (about 0.1 ms per MB here); decoding stays bounds-checked, so a damaged file
  /// still cannot crash the reader, but damage inside values goes unnoticed.
  bool verify_checksum = true;
  /// Decoding limits for load_file.
  bale::limits limits{};
};

namespace detail {

inline constexpr std::size_t file_header_size = 40;
inline constexpr std::uint8_t file_version = 1;

template <class T>
consteval std::uint64_t type_fingerprint() {
  const std::string_view name = __PRETTY_FUNCTION__;
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}

struct file_header {
  std::uint8_t format = 0;
  codec compression = codec::none;
  std::uint64_t fingerprint = 0;
  std::uint64_t payload_size = 0;
  std::uint64_t raw_size = 0;
  std::uint32_t checksum = 0;
};

inline void put_u32(std::byte* out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}
inline std::uint32_t get_u32(const std::byte* in) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<std::uint32_t>(in[i]) << (8 * i);
  return value;
}

inline void write_header(std::byte* out, const file_header& h) {
  std::memset(out, 0, file_header_size);
  std::memcpy(out, "BALE", 4);
  out[4] = static_cast<std::byte>(file_version);
  out[5] = static_cast<std::byte>(h.format);
  out[6] = static_cast<std::byte>(h.compression);
  put_u64(out + 8, h.fingerprint);
  put_u64(out + 16, h.payload_size);
  put_u64(out + 24, h.raw_size);
  put_u32(out + 32, h.checksum);
  put_u32(out + 36, crc32c(std::span<const std::byte>(out, 36)));
}

[[noreturn]] inline void file_error(errc code, const std::filesystem::path& path,
                                    const std::string& what, std::size_t offset = 0) {
  throw error(code, "file '" + path.string() + "': " + what, offset);
}
[[noreturn]] inline void io_failure(const std::filesystem::path& path, const char* action) {
  file_error(errc::io_error, path, std::string(action) + ": " + std::strerror(errno));
}

/// A file descriptor that closes itself.
class unique_fd {
 public:
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  ~unique_fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  int get() const noexcept { return fd_; }
  int release() noexcept { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

/// A read-only mapping of a whole file, read ahead in one go (MAP_POPULATE).
class read_mapping {
 public:
  explicit read_mapping(const std::filesystem::path& path) {
    const unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) io_failure(path, "cannot open");
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) io_failure(path, "cannot stat");
    if (!S_ISREG(st.st_mode)) file_error(errc::io_error, path, "not a regular file");
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ != 0) {
      data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd.get(), 0);
      if (data_ == MAP_FAILED) {
        data_ = nullptr;
        io_failure(path, "cannot map");
      }
    }
  }
  ~read_mapping() {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
  read_mapping(const read_mapping&) = delete;
  read_mapping& operator=(const read_mapping&) = delete;
  std::span<const std::byte> bytes() const noexcept {
    return {static_cast<const std::byte*>(data_), size_};
  }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

/// An output sink over a file descriptor: small writes gather in a buffer, large ones go straight
/// from the caller's memory to write(2). Every byte passes through the running CRC32C.
class file_sink {
 public:
  static constexpr bool counts_only = false;
  file_sink(int fd, const std::filesystem::path& path)
      : fd_(fd), path_(path), buffer_(std::size_t{1} << 16) {}

  void put(const void* data, std::size_t n) {
    if (n == 0) return;  // data may be null (an empty vector)
    const auto* bytes = static_cast<const std::byte*>(data);
    if (n >= buffer_.size() / 2) {
      flush();
      write_all(bytes, n);
      return;
    }
    if (used_ + n > buffer_.size()) flush();
    std::memcpy(buffer_.data() + used_, bytes, n);
    used_ += n;
  }
  /// Room for n bytes (n <= 16) written in place into the buffer.
  std::byte* reserve(std::size_t n) {
    if (used_ + n > buffer_.size()) flush();
    std::byte* at = buffer_.data() + used_;
    used_ += n;
    return at;
  }
  void flush() {
    write_all(buffer_.data(), used_);
    used_ = 0;
  }
  std::uint64_t size() const noexcept { return size_; }
  std::uint32_t checksum() const noexcept { return crc_; }

 private:
  // Every byte of the payload passes here once, in order: the checksum is taken on the way out.
  void write_all(const std::byte* data, std::size_t n) {
    crc_ = crc32c_extend(crc_, std::span<const std::byte>(data, n));
    size_ += n;
    while (n > 0) {
      const ssize_t written = ::write(fd_, data, n);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) io_failure(path_, "cannot write");
      data += written;
      n -= static_cast<std::size_t>(written);
    }
  }

  int fd_;
  const std::filesystem::path& path_;
  std::vector<std::byte> buffer_;
  std::size_t used_ = 0;
  std::uint64_t size_ = 0;
  std::uint32_t crc_ = 0;
};

// Creates a temporary file next to `path`, lets `write_payload(sink)` stream the payload after room
// for the header, writes the header returned by `make_header(sink)`, syncs, and renames the file
// over `path`. The temporary file is removed on any failure.
template <class WritePayload, class MakeHeader>
void write_file_atomically(const std::filesystem::path& path, bool sync,
                           WritePayload&& write_payload, MakeHeader&& make_header) {
  const std::filesystem::path dir =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string temp = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  unique_fd fd(::mkstemp(temp.data()));
  if (fd.get() < 0) io_failure(path, "cannot create a temporary file in its directory");
  struct remove_on_failure {
    const std::string& name;
    bool done = false;
    ~remove_on_failure() {
      if (!done) ::unlink(name.c_str());
    }
  } guard{temp};
  if (::fchmod(fd.get(), 0644) != 0) io_failure(path, "cannot set permissions");
  if (::lseek(fd.get(), static_cast<off_t>(file_header_size), SEEK_SET) < 0)
    io_failure(path, "cannot seek");
  file_sink sink(fd.get(), path);
  write_payload(sink);
  sink.flush();
  std::byte header[file_header_size];
  write_header(header, make_header(sink));
  if (::pwrite(fd.get(), header, file_header_size, 0) != static_cast<ssize_t>(file_header_size))
    io_failure(path, "cannot write the header");
  if (sync && ::fdatasync(fd.get()) != 0) io_failure(path, "cannot sync");
  if (::close(fd.release()) != 0) io_failure(path, "cannot close");
  if (::rename(temp.c_str(), path.c_str()) != 0)
    io_failure(path, "cannot rename the temporary file");
  guard.done = true;
  if (sync) {
    const unique_fd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir_fd.get() >= 0) ::fsync(dir_fd.get());
  }
}

}  // namespace detail

/// Writes value to `path` (atomically: a temporary file, then rename). Uncompressed values stream
/// to the file in one pass; compressed ones are encoded, compressed, then written.
template <format Format = binary, class T>
void save_file(const std::filesystem::path& path, const T& value,
               const file_options& options = {}) {
  detail::file_header header;
  header.format = Format::id;
  header.compression = options.compression;
  header.fingerprint = detail::type_fingerprint<T>();
  std::vector<std::byte> raw;
  if (options.compression != codec::none) raw = serialize<Format>(value);
  detail::write_file_atomically(
      path, options.sync,
      [&](detail::file_sink& sink) {
        if (options.compression == codec::none) {
          detail::write_context context;
          typename Format::template writer<detail::file_sink> ar(sink, context);
          ar(value);
        } else {
          const std::vector<std::byte> packed = compress(raw, options.compression, options.level);
          sink.put(packed.data(), packed.size());
        }
      },
      [&](const detail::file_sink& sink) {
        header.payload_size = sink.size();
        header.raw_size = options.compression == codec::none ? sink.size() : raw.size();
        header.checksum = sink.checksum();
        return header;
      });
}

/// Reads a T from a file written by save_file, decoding from a mapping of the file. Throws
/// bale::error naming the file: missing, truncated, damaged (checksum), another format or type.
template <class T, format Format = binary>
void load_file(const std::filesystem::path& path, T& value, const file_options& options = {}) {
  const detail::read_mapping file(path);
  const std::span<const std::byte> bytes = file.bytes();
  if (bytes.size() < detail::file_header_size)
    detail::file_error(errc::end_of_input, path,
                       "has " + std::to_string(bytes.size()) + " bytes, less than a bale header",
                       bytes.size());
  if (std::memcmp(bytes.data(), "BALE", 4) != 0)
    detail::file_error(errc::invalid_value, path, "is not a bale file");
  if (detail::crc32c(bytes.first(36)) != detail::get_u32(bytes.data() + 36))
    detail::file_error(errc::checksum_mismatch, path, "has a damaged header", 36);
  if (std::to_integer<std::uint8_t>(bytes[4]) != detail::file_version)
    detail::file_error(errc::invalid_value, path, "has an unknown version", 4);
  if (std::to_integer<std::uint8_t>(bytes[5]) != Format::id)
    detail::file_error(errc::wrong_type, path,
                       "holds another format than " + std::string(Format::name), 5);
  const auto compression = static_cast<codec>(bytes[6]);
  if (options.check_type && detail::get_u64(bytes.data() + 8) != detail::type_fingerprint<T>())
    detail::file_error(errc::wrong_type, path, "holds another C++ type", 8);
  const std::uint64_t payload_size = detail::get_u64(bytes.data() + 16);
  const std::uint64_t raw_size = detail::get_u64(bytes.data() + 24);
  const std::span<const std::byte> payload = bytes.subspan(detail::file_header_size);
  if (payload.size() < payload_size)
    detail::file_error(errc::end_of_input, path,
                       "is truncated: " + std::to_string(payload.size()) + " of " +
                           std::to_string(payload_size) + " payload bytes",
                       bytes.size());
  if (payload.size() > payload_size)
    detail::file_error(errc::trailing_bytes, path, "has bytes after its payload",
                       detail::file_header_size + static_cast<std::size_t>(payload_size));
  if (options.verify_checksum && detail::crc32c(payload) != detail::get_u32(bytes.data() + 32))
    detail::file_error(errc::checksum_mismatch, path,
                       "is damaged: the payload checksum does not match", detail::file_header_size);
  try {
    if (compression == codec::none) {
      deserialize<Format>(payload, value, options.limits);
    } else {
      const std::vector<std::byte> raw = decompress(payload, options.limits);
      if (raw.size() != raw_size)
        detail::file_error(errc::invalid_value, path, "raw size does not match", 24);
      deserialize<Format>(raw, value, options.limits);
    }
  } catch (const error& e) {
    // Same error, with the file named and the offset counted from the start of the file.
    error named(e.code(), "file '" + path.string() + "': " + e.detail(),
                e.offset() + detail::file_header_size);
    if (!e.path().empty()) named.prepend_field(e.path());
    throw named;
  }
}

template <class T, format Format = binary>
T load_file(const std::filesystem::path& path, const file_options& options = {}) {
  T value{};
  load_file<T, Format>(path, value, options);
  return value;
}

/// save_file that returns its error instead of throwing.
template <format Format = binary, class T>
result<void> try_save_file(const std::filesystem::path& path, const T& value,
                           const file_options& options = {}) noexcept {
  try {
    save_file<Format>(path, value, options);
    return {};
  } catch (const error& e) {
    return e;
  } catch (const std::exception& e) {
    return error(errc::io_error, "file '" + path.string() + "': " + e.what(), 0);
  }
}

/// load_file that returns its error instead of throwing (a type's own load() exceptions included,
/// as invalid_value).
template <class T, format Format = binary>
result<T> try_load_file(const std::filesystem::path& path,
                        const file_options& options = {}) noexcept {
  try {
    return load_file<T, Format>(path, options);
  } catch (const error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return error(errc::allocation_limit, "file '" + path.string() + "': out of memory", 0);
  } catch (const std::exception& e) {
    return error(errc::invalid_value, "file '" + path.string() + "': " + e.what(), 0);
  }
}

/// Flushes a file and drops it from the OS page cache, so the next read comes from the device
/// (for cold-read benchmarks). Returns false if the file cannot be opened.
inline bool evict_from_page_cache(const std::filesystem::path& path) noexcept {
  const detail::unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return false;
  ::fdatasync(fd.get());
  return ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED) == 0;
}

}  // namespace bale
