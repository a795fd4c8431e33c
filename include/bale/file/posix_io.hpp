// SPDX-License-Identifier: BSL-1.0
#pragma once
// The POSIX side of bale's files, knowing nothing of what they hold: errors that name the file,
// reading a regular file without blocking on a FIFO, memory for its bytes, a checksumming output
// sink, and replacing a file atomically (a temporary file in the same directory, synced, renamed
// over the target, so a crash never leaves a half-written file in place of a good one).

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

#include "bale/checksum/crc32c.hpp"
#include "bale/core/error.hpp"
#include "bale/core/error_text.hpp"

namespace bale::detail {

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
      small_ = size != 0 ? std::unique_ptr<std::byte[]>(new std::byte[size]) : nullptr;
      data_ = small_.get();
      return;
    }
    mapped_ = (size + huge_page - 1) / huge_page * huge_page;
    void* at = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (at == MAP_FAILED) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    ::madvise(at, mapped_, MADV_HUGEPAGE);
#endif
    base_ = data_ = static_cast<std::byte*>(at);
  }
  /// The bytes of an open file from `from` on, mapped where they are: each page is read when it
  /// is first touched. Private and copy-on-write, so the file never changes through it.
  static byte_block map_file(int fd, const std::filesystem::path& path, std::size_t file_size,
                             std::size_t from) {
    byte_block block;
    if (file_size <= from) return block;
    void* at = ::mmap(nullptr, file_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (at == MAP_FAILED) io_failure(path, "cannot map");
    block.base_ = static_cast<std::byte*>(at);
    block.mapped_ = file_size;
    block.data_ = block.base_ + from;
    block.size_ = file_size - from;
    return block;
  }
  byte_block(byte_block&& other) noexcept
      : small_(std::move(other.small_)),
        base_(std::exchange(other.base_, nullptr)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        mapped_(std::exchange(other.mapped_, 0)) {}
  byte_block& operator=(byte_block&& other) noexcept {
    byte_block gone(std::move(*this));
    small_ = std::move(other.small_);
    base_ = std::exchange(other.base_, nullptr);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, 0);
    return *this;
  }
  ~byte_block() {
    if (mapped_ != 0) ::munmap(base_, mapped_);
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
  std::byte* base_ = nullptr;  // what is mapped: data_, or a file's first byte
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

// Syncs the directory that holds `target`, so that a rename into it survives a crash.
inline void sync_directory_of(const std::filesystem::path& target) {
  const std::filesystem::path dir =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  const unique_fd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() >= 0) ::fsync(dir_fd.get());
}

// Creates a temporary file next to the target, lets `write_payload(sink)` stream the payload after
// room for `head_size` bytes, lets `write_head(sink, head)` fill those bytes (knowing what the sink
// wrote), writes them first, syncs, and renames the file over the target. The temporary file is
// removed on any failure.
template <class WritePayload, class WriteHead>
void write_file_atomically(const std::filesystem::path& path, bool sync, std::size_t head_size,
                           WritePayload&& write_payload, WriteHead&& write_head) {
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
  if (::lseek(fd.get(), static_cast<off_t>(head_size), SEEK_SET) < 0)
    io_failure(path, "cannot seek");
  file_sink sink(fd.get(), path);
  write_payload(sink);
  sink.flush();
  std::vector<std::byte> head(head_size);
  write_head(sink, head.data());
  if (::pwrite(fd.get(), head.data(), head_size, 0) != static_cast<ssize_t>(head_size))
    io_failure(path, "cannot write the header");
  if (sync && ::fdatasync(fd.get()) != 0) io_failure(path, "cannot sync");
  if (::close(fd.release()) != 0) io_failure(path, "cannot close");
  if (::rename(temp.c_str(), target.c_str()) != 0)
    io_failure(path, "cannot rename the temporary file");
  guard.done = true;
  if (sync) sync_directory_of(target);
}

}  // namespace bale::detail
