// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::save_file and bale::load_file: a value in a file, with a header that says what is inside
// and a checksum of the payload. Loading reads and checks the header, then reads the payload into
// memory in one read and decodes from there: what another process does to the file meanwhile can
// only make the load fail with an error (a mapping would die of SIGBUS if the file shrank).
// Saving writes a temporary file in the same directory, syncs it and renames it over the target,
// so a crash never leaves a half-written file in place of a good one. POSIX only.
//
//   bale::save_file("cells.bale", cells);                       // binary, uncompressed
//   bale::save_file<bale::compact>("cells.bale", cells, {.compression = bale::codec::zstd});
//   auto back = bale::load_file<std::vector<cell>>("cells.bale");
//
// The 40-byte header, all integers little-endian:
//   0  "BALE"      magic                      16 u64  stored size (bytes after the header)
//   4  u8 version  (2)                        24 u64  raw size (payload size once decompressed)
//   5  u8 format   (1 binary, 2 compact)      32 u32  CRC32C of the stored bytes
//   6  u8 codec    (0 none, 1 lz4, 2 zstd)    36 u32  CRC32C of header bytes 0..35
//   7  u8 zero
//   8  u64 schema fingerprint (FNV-1a 64 of the schema text: bale::schema_of<T>().fingerprint())
// then the stored bytes: u32 n, the n bytes of the schema text, zeros to a multiple of 16
// (file/schema_block.hpp), the payload (compressed by the codec, if any). Version 1 files (no
// schema block; a fingerprint of the compiler's spelling of the type, checked only if the
// reader's compiler spells it the same way) are still read.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bale/binary/format.hpp"
#include "bale/compact/format.hpp"
#include "bale/compress/compress.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/little_endian.hpp"
#include "bale/core/serialize.hpp"
#include "bale/core/type_fingerprint.hpp"
#include "bale/core/write_context.hpp"
#include "bale/file/checksum.hpp"
#include "bale/file/schema_block.hpp"
#include "bale/fwd.hpp"
#include "bale/schema/resolve.hpp"

namespace bale {

/// How save_file and load_file work.
struct file_options {
  /// Compress the payload (save_file); load_file reads whatever the header says.
  codec compression = codec::none;
  /// The codec's level (0: its default).
  int level = 0;
  /// fsync the file and its directory before save_file returns.
  bool sync = true;
  /// Refuse a file whose schema differs from the type's (bale::schema_of): another type, or
  /// the same type with another layout. Off, the payload is decoded as the type regardless.
  bool check_type = true;
  /// Check the payload's CRC32C before decoding (load_file). Turning it off saves one pass over
  /// the payload (about 0.1 ms per MB here); decoding stays bounds-checked, so a damaged file
  /// still cannot crash the reader, but damage inside values goes unnoticed.
  bool verify_checksum = true;
  /// Decoding limits for load_file; max_depth also limits writing (save_file).
  bale::limits limits{};
};

/// load_file's and record_reader's default format: the one the file's header names (binary or
/// compact). Naming a format instead makes the header's a check; MessagePack and JSON files are
/// read with their format named.
struct stored_format {};

template <class F>
concept file_format = format<F> || std::same_as<F, stored_format>;

namespace detail {

inline constexpr std::size_t file_header_size = 40;
inline constexpr std::uint8_t file_version = wire_versions::file;
inline constexpr std::uint8_t first_file_version = 1;  // no schema block

struct file_header {
  std::uint8_t format = 0;
  codec compression = codec::none;
  std::uint64_t fingerprint = 0;
  std::uint64_t stored_size = 0;  // the schema block and the payload
  std::uint64_t raw_size = 0;
  std::uint32_t checksum = 0;
};

inline void write_header(std::byte* out, const file_header& h) {
  std::memset(out, 0, file_header_size);
  std::memcpy(out, "BALE", 4);
  out[4] = static_cast<std::byte>(file_version);
  out[5] = static_cast<std::byte>(h.format);
  out[6] = static_cast<std::byte>(h.compression);
  put_u64(out + 8, h.fingerprint);
  put_u64(out + 16, h.stored_size);
  put_u64(out + 24, h.raw_size);
  put_u32(out + 32, h.checksum);
  put_u32(out + 36, crc32c(std::span<const std::byte>(out, 36)));
}

[[noreturn]] inline void file_error(errc code, const std::filesystem::path& path,
                                    const std::string& what,
                                    std::size_t offset = error::no_offset) {
  throw error(code, "file '" + path.string() + "': " + what, offset);
}
[[noreturn]] inline void io_failure(const std::filesystem::path& path, const char* action) {
  file_error(errc::io_error, path, detail::error_text({action, ": ", std::strerror(errno)}));
}

/// A file descriptor that closes itself.
class unique_fd {
 public:
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  unique_fd(unique_fd&& other) noexcept : fd_(other.release()) {}
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

/// Opens a file for reading without blocking on a FIFO or device, and refuses anything but a
/// regular file before a byte is read.
inline unique_fd open_regular_file(const std::filesystem::path& path, std::size_t& size) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) io_failure(path, "cannot open");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) io_failure(path, "cannot stat");
  if (!S_ISREG(st.st_mode)) file_error(errc::io_error, path, "is not a regular file");
  size = static_cast<std::size_t>(st.st_size);
  return fd;
}

