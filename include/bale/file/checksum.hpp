#pragma once
// CRC32C (Castagnoli), the checksum of bale files: the SSE4.2 crc32 instruction where the CPU has
// it (chosen at run time), a table otherwise. Both give the same value.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define BALE_CRC32C_HARDWARE 1
#endif

namespace bale::detail {

inline constexpr std::array<std::uint32_t, 256> crc32c_table = [] {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t crc = i;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0x82F63B78U & (0U - (crc & 1U)));
    table[i] = crc;
  }
  return table;
}();

inline std::uint32_t crc32c_portable(std::uint32_t crc, std::span<const std::byte> bytes) noexcept {
  for (const std::byte b : bytes)
    crc = (crc >> 8) ^ crc32c_table[(crc ^ std::to_integer<std::uint32_t>(b)) & 0xFFU];
  return crc;
}

#if defined(BALE_CRC32C_HARDWARE)
__attribute__((target("sse4.2"))) inline std::uint32_t crc32c_sse42(
    std::uint32_t crc, std::span<const std::byte> bytes) noexcept {
  const std::byte* p = bytes.data();
  std::size_t n = bytes.size();
  std::uint64_t c = crc;
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    c = _mm_crc32_u64(c, word);
  }
  auto c32 = static_cast<std::uint32_t>(c);
  for (; n > 0; --n, ++p) c32 = _mm_crc32_u8(c32, std::to_integer<std::uint8_t>(*p));
  return c32;
}
#endif

/// CRC32C of A followed by `bytes`, given `crc` = CRC32C of A (0 for nothing): checksums a stream
/// piece by piece.
inline std::uint32_t crc32c_extend(std::uint32_t crc, std::span<const std::byte> bytes) noexcept {
  crc = ~crc;
#if defined(BALE_CRC32C_HARDWARE)
  static const bool hardware = __builtin_cpu_supports("sse4.2");
  crc = hardware ? crc32c_sse42(crc, bytes) : crc32c_portable(crc, bytes);
#else
  crc = crc32c_portable(crc, bytes);
#endif
  return ~crc;
}

/// CRC32C of `bytes`.
inline std::uint32_t crc32c(std::span<const std::byte> bytes) noexcept {
  return crc32c_extend(0, bytes);
}

}  // namespace bale::detail
