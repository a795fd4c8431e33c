// SPDX-License-Identifier: BSL-1.0
#pragma once
// Files for the disk cases: a scratch directory, whole-file write, mmap for reading, and eviction
// from the page cache so that a read really comes from the disk.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bale/file/file.hpp>

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>

namespace bench {

/// Where the file cases write: $BALE_BENCH_DIR, or bale_bench/ in the temporary directory. The
/// suite empties it before and after a run, so no file of an earlier build is ever read.
inline std::filesystem::path scratch_dir() {
  const char* dir = std::getenv("BALE_BENCH_DIR");
  // One directory per process: two runs at once must not delete each other's files.
  return (dir ? std::filesystem::path(dir) : std::filesystem::temp_directory_path()) /
         ("bale_bench." + std::to_string(::getpid()));
}

inline std::filesystem::path scratch_file(const std::string& name) {
  std::filesystem::create_directories(scratch_dir());
  return scratch_dir() / name;
}

inline void write_whole_file(const std::filesystem::path& path, const void* data,
                             std::size_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + path.string());
  const char* at = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, at, size);
    if (n <= 0) {
      ::close(fd);
      throw std::runtime_error("write failed: " + path.string());
    }
    at += n;
    size -= static_cast<std::size_t>(n);
  }
  ::close(fd);
}

/// A read-only mapping of a whole file.
class mapped_file {
 public:
  explicit mapped_file(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw std::runtime_error("cannot open " + path.string());
    struct stat st {};
    ::fstat(fd, &st);
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ != 0) {
      // MAP_POPULATE reads the whole file in one go (with readahead) instead of one page fault at
      // a time: the fast way to map a file that will be read from end to end.
      data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (data_ == MAP_FAILED) {
        ::close(fd);
        throw std::runtime_error("cannot map " + path.string());
      }
    }
    ::close(fd);
  }
  ~mapped_file() {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  std::span<const char> bytes() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Flushes a file and drops it from the OS page cache, so the next read comes from the device.
/// Returns false if the file cannot be opened.
inline bool evict_from_page_cache(const std::filesystem::path& path) noexcept {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ::fdatasync(fd);
  const bool dropped = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return dropped;
}

}  // namespace bench