/// Reads n bytes at `offset`; fewer means the file ended (or shrank) first.
inline std::size_t read_at(int fd, const std::filesystem::path& path, std::byte* out, std::size_t n,
                           std::size_t offset) {
  std::size_t total = 0;
  while (total < n) {
    const ssize_t got = ::pread(fd, out + total, n - total, static_cast<off_t>(offset + total));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) io_failure(path, "cannot read");
    if (got == 0) break;
    total += static_cast<std::size_t>(got);
  }
  return total;
}

/// Memory for a file's bytes, aligned for any scalar. A large block is mapped anonymously and asks
/// for transparent huge pages: the kernel then fills it a 2 MiB page at a time, where faulting in
/// 4 KiB pages one by one costs as much as the read itself.
class byte_block {
 public:
  byte_block() = default;
  explicit byte_block(std::size_t size) : size_(size) {
    if (size < huge_page) {
      small_ = size != 0 ? std::make_unique_for_overwrite<std::byte[]>(size) : nullptr;
      data_ = small_.get();
      return;
    }
    mapped_ = (size + huge_page - 1) / huge_page * huge_page;
    void* at = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (at == MAP_FAILED) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    ::madvise(at, mapped_, MADV_HUGEPAGE);
#endif
    data_ = static_cast<std::byte*>(at);
  }
  byte_block(byte_block&& other) noexcept
      : small_(std::move(other.small_)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        mapped_(std::exchange(other.mapped_, 0)) {}
  byte_block& operator=(byte_block&&) = delete;
  ~byte_block() {
    if (mapped_ != 0) ::munmap(data_, mapped_);
  }
  std::byte* data() noexcept {
    return data_;
  }
  std::span<const std::byte> bytes() const noexcept {
    return {data_, size_};
  }

 private:
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  std::unique_ptr<std::byte[]> small_;
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t mapped_ = 0;
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
  void put_block(const void* data, std::size_t n) { put(data, n); }
  /// Room for n bytes (n <= 16) written in place into the buffer.
  std::byte* reserve(std::size_t n) {
    if (used_ + n > buffer_.size()) flush();
    std::byte* at = buffer_.data() + used_;
    used_ += n;
    return at;
  }
  /// Room for up to n bytes in the buffer, of which the caller keeps advance(k); null if n is
  /// more than the buffer holds.
  std::byte* ensure(std::size_t n) {
    if (n > buffer_.size()) return nullptr;
    if (used_ + n > buffer_.size()) flush();
    return buffer_.data() + used_;
  }
  void advance(std::size_t n) noexcept { used_ += n; }
  /// The most one ensure() lends: the whole buffer, after a flush.
  std::size_t room() const noexcept { return buffer_.size(); }
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

// The file save_file replaces: `path`, or the file a symbolic link at `path` leads to (the link is
// kept, as editors keep it).
inline std::filesystem::path save_target(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_symlink(path, ec)) return path;
  const std::filesystem::path target = std::filesystem::weakly_canonical(path, ec);
  if (ec) file_error(errc::io_error, path, "is a symbolic link that cannot be followed");
  return target;
}

// A new file next to `target` with a name no other file has, and the mode the target has (or, for
// a new file, what the umask leaves of 0666). Its name stays within NAME_MAX however long the
// target's is.
inline unique_fd create_temporary(const std::filesystem::path& target, std::string& name) {
  const std::filesystem::path dir =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  struct stat existing {};
  const bool replaces = ::stat(target.c_str(), &existing) == 0;
  constexpr std::size_t kept = 200;  // NAME_MAX is 255 on every POSIX file system bale knows
  const std::string base = target.filename().string().substr(0, kept);
  static std::atomic<std::uint64_t> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::uint64_t tag = (static_cast<std::uint64_t>(::getpid()) << 32) ^
                              static_cast<std::uint64_t>(::time(nullptr)) ^ ++counter;
    name = (dir / ("." + base + ".tmp-" + std::to_string(tag))).string();
    unique_fd fd(::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
    if (fd.get() < 0 && errno == EEXIST) continue;
    if (fd.get() < 0) io_failure(target, "cannot create a temporary file in its directory");
    if (replaces) {
      if (::fchmod(fd.get(), existing.st_mode & 07777) != 0) {
        ::unlink(name.c_str());
        io_failure(target, "cannot keep its permissions");
      }
      // Keeping the owner works for root or an unchanged owner; otherwise the file is the saver's.
      [[maybe_unused]] const int ignored = ::fchown(fd.get(), existing.st_uid, existing.st_gid);
    }
    return fd;
  }
  file_error(errc::io_error, target, "cannot find a free temporary name in its directory");
}

// Creates a temporary file next to the target, lets `write_payload(sink)` stream the payload after
// room for the header, writes the header returned by `make_header(sink)`, syncs, and renames the
// file over the target. The temporary file is removed on any failure.
template <class WritePayload, class MakeHeader>
void write_file_atomically(const std::filesystem::path& path, bool sync,
                           WritePayload&& write_payload, MakeHeader&& make_header) {
  const std::filesystem::path target = save_target(path);
  std::string temp;
  unique_fd fd = create_temporary(target, temp);
  struct remove_on_failure {
    const std::string& name;
    bool done = false;
    ~remove_on_failure() {
      if (!done) ::unlink(name.c_str());
    }
  } guard{temp};
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
  if (::rename(temp.c_str(), target.c_str()) != 0)
    io_failure(path, "cannot rename the temporary file");
  guard.done = true;
  if (sync) {
    const std::filesystem::path dir =
        target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    const unique_fd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir_fd.get() >= 0) ::fsync(dir_fd.get());
  }
}

