// SPDX-License-Identifier: BSL-1.0
#pragma once
// The AVX-512 VBMI base64 kernels, compiled for those instructions with a function attribute and
// called only when the CPU has them. Both alphabets go through the same code, as tables in
// registers. Encoding: one byte permute spreads 48 bytes so that each 32-bit lane holds one 3-byte
// group, one multishift pulls the four 6-bit fields of each lane into its four bytes, and one
// byte permute maps them to characters (it reads only the low six bits of each index). Decoding:
// one two-table permute maps 64 characters to their values, with the high bit set for any
// character outside the alphabet (and kept from characters above 127), two multiply-adds pack
// each four values into a 24-bit group, and one byte permute gathers the 48 bytes. Like the AVX2
// kernels, each stops before a block it cannot take; the portable code finishes the tail and
// reports errors.

#include <array>
#include <cstddef>
#include <cstdint>

#include "bale/base64/detail/avx2.hpp"  // BALE_BASE64_AVX2: x86-64 with GCC or Clang

namespace bale::detail {

#if defined(BALE_BASE64_AVX2)

// For each group of three bytes j, the bytes 3j+1, 3j, 3j+2, 3j+1 in one 32-bit lane: read from
// its least significant bit, the group's 6-bit fields start at bits 10, 4, 22 and 16.
inline constexpr auto base64_spread_indices = [] {
  std::array<std::uint8_t, 64> indices{};
  for (std::size_t j = 0; j < 16; ++j) {
    indices[4 * j] = static_cast<std::uint8_t>(3 * j + 1);
    indices[4 * j + 1] = static_cast<std::uint8_t>(3 * j);
    indices[4 * j + 2] = static_cast<std::uint8_t>(3 * j + 2);
    indices[4 * j + 3] = static_cast<std::uint8_t>(3 * j + 1);
  }
  return indices;
}();

/// Encodes whole 48-byte blocks while 64 bytes can be read; returns the bytes consumed (whole
/// groups of three). `chars` is the alphabet's 64 characters. With `around_caches`, an output on a
/// 64-byte boundary (the caller writes single groups to get there) is written with non-temporal
/// stores.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline std::size_t base64_encode_avx512(
    const std::uint8_t* in, std::size_t n, char* out, const char* chars,
    bool around_caches) noexcept {
  std::size_t i = 0;
  around_caches = around_caches && reinterpret_cast<std::uintptr_t>(out) % 64 == 0;
  const __m512i alphabet = _mm512_loadu_si512(chars);
  // The zero-masking forms, with every lane kept: GCC 12 warns that the plain forms' undefined
  // merge source "may be used uninitialized".
  constexpr __mmask64 all = ~__mmask64{0};
  const __m512i spread = _mm512_loadu_si512(base64_spread_indices.data());
  // Bit offsets 10, 4, 22, 16 in each 32-bit lane of a 64-bit word, then 32 more.
  const __m512i fields = _mm512_set1_epi64(0x3036242A1016040A);
  for (; i + 64 <= n; i += 48, out += 64) {
    const __m512i groups = _mm512_maskz_permutexvar_epi8(all, spread, _mm512_loadu_si512(in + i));
    const __m512i values = _mm512_maskz_multishift_epi64_epi8(all, fields, groups);
    const __m512i text = _mm512_maskz_permutexvar_epi8(all, values, alphabet);
    if (around_caches)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(out), text);
    else
      _mm512_storeu_si512(out, text);
  }
  if (around_caches) _mm_sfence();  // ordered before the portable tail and the caller's reads
  return i;
}

// Output byte j of a decoded block: byte 2 - j % 3 of the 24-bit group in lane j / 3.
constexpr std::uint8_t base64_group_byte(int j) noexcept {
  return static_cast<std::uint8_t>(4 * (j / 3) + 2 - j % 3);
}

// The 48 bytes of one decoded block, gathered from its groups.
inline constexpr auto base64_gather_indices = [] {
  std::array<std::uint8_t, 64> indices{};
  for (int j = 0; j < 48; ++j) indices[static_cast<std::size_t>(j)] = base64_group_byte(j);
  return indices;
}();

