// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the JSON writer and reader share about strings: finding the bytes that need attention
// sixteen at a time (SSE2, which every x86-64 has) or eight (in a word elsewhere), and checking
// UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bale/core/wire.hpp"

namespace bale::detail {

inline constexpr std::uint64_t json_ones = 0x0101010101010101ULL;
inline constexpr std::uint64_t json_highs = 0x8080808080808080ULL;

// Bytes of an 8-byte word that are '"', '\\', a control character or not ASCII: the high bit of
// each such byte is set in the result.
inline std::uint64_t json_special_bytes(std::uint64_t word) noexcept {
  auto zero_bytes = [](std::uint64_t v) { return (v - json_ones) & ~v & json_highs; };
  const std::uint64_t quote = zero_bytes(word ^ (json_ones * '"'));
  const std::uint64_t backslash = zero_bytes(word ^ (json_ones * '\\'));
  const std::uint64_t control = (word - json_ones * 0x20) & ~word & json_highs;
  return quote | backslash | control | (word & json_highs);
}

#if defined(__SSE2__)
/// The bytes of a 16-byte vector that are '"', '\\', a control character or not ASCII, one bit
/// each: a signed comparison with 0x20 catches both the control bytes and the high ones.
inline unsigned json_special_lanes(__m128i v) noexcept {
  const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  const __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
  const __m128i below_space = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), below_space)));
}
#endif

/// The bytes of an 8-byte word (first in the lowest byte) that are ',' or ']', one bit each in the
/// low 8 bits. Exact: no borrow from one byte reaches the next.
inline std::uint32_t json_delimiter_bits_of_word(std::uint64_t word) noexcept {
  constexpr std::uint64_t lows = ~json_highs;
  auto zero_bytes = [](std::uint64_t v) { return ~(((v & lows) + lows) | v | lows); };
  const std::uint64_t delimiters =
      zero_bytes(word ^ (json_ones * ',')) | zero_bytes(word ^ (json_ones * ']'));
  // Each byte's high bit gathered into bit i of the top byte, in byte order.
  return static_cast<std::uint32_t>(((delimiters >> 7) * 0x0102040810204080ULL) >> 56);
}

/// The bytes p[0..32) that are ',' or ']', bit i for p[i]: where the numbers of an array end.
/// In words, as any target can; sixteen lanes at a time where SSE2 is there.
inline std::uint32_t json_delimiter_bits_portable(const char* p) noexcept {
  std::uint32_t bits = 0;
  for (int k = 0; k < 4; ++k) {
    std::uint64_t word;
    std::memcpy(&word, p + 8 * k, 8);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    bits |= json_delimiter_bits_of_word(word) << (8 * k);
  }
  return bits;
}
inline std::uint32_t json_delimiter_bits(const char* p) noexcept {
#if defined(__SSE2__)
  auto lanes = [](const char* at) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(
        _mm_cmpeq_epi8(v, _mm_set1_epi8(',')), _mm_cmpeq_epi8(v, _mm_set1_epi8(']')))));
  };
  return lanes(p) | lanes(p + 16) << 16;
#else
  return json_delimiter_bits_portable(p);
#endif
}

/// Whether a byte goes into a JSON string as it is (and is ASCII).
constexpr bool json_plain_byte(unsigned char c) noexcept {
  return c >= 0x20 && c != '"' && c != '\\' && c < 0x80;
}

