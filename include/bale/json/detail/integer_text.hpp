// SPDX-License-Identifier: BSL-1.0
#pragma once
// Integers as decimal text without the C library: eight digits at a time from one 64-bit word,
// with the digit tables and the 128-bit product that the float writer shares.

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "bale/json/detail/pow10_table.hpp"

namespace bale::detail {

// ---- 128-bit products ----

struct uint128_parts {
  std::uint64_t high;
  std::uint64_t low;
};

inline uint128_parts multiply_full(std::uint64_t a, std::uint64_t b) noexcept {
#if defined(__SIZEOF_INT128__)
  __extension__ using wide = unsigned __int128;
  const wide product = static_cast<wide>(a) * b;
  return {static_cast<std::uint64_t>(product >> 64), static_cast<std::uint64_t>(product)};
#else
  const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
  const std::uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo;
  const std::uint64_t lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
  return {hi_hi + (hi_lo >> 32) + (middle >> 32), (middle << 32) | (lo_lo & 0xFFFFFFFFu)};
#endif
}

// ---- decimal digits ----

inline constexpr char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

inline constexpr std::uint64_t powers_of_ten[20] = {1ULL,
                                                    10ULL,
                                                    100ULL,
                                                    1000ULL,
                                                    10000ULL,
                                                    100000ULL,
                                                    1000000ULL,
                                                    10000000ULL,
                                                    100000000ULL,
                                                    1000000000ULL,
                                                    10000000000ULL,
                                                    100000000000ULL,
                                                    1000000000000ULL,
                                                    10000000000000ULL,
                                                    100000000000000ULL,
                                                    1000000000000000ULL,
                                                    10000000000000000ULL,
                                                    100000000000000000ULL,
                                                    1000000000000000000ULL,
                                                    10000000000000000000ULL};

/// How many decimal digits n has (1 for 0).
inline int decimal_digit_count(std::uint64_t n) noexcept {
  // bit_width * log10(2) is the count or one less; one comparison settles it.
  n |= 1;  // the same count, and 0 has one digit
  const int estimate = static_cast<int>((std::bit_width(n) * 1233) >> 12);
  return estimate + (n >= powers_of_ten[estimate]);
}

// The text of 0000 to 9999, four characters each (40 KB), spelled out by the preprocessor: a
// constexpr loop filling the same table would be evaluated by the compiler in every translation
// unit, at a cost larger than the rest of the JSON writer's headers.
// clang-format off
#define BALE_DIGITS_1(p) p "0" p "1" p "2" p "3" p "4" p "5" p "6" p "7" p "8" p "9"
#define BALE_DIGITS_2(p) BALE_DIGITS_1(p "0") BALE_DIGITS_1(p "1") BALE_DIGITS_1(p "2") \
  BALE_DIGITS_1(p "3") BALE_DIGITS_1(p "4") BALE_DIGITS_1(p "5") BALE_DIGITS_1(p "6")   \
  BALE_DIGITS_1(p "7") BALE_DIGITS_1(p "8") BALE_DIGITS_1(p "9")
#define BALE_DIGITS_3(p) BALE_DIGITS_2(p "0") BALE_DIGITS_2(p "1") BALE_DIGITS_2(p "2") \
  BALE_DIGITS_2(p "3") BALE_DIGITS_2(p "4") BALE_DIGITS_2(p "5") BALE_DIGITS_2(p "6")   \
  BALE_DIGITS_2(p "7") BALE_DIGITS_2(p "8") BALE_DIGITS_2(p "9")
alignas(64) inline constexpr char four_digit_text[40001] =
  BALE_DIGITS_3("0") BALE_DIGITS_3("1") BALE_DIGITS_3("2") BALE_DIGITS_3("3") BALE_DIGITS_3("4")
  BALE_DIGITS_3("5") BALE_DIGITS_3("6") BALE_DIGITS_3("7") BALE_DIGITS_3("8") BALE_DIGITS_3("9");
// clang-format on
#undef BALE_DIGITS_3
#undef BALE_DIGITS_2
#undef BALE_DIGITS_1
static_assert(four_digit_text[4 * 1907] == '1' && four_digit_text[4 * 1907 + 1] == '9' &&
              four_digit_text[4 * 1907 + 2] == '0' && four_digit_text[4 * 1907 + 3] == '7' &&
              four_digit_text[4 * 9999 + 3] == '9' && four_digit_text[40000] == '\0');

// The text of n < 10^4 as one word, the first digit in the lowest byte.
inline std::uint32_t four_digit_chars(std::uint32_t n) noexcept {
  std::uint32_t text;
  std::memcpy(&text, four_digit_text + std::size_t{n} * 4, 4);
  if constexpr (std::endian::native == std::endian::big) text = __builtin_bswap32(text);
  return text;
}

/// The four decimal digits of n < 10^4 as byte values 0-9, leading zeros included, the first digit
/// in the lowest byte. Looked up, they beat computing the lanes: a float's eight digits are two
/// loads where the lanes took three dependent multiply steps, and small integers (counts, scores,
/// indices) are one load (docs/performance.md has the measurements).
inline std::uint32_t four_digit_values(std::uint32_t n) noexcept {
  return four_digit_chars(n) & 0x0F0F0F0F;  // '0' to '9' are 0x30 to 0x39
}

/// The eight decimal digits of n < 10^8 as byte values 0-9, the first digit in the lowest byte.
inline std::uint64_t eight_digit_values(std::uint32_t n) noexcept {
  const std::uint32_t high = n / 10000;
  const std::uint64_t last = four_digit_chars(n - high * 10000);
  return (four_digit_chars(high) | last << 32) & 0x0F0F0F0F0F0F0F0FULL;
}

inline void store_digit_word(char* out, std::uint64_t digits) noexcept {
  digits |= 0x3030303030303030ULL;
  if constexpr (std::endian::native == std::endian::big) digits = __builtin_bswap64(digits);
  std::memcpy(out, &digits, 8);
}

/// Writes the digits of n (< 10^8) without leading zeros; stores 8 bytes at out, returns the end.
inline char* write_digits_below_1e8(char* out, std::uint32_t n) noexcept {
  const std::uint64_t digits = eight_digit_values(n);
  // Leading zeros are the low zero bytes; the last digit always stays, so 0 is written as "0".
  const int zeros = std::countr_zero(digits | (std::uint64_t{1} << 56)) / 8;
  store_digit_word(out, digits >> (zeros * 8));
  return out + 8 - zeros;
}

/// Writes the digits of n (< 10^4) without leading zeros; stores 4 bytes at out, returns the end.
inline char* write_digits_below_1e4(char* out, std::uint32_t n) noexcept {
  const std::uint32_t values = four_digit_values(n);
  // Leading zeros are the low zero bytes; the last digit always stays, so 0 is written as "0".
  const int zeros = std::countr_zero(values | std::uint32_t{1} << 24) / 8;
  std::uint32_t text = values >> (zeros * 8) | 0x30303030;
  if constexpr (std::endian::native == std::endian::big) text = __builtin_bswap32(text);
  std::memcpy(out, &text, 4);
  return out + 4 - zeros;
}

/// The sixteen digits of n < 10^16, leading zeros included, ready to store, in two words of eight
/// (four table loads, which beat computing them in an SSE2 register).
class sixteen_digits {
 public:
  explicit sixteen_digits(std::uint64_t n) noexcept {
    const std::uint64_t high = n / 100000000;
    first_ = eight_digit_values(static_cast<std::uint32_t>(high));
    second_ = eight_digit_values(static_cast<std::uint32_t>(n - high * 100000000));
  }
  /// Stores the sixteen digits at out.
  void store(char* out) const noexcept {
    store_digit_word(out, first_);
    store_digit_word(out + 8, second_);
  }
  /// How many digits come before the trailing zeros (0 for n = 0): the first digit is in the
  /// lowest byte, so the last nonzero digit is the highest nonzero byte.
  int significant() const noexcept {
    return static_cast<int>(second_ != 0 ? 8 + (std::bit_width(second_) + 7) / 8
                                         : (std::bit_width(first_) + 7) / 8);
  }

