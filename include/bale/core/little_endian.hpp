// SPDX-License-Identifier: BSL-1.0
#pragma once
// Fixed-width little-endian integers in headers (files, compressed frames, record prefixes, MPI
// messages): byte by byte, so any host byte order and any alignment read them the same.

#include <cstddef>
#include <cstdint>

namespace bale::detail {

inline void put_u32(std::byte* out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}
inline std::uint32_t get_u32(const std::byte* in) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<std::uint32_t>(in[i]) << (8 * i);
  return value;
}
inline void put_u64(std::byte* out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}
inline std::uint64_t get_u64(const std::byte* in) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= static_cast<std::uint64_t>(in[i]) << (8 * i);
  return value;
}

}  // namespace bale::detail