/// Bytes from p (before end) that need no escaping and are ASCII.
inline std::size_t json_plain_run(const char* p, const char* end) noexcept {
  const char* start = p;
#if defined(__SSE2__)
  while (end - p >= 16) {
    const unsigned special =
        json_special_lanes(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    if (special != 0)
      return static_cast<std::size_t>(p - start) +
             static_cast<std::size_t>(std::countr_zero(special));
    p += 16;
  }
#endif
  while (end - p >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    if (const std::uint64_t special = json_special_bytes(word); special != 0)
      return static_cast<std::size_t>(p - start) +
             static_cast<std::size_t>(std::countr_zero(special)) / 8;
    p += 8;
  }
  while (p < end && json_plain_byte(static_cast<unsigned char>(*p))) ++p;
  return static_cast<std::size_t>(p - start);
}

/// The text before member I's value in minified JSON: {"name": for the first member, ,"name": for
/// the others (a C++ identifier needs no escape). The writer puts it as one constant; the reader
/// compares it in one go while members come in declaration order.
template <class Names, std::size_t I>
inline constexpr auto json_member_prefix = [] {
  constexpr std::string_view name = Names::value[I];
  std::array<char, name.size() + 4> text{};
  text[0] = I == 0 ? '{' : ',';
  text[1] = '"';
  for (std::size_t k = 0; k < name.size(); ++k) text[k + 2] = name[k];
  text[name.size() + 2] = '"';
  text[name.size() + 3] = ':';
  return text;
}();

/// Members whose minified JSON has one fixed shape: a number or true/false (not an enum, which may
/// travel as its name), or an array of a fixed count of them lying contiguously in memory (C
/// arrays, std::array; not arrays of arrays, whose text nests). Decided by the serializer's wire
/// shape, so no type is named here. An object made only of these is written and read in one pass,
/// with no bookkeeping per value.
template <class T, class Shape = typename wire_shape_of<T>::type>
inline constexpr bool json_flat_number = false;
template <class T, class U>
inline constexpr bool json_flat_number<T, wire::scalar<U>> = std::is_same_v<T, U>;

template <class T, class Shape = typename wire_shape_of<T>::type>
inline constexpr bool json_flat_member = json_flat_number<T>;
template <class T, class E, std::size_t N>
inline constexpr bool json_flat_member<T, wire::repeat<E, N>> =
    json_flat_number<E>&& requires(T& array) {
  { std::data(array) } -> std::same_as<E*>;
};

/// How many numbers a json_flat_member holds.
template <class T, class Shape = typename wire_shape_of<T>::type>
inline constexpr std::size_t json_flat_count = 1;
template <class T, class E, std::size_t N>
inline constexpr std::size_t json_flat_count<T, wire::repeat<E, N>> = N;

template <class... Members>
concept json_flat_object = sizeof...(Members) != 0 && (json_flat_member<Members> && ...);

/// Whether the n bytes at a and b are equal: words, not a call, for the short names of members.
inline bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
  auto load8 = [](const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  auto load4 = [](const char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 <= n; i += 8)
      if (load8(a + i) != load8(b + i)) return false;
    return load8(a + n - 8) == load8(b + n - 8);  // the tail, overlapping
  }
  if (n >= 4) return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

/// Copies n bytes from `from` to `to` if none of them needs escaping and all are ASCII; returns
/// whether it did (the bytes at `to` are then scratch).
[[gnu::always_inline]] inline bool json_copy_plain(const char* from, std::size_t n,
                                                   char* to) noexcept {
  auto special = [](std::uint64_t word) {
    return json_special_bytes(word) != 0;
  };  // any byte order
  if (n >= 8) {
#if defined(__SSE2__)
    // Sixteen bytes a step, the last step overlapping what is done; from 8 to 16 bytes, the first
    // and last eight in one vector.
    if (n <= 16) {
      const __m128i head = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(from));
      const __m128i tail = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(from + n - 8));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(to), head);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(to + n - 8), tail);
      return json_special_lanes(_mm_unpacklo_epi64(head, tail)) == 0;
    }
    for (std::size_t i = 0; i + 16 <= n; i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), v);
      if (json_special_lanes(v) != 0) return false;
    }
    const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + n - 16));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + n - 16), last);
    return json_special_lanes(last) == 0;
#else
    std::uint64_t word;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::memcpy(&word, from + i, 8);
      std::memcpy(to + i, &word, 8);
      if (special(word)) return false;
    }
    if (i == n) return true;
    // The last eight bytes, overlapping what is done.
    std::memcpy(&word, from + n - 8, 8);
    std::memcpy(to + n - 8, &word, 8);
    return !special(word);
#endif
  }
  // Shorter strings in one word too, made of their own bytes only (so none of it is padding that
  // could look special): two overlapping halves from 4 bytes, the first, middle and last byte
  // (repeated) below that.
  if (n >= 4) {
    std::uint32_t head, tail;
    std::memcpy(&head, from, 4);
    std::memcpy(&tail, from + n - 4, 4);
    std::memcpy(to, &head, 4);
    std::memcpy(to + n - 4, &tail, 4);
    return !special(head | (std::uint64_t{tail} << 32));
  }
  if (n == 0) return true;
  const char first = from[0], middle = from[n / 2], last = from[n - 1];
  to[0] = first;
  to[n / 2] = middle;
  to[n - 1] = last;
  const std::uint64_t three = static_cast<unsigned char>(first) |
                              static_cast<std::uint64_t>(static_cast<unsigned char>(middle)) << 8 |
                              static_cast<std::uint64_t>(static_cast<unsigned char>(last)) << 16;
  return !special(three | three << 24 | three << 48);
}

/// The length of the valid UTF-8 sequence at p that starts with a non-ASCII byte, 0 if invalid.
inline std::size_t utf8_sequence(const char* p, const char* end) noexcept {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  const std::size_t left = static_cast<std::size_t>(end - p);
  auto continuation = [&](std::size_t i) { return i < left && (u[i] & 0xC0) == 0x80; };
  const unsigned c = u[0];
  if (c >= 0xC2 && c <= 0xDF) return continuation(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!continuation(1) || !continuation(2)) return 0;
    if (c == 0xE0 && u[1] < 0xA0) return 0;   // overlong
    if (c == 0xED && u[1] >= 0xA0) return 0;  // a surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
    if (c == 0xF0 && u[1] < 0x90) return 0;   // overlong
    if (c == 0xF4 && u[1] >= 0x90) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

/// Appends code point cp as UTF-8; returns the bytes written (cp is a valid scalar value).
inline std::size_t utf8_encode(std::uint32_t cp, char* out) noexcept {
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<char>(0xC0 | cp >> 6);
    out[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<char>(0xE0 | cp >> 12);
    out[1] = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | cp >> 18);
  out[1] = static_cast<char>(0x80 | (cp >> 12 & 0x3F));
  out[2] = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
  out[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

}  // namespace bale::detail