// Four decoded blocks are three 64-byte lines: line L holds the end of block L's 48 bytes and the
// start of block L + 1's, gathered from the two blocks' groups with one two-table permute.
inline constexpr auto base64_line_indices = [] {
  std::array<std::array<std::uint8_t, 64>, 3> indices{};
  for (int line = 0; line < 3; ++line)
    for (int j = 0; j < 64; ++j) {
      const int at = 64 * line + j;
      const int block = at / 48;
      indices[static_cast<std::size_t>(line)][static_cast<std::size_t>(j)] =
          static_cast<std::uint8_t>((block == line ? 0 : 64) + base64_group_byte(at % 48));
    }
  return indices;
}();

// The 24-bit groups of the 64 characters at `in` (each in a 32-bit lane, its first byte highest);
// false when one of them is outside the alphabet.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline bool base64_groups_avx512(
    const char* in, __m512i low_table, __m512i high_table, __m512i& groups) noexcept {
  const __m512i chars = _mm512_loadu_si512(in);
  const __m512i six_bits = _mm512_permutex2var_epi8(low_table, chars, high_table);
  if (_mm512_movepi8_mask(_mm512_or_si512(chars, six_bits)) != 0) return false;
  const __m512i pairs = _mm512_maddubs_epi16(six_bits, _mm512_set1_epi32(0x01400140));
  groups = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x00011000));
  return true;
}

/// Decodes whole 64-character blocks within n characters; stops at a block holding a character
/// outside the alphabet. `values` gives each character below 128 its value, or has its high bit
/// set. Returns the characters consumed (48 bytes written per 64). With `around_caches`, an
/// output on a 64-byte boundary (the caller decodes single groups to get there) takes four blocks
/// at a time, stored as three whole lines with non-temporal stores.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline std::size_t base64_decode_avx512(
    const char* in, std::size_t n, std::uint8_t* out, const std::int8_t* values,
    bool around_caches) noexcept {
  const __m512i low_table = _mm512_loadu_si512(values);
  const __m512i high_table = _mm512_loadu_si512(values + 64);
  constexpr __mmask64 all = ~__mmask64{0};  // as in the encoder
  std::size_t i = 0;
  if (around_caches && reinterpret_cast<std::uintptr_t>(out) % 64 == 0) {
    const __m512i line0 = _mm512_loadu_si512(base64_line_indices[0].data());
    const __m512i line1 = _mm512_loadu_si512(base64_line_indices[1].data());
    const __m512i line2 = _mm512_loadu_si512(base64_line_indices[2].data());
    __m512i g0, g1, g2, g3;
    for (; i + 256 <= n; i += 256, out += 192) {
      if (!base64_groups_avx512(in + i, low_table, high_table, g0) ||
          !base64_groups_avx512(in + i + 64, low_table, high_table, g1) ||
          !base64_groups_avx512(in + i + 128, low_table, high_table, g2) ||
          !base64_groups_avx512(in + i + 192, low_table, high_table, g3))
        break;  // the loop below decodes up to the bad block
      auto* to = reinterpret_cast<__m512i*>(out);
      _mm512_stream_si512(to, _mm512_permutex2var_epi8(g0, line0, g1));
      _mm512_stream_si512(to + 1, _mm512_permutex2var_epi8(g1, line1, g2));
      _mm512_stream_si512(to + 2, _mm512_permutex2var_epi8(g2, line2, g3));
    }
    _mm_sfence();  // ordered before the ordinary stores and the caller's reads
  }
  const __m512i gather = _mm512_loadu_si512(base64_gather_indices.data());
  __m512i groups;
  for (; i + 64 <= n; i += 64, out += 48) {
    if (!base64_groups_avx512(in + i, low_table, high_table, groups)) break;
    _mm512_mask_storeu_epi8(out, (std::uint64_t{1} << 48) - 1,
                            _mm512_maskz_permutexvar_epi8(all, gather, groups));
  }
  return i;
}

#endif

}  // namespace bale::detail
