// SPDX-License-Identifier: BSL-1.0
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

// Three crc32 chains at once hide the instruction's latency (one result every cycle instead of
// every three). The chains' registers are joined by shifting: CRC32C is linear, so running a
// register over `crc32c_block` zero bytes is a fixed 32x32 bit matrix, applied with four tables.
inline constexpr std::size_t crc32c_block = 8192;

class crc32c_shifter {
 public:
  crc32c_shifter() noexcept {
    static constexpr std::byte zeros[crc32c_block]{};
    std::uint32_t basis[32];
    for (unsigned bit = 0; bit < 32; ++bit)
      basis[bit] = crc32c_portable(std::uint32_t{1} << bit, std::span(zeros));
    for (unsigned part = 0; part < 4; ++part)
      for (unsigned byte = 0; byte < 256; ++byte) {
        std::uint32_t shifted = 0;
        for (unsigned bit = 0; bit < 8; ++bit)
          if (byte >> bit & 1U) shifted ^= basis[8 * part + bit];
        table_[part][byte] = shifted;
      }
  }
  /// The register after crc32c_block more zero bytes.
  std::uint32_t operator()(std::uint32_t crc) const noexcept {
    return table_[0][crc & 0xFFU] ^ table_[1][crc >> 8 & 0xFFU] ^ table_[2][crc >> 16 & 0xFFU] ^
           table_[3][crc >> 24];
  }

 private:
  std::uint32_t table_[4][256];
};

#if defined(BALE_CRC32C_HARDWARE)
__attribute__((target("sse4.2"))) inline std::uint32_t crc32c_sse42(
    std::uint32_t crc, std::span<const std::byte> bytes) noexcept {
  const std::byte* p = bytes.data();
  std::size_t n = bytes.size();
  std::uint64_t c = crc;
  auto word_at = [](const std::byte* at) {
    std::uint64_t word;
    std::memcpy(&word, at, 8);
    return word;
  };
  if (n >= 3 * crc32c_block) {
    static const crc32c_shifter shift;
    for (; n >= 3 * crc32c_block; n -= 3 * crc32c_block, p += 3 * crc32c_block) {
      std::uint64_t a = c, b = 0, d = 0;
      for (std::size_t k = 0; k < crc32c_block; k += 8) {
        a = _mm_crc32_u64(a, word_at(p + k));
        b = _mm_crc32_u64(b, word_at(p + crc32c_block + k));
        d = _mm_crc32_u64(d, word_at(p + 2 * crc32c_block + k));
      }
      const std::uint32_t ab = shift(static_cast<std::uint32_t>(a)) ^ static_cast<std::uint32_t>(b);
      c = shift(ab) ^ static_cast<std::uint32_t>(d);
    }
  }
  for (; n >= 8; n -= 8, p += 8) c = _mm_crc32_u64(c, word_at(p));
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

/// CRC32C of A followed by B from CRC32C(A), CRC32C(B) and B's length, without B's bytes (parts
/// checksummed where they were made, by different processes). The register is linear in its
/// start: CRC32C(A), run as a register over as many zero bytes as B has, joins CRC32C(B) by
/// exclusive or.
inline std::uint32_t crc32c_combine(std::uint32_t crc_a, std::uint32_t crc_b,
                                    std::uint64_t length_b) noexcept {
  static constexpr std::byte zeros[crc32c_block]{};
  std::uint32_t shifted = crc_a;
  for (std::uint64_t left = length_b; left > 0;) {
    const std::size_t n = left < crc32c_block ? left : crc32c_block;
    shifted = ~crc32c_extend(~shifted, std::span(zeros, n));  // the bare register's run
    left -= n;
  }
  return shifted ^ crc_b;
}

}  // namespace bale::detail