// The name of a format id found in a header, for messages.
inline std::string format_name_of(std::uint8_t id) {
  switch (id) {
    case 1:
      return "binary";
    case 2:
      return "compact";
    case 3:
      return "json";
    case 4:
      return "msgpack";
  }
  return detail::error_text({"an unknown format (", id, ")"});
}

/// Accepts a file of any format bale writes (bale::inspect_file).
struct any_format {};

// Refuses a header's format that Format cannot read: another format than the one named, or, by
// default, one that is neither binary nor compact.
template <class Format>
void check_file_format(const std::filesystem::path& path, std::uint8_t id, std::size_t at) {
  if constexpr (std::same_as<Format, any_format>) {
    if (id < 1 || id > 4)  // binary, compact, json, msgpack
      file_error(errc::invalid_value, path, "holds " + format_name_of(id), at);
  } else if constexpr (std::same_as<Format, stored_format>) {
    if (id != binary::id && id != compact::id)
      file_error(errc::wrong_type, path,
                 "holds " + format_name_of(id) +
                     ": name its format, as in load_file<T, bale::" + format_name_of(id) + ">",
                 at);
  } else if (id != Format::id) {
    file_error(errc::wrong_type, path,
               detail::error_text({"holds ", format_name_of(id), ", not ", Format::name}), at);
  }
}

