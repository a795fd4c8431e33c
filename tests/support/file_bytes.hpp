// SPDX-License-Identifier: BSL-1.0
#pragma once
// A file's bytes, read and written whole, for tests that damage files on purpose.

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <vector>

#include <bale/checksum/crc32c.hpp>
#include <bale/core/little_endian.hpp>

namespace bale_test {

/// The bytes of `path`, as chars or std::bytes.
template <class Byte = char>
std::vector<Byte> read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> chars{std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>()};
  std::vector<Byte> bytes(chars.size());
  if (!chars.empty()) std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

/// Replaces the contents of `path` with `bytes`.
template <class Byte>
void write_all(const std::filesystem::path& path, const std::vector<Byte>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

/// Rewrites a .bale file's two checksums after a test changed its bytes, so that only the change
/// is seen.
inline void reseal(std::vector<std::byte>& bytes) {
  const std::span<const std::byte> stored(bytes.data() + 40, bytes.size() - 40);
  bale::detail::put_u32(bytes.data() + 32, bale::detail::crc32c(stored));
  bale::detail::put_u32(bytes.data() + 36,
                        bale::detail::crc32c(std::span<const std::byte>(bytes.data(), 36)));
}

}  // namespace bale_test
