// SPDX-License-Identifier: BSL-1.0
#pragma once
// The AVX2 base64 kernels, compiled for AVX2 with a function attribute and called only when the
// CPU has it. Encoding spreads 24 bytes to 32 six-bit values with two multiplies and maps them to
// characters with one table shuffle; decoding classifies 32 characters by their nibbles (which
// finds any character outside the alphabet), maps them to six-bit values, and packs them with two
// multiply-adds. Each kernel stops before a block it cannot take, so the portable code finishes
// the tail and reports errors.

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define BALE_BASE64_AVX2 1
#endif

namespace bale::detail {

#if defined(BALE_BASE64_AVX2)

/// Encodes whole 24-byte blocks while 28 bytes can be read; returns the bytes consumed. With
/// `around_caches`, a 16-byte aligned output (as large allocations are) is written with
/// non-temporal stores.
__attribute__((target("avx2"))) inline std::size_t base64_encode_avx2(const std::uint8_t* in,
                                                                      std::size_t n, char* out,
                                                                      bool url,
                                                                      bool around_caches) noexcept {
  // Each 128-bit lane takes 12 input bytes: per 3-byte group (a, b, c) the bytes b a c b.
  const __m256i spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,  //
                                          1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
  const auto plus = static_cast<char>(url ? '-' - 62 : '+' - 62);
  const auto slash = static_cast<char>(url ? '_' - 63 : '/' - 63);
  // Offsets from a six-bit value to its character, by range: 0-25 'A', 26-51 'a', 52-61 '0'.
  const __m256i offsets = _mm256_setr_epi8(
      'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
      '0' - 52, '0' - 52, plus, slash, 'A', 0, 0, 'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
      '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, plus, slash, 'A', 0, 0);
  around_caches = around_caches && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  std::size_t i = 0;
  for (; i + 28 <= n; i += 24, out += 32) {
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i + 12));
    __m256i v = _mm256_shuffle_epi8(_mm256_set_m128i(high, low), spread);
    // Move the four 6-bit fields of each 32-bit word to the bottom of its four bytes.
    const __m256i t0 = _mm256_and_si256(v, _mm256_set1_epi32(0x0FC0FC00));
    const __m256i t1 = _mm256_mulhi_epu16(t0, _mm256_set1_epi32(0x04000040));
    const __m256i t2 = _mm256_and_si256(v, _mm256_set1_epi32(0x003F03F0));
    const __m256i t3 = _mm256_mullo_epi16(t2, _mm256_set1_epi32(0x01000010));
    v = _mm256_or_si256(t1, t3);
    // Which range each value is in: 0 for 26-51, 1-12 for 52-63, 13 for 0-25.
    __m256i range = _mm256_subs_epu8(v, _mm256_set1_epi8(51));
    const __m256i below_26 = _mm256_cmpgt_epi8(_mm256_set1_epi8(26), v);
    range = _mm256_or_si256(range, _mm256_and_si256(below_26, _mm256_set1_epi8(13)));
    v = _mm256_add_epi8(v, _mm256_shuffle_epi8(offsets, range));
    if (around_caches) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(v));
      _mm_stream_si128(reinterpret_cast<__m128i*>(out + 16), _mm256_extracti128_si256(v, 1));
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v);
    }
  }
  if (around_caches) _mm_sfence();  // ordered before the portable tail and the caller's reads
  return i;
}

/// Decodes whole 32-character blocks of the standard alphabet within n characters; stops at a
/// block holding any other character. Returns the characters consumed (24 bytes written per 32).
__attribute__((target("avx2"))) inline std::size_t base64_decode_avx2(const char* in, std::size_t n,
                                                                      std::uint8_t* out) noexcept {
  // A character is valid when the bits its low nibble allows and its high nibble's bit are
  // disjoint.
  const __m256i low_classes =
      _mm256_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B,
                       0x1B, 0x1B, 0x1A, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                       0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
  const __m256i high_classes =
      _mm256_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10,
                       0x10, 0x10, 0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10,
                       0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  // What to add to a character to get its value, by high nibble ('/' has its own entry).
  const __m256i shifts = _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
                                          0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i pack = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,  //
                                        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32, out += 24) {
    const __m256i chars = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i high = _mm256_and_si256(_mm256_srli_epi32(chars, 4), nibble);
    const __m256i low = _mm256_and_si256(chars, nibble);
    const __m256i low_bits = _mm256_shuffle_epi8(low_classes, low);
    const __m256i high_bits = _mm256_shuffle_epi8(high_classes, high);
    if (!_mm256_testz_si256(low_bits, high_bits)) break;
    const __m256i is_slash = _mm256_cmpeq_epi8(chars, _mm256_set1_epi8('/'));
    const __m256i values =
        _mm256_add_epi8(chars, _mm256_shuffle_epi8(shifts, _mm256_add_epi8(is_slash, high)));
    // Four 6-bit values -> one 24-bit group per 32-bit word, then the three bytes in order.
    const __m256i pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x01400140));
    const __m256i groups = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
    const __m256i packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(groups, pack), lanes);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(packed));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 16), _mm256_extracti128_si256(packed, 1));
  }
  return i;
}

#endif

}  // namespace bale::detail