// Decodes bytes in the format the header named (checked by check_file_format), written with the
// type's schema or, given a plan, with the plan's writer schema.
template <file_format Format, class T>
void deserialize_stored(std::uint8_t id, read_context& context, std::span<const std::byte> bytes,
                        T& value, const resolution* plan = nullptr) {
  const auto read = [&]<class F>(F) { deserialize_planned<F>(context, bytes, plan, value); };
  if constexpr (std::same_as<Format, stored_format>) {
    if (id == compact::id)
      read(compact{});
    else
      read(binary{});
  } else {
    read(Format{});
  }
}

/// A bale file read and checked: the payload as stored, and decompressed if it was compressed.
struct file_contents {
  byte_block stored;
  std::vector<std::byte> raw;
  codec compression = codec::none;
  std::uint8_t format_id = 0;
  std::uint8_t version = 0;
  std::uint64_t fingerprint = 0;
  std::size_t payload_offset = 0;          // in the stored bytes: after the schema block
  std::shared_ptr<const resolution> plan;  // when the file's schema differs from the type's
  bool compressed() const noexcept { return compression != codec::none; }
  std::span<const std::byte> payload() const noexcept {
    return stored.bytes().subspan(payload_offset);
  }
  std::span<const std::byte> value_bytes() const noexcept {
    return compressed() ? std::span<const std::byte>(raw) : payload();
  }
  /// The writer's schema text (empty in a version 1 file).
  std::string_view schema() const noexcept {
    return payload_offset == 0 ? std::string_view() : parse_schema_block(stored.bytes()).text;
  }
};

struct owned_access;

}  // namespace detail

/// A value read from a file together with the bytes it was read from, so that the views it holds
/// (std::string_view, std::span) stay valid for as long as this object lives. Movable.
template <class T>
class owned {
 public:
  const T& operator*() const noexcept { return value_; }
  const T* operator->() const noexcept { return &value_; }
  const T& value() const noexcept { return value_; }

 private:
  friend struct detail::owned_access;
  owned() = default;
  std::unique_ptr<detail::file_contents> contents_;
  T value_{};
};

namespace detail {

struct owned_access {
  template <class T>
  static owned<T> make() {
    return owned<T>();
  }
  template <class T>
  static auto& contents(owned<T>& o) noexcept {
    return o.contents_;
  }
  template <class T>
  static T& value(owned<T>& o) noexcept {
    return o.value_;
  }
};

}  // namespace detail

BALE_CODECS_BEGIN

/// Writes value to `path` (atomically: a temporary file, then rename). Uncompressed values stream
/// to the file in one pass; compressed ones are encoded, compressed, then written. A file that is
/// replaced keeps its permissions (and owner, where allowed); a symbolic link at `path` is kept and
/// the file it leads to is replaced.
template <format Format = binary, class T>
void save_file(const std::filesystem::path& path, const T& value,
               const file_options& options = {}) {
  detail::file_header header;
  header.format = Format::id;
  header.compression = options.compression;
  const type_schema& schema = schema_of<T>();
  header.fingerprint = schema.fingerprint();
  std::vector<std::byte> raw;
  if (options.compression != codec::none) raw = serialize<Format>(value, options.limits);
  detail::write_file_atomically(
      path, options.sync,
      [&](detail::file_sink& sink) {
        detail::write_schema_block(sink, schema.text());
        if (options.compression == codec::none) {
          detail::write_context context(options.limits);
          using file_writer = typename Format::template writer<detail::file_sink>;
          // A self-describing format that counts before writing (MessagePack) learns the counts
          // of a pointer graph's bodies in a sizing pass.
          if constexpr (file_writer::self_describing && detail::sizes_first<Format>)
            (void)detail::serialized_size_in<Format>(context, value);
          file_writer ar(sink, context);
          ar(value);
          detail::end_message(ar);
        } else {
          const std::vector<std::byte> packed =
              detail::compress_frame(raw, options.compression, options.level, false);
          sink.put(packed.data(), packed.size());
        }
      },
      [&](const detail::file_sink& sink) {
        const std::size_t block = detail::schema_block_size(schema.text().size());
        header.stored_size = sink.size();
        header.raw_size = options.compression == codec::none ? sink.size() - block : raw.size();
        header.checksum = sink.checksum();
        return header;
      });
}