 private:
  std::uint64_t first_, second_;
};

// The digits of n >= 10^8: those above the sixteenth (none up to sixteen digits), then sixteen
// more in one go, n scaled up to sixteen digits when it is shorter so that the zeros this adds
// land past the end. Stores at most 20 bytes at out, returns the end. Out of line, so that the
// short paths of write_digits stay small enough to inline into loops over small integers.
[[gnu::noinline]] inline char* write_digits_from_1e8(char* out, std::uint64_t n) noexcept {
  constexpr std::uint64_t e16 = 10000000000000000;
  const int count = decimal_digit_count(n);
  if (count > 16) {
    const std::uint64_t top = n / e16;  // below 1845
    out = write_digits_below_1e4(out, static_cast<std::uint32_t>(top));
    sixteen_digits(n - top * e16).store(out);
    return out + 16;
  }
  sixteen_digits(n * powers_of_ten[16 - count]).store(out);
  return out + count;
}

/// Writes the decimal digits of n; stores at most 20 bytes at out, returns the end.
[[gnu::always_inline]] inline char* write_digits(char* out, std::uint64_t n) noexcept {
  // Small numbers (counts, scores, indices) are common enough for paths of their own.
  if (n < 10000) return write_digits_below_1e4(out, static_cast<std::uint32_t>(n));
  if (n < 100000000) return write_digits_below_1e8(out, static_cast<std::uint32_t>(n));
  return write_digits_from_1e8(out, n);
}

/// An integer's decimal text at out (stores at most 21 bytes); returns its end. This and
/// write_digits are always inlined: in a translation unit with many writers GCC would otherwise
/// call them, and the calls cost a document's write more than the code size.
template <class T>
[[gnu::always_inline]] inline char* write_integer(char* out, T value) noexcept {
  static_assert(std::is_integral_v<T> && sizeof(T) <= 8);
  std::uint64_t magnitude = static_cast<std::uint64_t>(value);
  if constexpr (std::is_signed_v<T>) {
    // Without a branch: signs are random in much data, and a mispredicted branch costs more than
    // the store and the arithmetic.
    const std::uint64_t negative = value < 0;
    *out = '-';
    out += negative;
    magnitude = (magnitude ^ (0 - negative)) + negative;
  }
  return write_digits(out, magnitude);
}

}  // namespace bale::detail