BALE_CODECS_END

namespace detail {
BALE_CODECS_BEGIN

// Checks the schema block at the start of the stored bytes and returns where the payload starts.
// Unless the checksum covered them, its text is checked against the header's fingerprint.
inline std::size_t check_schema_block(const std::filesystem::path& path,
                                      std::span<const std::byte> stored, std::uint64_t fingerprint,
                                      bool checksummed) {
  const schema_block block = parse_schema_block(stored);
  if (!block.ok)
    file_error(errc::length_too_large, path,
               "has a schema block longer than the file, or not padded with zeros",
               file_header_size);
  if (!checksummed && fnv1a64(block.text) != fingerprint)
    file_error(errc::checksum_mismatch, path,
               "is damaged: its schema does not match the header's fingerprint",
               file_header_size + schema_block_prefix);
  return block.size;
}

// A file of another schema than the type's: its schema is read first and resolved against the
// type's (bale/schema/resolution.hpp). One that does not resolve is refused before the payload
// is read, with where the schemas differ.
/// The plan for reading a file whose schema (text, at byte `at`) differs from the type's, or an
/// error naming the file and the member where they do not resolve. Formats that write a
/// variant's position cannot follow alternatives that moved.
inline resolution file_resolution(const std::filesystem::path& path, std::uint8_t format_id,
                                  std::string_view text, std::string_view wanted, std::size_t at) {
  try {
    resolution plan(parse_schema(text), parse_schema(wanted));
    require_followable(plan, format_id != binary::id && format_id != compact::id,
                       format_name_of(format_id));
    return plan;
  } catch (const error& e) {
    error refused(e.code(), "file '" + path.string() + "': holds another type: " + e.detail(),
                  e.offset() == error::no_offset ? at : at + e.offset());
    if (!e.path().empty()) refused.prepend_field(e.path());
    throw refused;
  }
}

inline std::shared_ptr<const resolution> resolve_file_schema(
    int fd, const std::filesystem::path& path, std::size_t stored, std::uint64_t fingerprint,
    std::uint8_t format_id, const type_schema& wanted) {
  constexpr std::size_t at = file_header_size + schema_block_prefix;
  std::byte prefix[schema_block_prefix];
  if (stored < schema_block_prefix ||
      read_at(fd, path, prefix, schema_block_prefix, file_header_size) != schema_block_prefix ||
      get_u32(prefix) > stored - schema_block_prefix)
    file_error(errc::length_too_large, path, "has a schema block longer than the file",
               file_header_size);
  std::string text(get_u32(prefix), '\0');
  if (read_at(fd, path, reinterpret_cast<std::byte*>(text.data()), text.size(), at) != text.size())
    file_error(errc::end_of_input, path, "shrank while it was being read", at);
  if (fnv1a64(text) != fingerprint)
    file_error(errc::checksum_mismatch, path,
               "is damaged: its schema does not match the header's fingerprint", at);
  return std::make_shared<const resolution>(
      file_resolution(path, format_id, text, wanted.text(), at));
}

/// The type a reader expects a file to hold; none when the file is only inspected.
struct expected_type {
  const type_schema* schema = nullptr;
  std::uint64_t first_version_fingerprint = 0;  // type_fingerprint, for version 1 files
};

// The header is read and checked before anything else, against the file's real size: a file that
// is not a bale file, or claims more than it holds, or holds another type, costs 40 bytes of
// reading (and the start of its schema, to say how it differs).
template <class Format>
file_contents read_file_as(const std::filesystem::path& path, const file_options& options,
                           const expected_type& expected) {
  std::size_t file_size = 0;
  const unique_fd fd = open_regular_file(path, file_size);
  std::byte header[file_header_size];
  const std::size_t got = read_at(fd.get(), path, header, file_header_size, 0);
  if (got >= 4 && std::memcmp(header, "BALE", 4) != 0)
    file_error(errc::invalid_value, path, "is not a bale file");
  if (got < file_header_size)
    file_error(errc::end_of_input, path,
               detail::error_text({"has ", got, " bytes, less than a bale header"}), got);
  if (crc32c(std::span<const std::byte>(header, 36)) != get_u32(header + 36))
    file_error(errc::checksum_mismatch, path, "has a damaged header", 36);
  const auto version = std::to_integer<std::uint8_t>(header[4]);
  if (version != file_version && version != first_file_version)
    file_error(errc::invalid_value, path, detail::error_text({"has an unknown version ", version}),
               4);
  const auto format_id = std::to_integer<std::uint8_t>(header[5]);
  check_file_format<Format>(path, format_id, 5);
  const bool has_schema = version != first_file_version;
  const std::uint64_t fingerprint = get_u64(header + 8);
  const bool check_type = options.check_type && expected.schema != nullptr;
  if (check_type && !has_schema && fingerprint != expected.first_version_fingerprint)
    file_error(errc::wrong_type, path,
               "holds another C++ type, or was written by another compiler (a version 1 file: "
               "set file_options::check_type = false to read it)",
               8);
  const std::uint64_t stored_size = get_u64(header + 16);
  const std::size_t stored = file_size - file_header_size;
  if (stored < stored_size)
    file_error(errc::end_of_input, path,
               detail::error_text(
                   {"is truncated: ", stored, " of ", stored_size, " bytes after the header"}),
               file_size);
  if (stored > stored_size)
    file_error(errc::trailing_bytes, path, "has bytes after its payload",
               file_header_size + static_cast<std::size_t>(stored_size));
  std::shared_ptr<const resolution> plan;
  if (has_schema && check_type && fingerprint != expected.schema->fingerprint())
    plan = resolve_file_schema(fd.get(), path, stored, fingerprint, format_id, *expected.schema);
  file_contents contents{
      byte_block(stored), {}, static_cast<codec>(header[6]), format_id, version, fingerprint, 0,
      std::move(plan)};
  if (read_at(fd.get(), path, contents.stored.data(), stored, file_header_size) != stored)
    file_error(errc::end_of_input, path, "shrank while it was being read", file_size);
  if (options.verify_checksum && crc32c(contents.stored.bytes()) != get_u32(header + 32))
    file_error(errc::checksum_mismatch, path, "is damaged: the payload checksum does not match",
               file_header_size);
  if (has_schema)
    contents.payload_offset =
        check_schema_block(path, contents.stored.bytes(), fingerprint, options.verify_checksum);
  if (contents.compressed()) {
    try {
      contents.raw = decompress(contents.payload(), options.limits);
    } catch (const error& e) {
      file_error(e.code(), path, e.detail(),
                 e.offset_in_whole(file_header_size + contents.payload_offset));
    }
    if (contents.raw.size() != get_u64(header + 24))
      file_error(errc::invalid_value, path, "raw size does not match", 24);
  }
  return contents;
}

template <class T, class Format>
file_contents read_file(const std::filesystem::path& path, const file_options& options) {
  return read_file_as<Format>(path, options, {&schema_of<T>(), type_fingerprint<T>()});
}

// Runs f(), which decodes the payload; an error names the file and counts its offset from the
// start of the file (of the decompressed payload, for a compressed file).
template <class F>
void within_file(const std::filesystem::path& path, const file_contents& contents, F&& f) {
  try {
    f();
  } catch (const error& e) {
    const std::size_t base = contents.compressed() ? 0 : file_header_size + contents.payload_offset;
    error named(e.code(),
                "file '" + path.string() + "': " + e.detail() +
                    (contents.compressed() ? " (offset in the decompressed payload)" : ""),
                e.offset_in_whole(base));
    if (!e.path().empty()) named.prepend_field(e.path());
    throw named;
  }
}

template <class Format, class T>
void decode_file(const std::filesystem::path& path, const file_contents& contents, T& value,
                 const file_options& options, bool views) {
  within_file(path, contents, [&] {
    read_context context(options.limits);
    if (!views) context.forbid_views();
    deserialize_stored<Format>(contents.format_id, context, contents.value_bytes(), value,
                               contents.plan.get());
  });
}

BALE_CODECS_END
}  // namespace detail

BALE_CODECS_BEGIN

/// Reads a T from a file written by save_file, in the format its header names (binary or compact;
/// a format named here must match it). Throws bale::error naming the file: missing, not a regular
/// file, truncated, damaged (checksum), another format or type, changed while read. A T holding
/// views (string_view, span) is refused here: use load_file_owned.
template <class T, file_format Format = stored_format>
void load_file(const std::filesystem::path& path, T& value, const file_options& options = {}) {
  const detail::file_contents contents = detail::read_file<T, Format>(path, options);
  detail::decode_file<Format>(path, contents, value, options, false);
}

/// load_file for a T that holds views into the file's bytes (zero-copy strings and arrays): the
/// bytes are kept beside the value.  auto doc = bale::load_file_owned<index>(path); doc->name ...
template <class T, file_format Format = stored_format>
owned<T> load_file_owned(const std::filesystem::path& path, const file_options& options = {}) {
  using access = detail::owned_access;
  owned<T> result = access::make<T>();
  auto& contents = access::contents(result);
  contents = std::make_unique<detail::file_contents>(detail::read_file<T, Format>(path, options));
  detail::decode_file<Format>(path, *contents, access::value(result), options, true);
  return result;
}

template <class T, file_format Format = stored_format>
T load_file(const std::filesystem::path& path, const file_options& options = {}) {
  T value{};
  load_file<T, Format>(path, value, options);
  return value;
}

// load_file<bale::compact, T>(path) names the format first (see deserialize).
template <format Format, class T, class... Arguments>
requires(!format<T>) auto load_file(const Arguments&...) {
  static_assert(detail::type_goes_first<T>,
                "bale::load_file<T, Format>(path): the type first, then the format");
}
template <format Format, class T, class... Arguments>
requires(!format<T>) auto try_load_file(const Arguments&...) {
  static_assert(detail::type_goes_first<T>,
                "bale::try_load_file<T, Format>(path): the type first, then the format");
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
    return error(errc::io_error, "file '" + path.string() + "': " + e.what());
  }
}

/// load_file that returns its error instead of throwing (a type's own load() exceptions included,
/// as invalid_value).
template <class T, file_format Format = stored_format>
result<T> try_load_file(const std::filesystem::path& path,
                        const file_options& options = {}) noexcept {
  try {
    return load_file<T, Format>(path, options);
  } catch (const error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return error(errc::allocation_limit, "file '" + path.string() + "': out of memory");
  } catch (const std::exception& e) {
    return error(errc::invalid_value, "file '" + path.string() + "': " + e.what());
  }
}

BALE_CODECS_END

/// Flushes a file and drops it from the OS page cache, so the next read comes from the device
/// (for cold-read benchmarks). Returns false if the file cannot be opened.
inline bool evict_from_page_cache(const std::filesystem::path& path) noexcept {
  const detail::unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return false;
  ::fdatasync(fd.get());
  return ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED) == 0;
}

}  // namespace bale
