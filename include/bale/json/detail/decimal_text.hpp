// SPDX-License-Identifier: BSL-1.0
#pragma once
// Decimal text read back exactly when the value is a small significand times a small power of ten
// (both exact in a double, one correctly rounded operation), and the word-wise digit runs the JSON
// reader scans with; anything else the caller hands to std::from_chars.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "bale/json/detail/number_text.hpp"

namespace bale::detail {

// ---- reading decimals ----

/// The value of eight ASCII digits in text order in v (first digit in the lowest byte): pairs,
/// then quads, then the whole, each step one multiply.
[[gnu::always_inline]] inline std::uint32_t eight_digits_value(std::uint64_t v) noexcept {
  v -= 0x3030303030303030ULL;
  v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFULL;
  v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFULL;
  return static_cast<std::uint32_t>(v * 10000 + (v >> 32));
}

/// The run of digits starting at p, where 8 bytes are readable: how many (0 to 8) and their value.
struct digit_run {
  int count;
  std::uint32_t value;
};
/// Eight bytes of text (first in the lowest byte) with each ASCII digit byte made 0 and every other
/// byte nonzero up to the first non-digit; a carry out of a non-digit byte only disturbs later
/// bytes.
[[gnu::always_inline]] inline std::uint64_t non_digit_bytes(std::uint64_t v) noexcept {
  return ((v & 0xF0F0F0F0F0F0F0F0ULL) |
          (((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) ^
         0x3333333333333333ULL;
}
/// The value of the first `count` (1 to 7) digit bytes of v: moved to the end of the word behind
/// '0's, the same value.
[[gnu::always_inline]] inline std::uint32_t digits_value_below_8(std::uint64_t v,
                                                                 unsigned count) noexcept {
  const unsigned pad = (8 - count) * 8;
  return eight_digits_value((v << pad) | (0x3030303030303030ULL >> (64 - pad)));
}
[[gnu::always_inline]] inline digit_run leading_digits(const char* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  const std::uint64_t other = non_digit_bytes(v);
  if (other == 0) return {8, eight_digits_value(v)};
  const int count = std::countr_zero(other) / 8;
  if (count == 0) return {0, 0};
  return {count, digits_value_below_8(v, static_cast<unsigned>(count))};
}

/// The parts of a JSON number that decide its value quickly: value = significand * 10^exponent
/// when exact (at most 19 significant digits).
struct decimal_parts {
  std::uint64_t significand = 0;
  int exponent = 0;
  bool negative = false;
  bool exact = true;
};

inline constexpr double exact_powers_of_ten[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/// The correctly rounded value of a decimal whose significand (at most 2^53) and power of ten
/// (|exponent| <= 22) are exact doubles, when one operation gives it; false otherwise.
template <class T>
[[gnu::always_inline]] inline bool exact_quotient_to_float(std::uint64_t significand, int exponent,
                                                           bool negative, T& value) noexcept {
  // Both operands are exact doubles, so the one rounding of * or / is the correct one.
  double d = static_cast<double>(significand);
  d = exponent < 0 ? d / exact_powers_of_ten[-exponent] : d * exact_powers_of_ten[exponent];
  if constexpr (std::is_same_v<T, float>) {
    // Rounding that double to float is a second rounding; it can only differ from rounding the
    // decimal itself when the double lands exactly halfway between two floats. No check of the
    // float's range is needed: a nonzero d lies in [1e-22, 2^53 1e22], inside the normal floats.
    const auto low_bits = std::bit_cast<std::uint64_t>(d) & ((std::uint64_t{1} << 29) - 1);
    if (low_bits == (std::uint64_t{1} << 28)) return false;
  }
  // The sign as a bit, not a branch: signs in data are as random as the data.
  d = std::bit_cast<double>(std::bit_cast<std::uint64_t>(d) | static_cast<std::uint64_t>(negative)
                                                                  << 63);
  value = static_cast<T>(d);
  return true;
}

/// The correctly rounded value of `parts` when one exact operation gives it; false otherwise
/// (the caller falls back to a full conversion).
template <class T>
bool decimal_to_float_exact(const decimal_parts& parts, T& value) noexcept {
  if (!parts.exact || parts.significand > (std::uint64_t{1} << 53) || parts.exponent < -22 ||
      parts.exponent > 22)
    return false;
  return exact_quotient_to_float(parts.significand, parts.exponent, parts.negative, value);
}

/// The correctly rounded double of `parts` from one 64 x 128-bit product with the power of ten
/// (the Eisel-Lemire method): any exact significand and an exponent in the table's range. False
/// where the product cannot decide (a result within the error of the truncated power, a possible
/// tie, subnormal or overflowing results); the caller falls back to a full conversion.
inline bool decimal_to_double_product(const decimal_parts& parts, double& value) noexcept {
  if (!parts.exact || parts.exponent < pow10_table_min || parts.exponent > 308) return false;
  if (parts.significand == 0) {
    value = parts.negative ? -0.0 : 0.0;
    return true;
  }
  // The table holds floor(10^e 2^(127 - floor(e log2 10))) + 1; the truncated power is one less.
  const pow10_entry& entry = pow10_table[parts.exponent - pow10_table_min];
  const std::uint64_t power_high = entry.high - (entry.low == 0);
  const std::uint64_t power_low = entry.low - 1;
  const int shift = std::countl_zero(parts.significand);
  const std::uint64_t w = parts.significand << shift;
  uint128_parts product = multiply_full(w, power_high);
  // The truncations leave the product short by less than w in its low word: when that could
  // carry into the 54 bits kept, the low half of the power settles it, or the caller does.
  if ((product.high & 0x1FF) == 0x1FF && product.low + w < product.low) {
    const uint128_parts low = multiply_full(w, power_low);
    const std::uint64_t merged = product.low + low.high;
    product.high += merged < product.low;
    product.low = merged;
    if ((product.high & 0x1FF) == 0x1FF && product.low + 1 == 0 && low.low + w < low.low)
      return false;
  }
  const int upper = static_cast<int>(product.high >> 63);
  std::uint64_t mantissa = product.high >> (upper + 9);  // 54 bits: the 53 kept and a round bit
  // Exactly halfway with an even result below: round-half-to-even would go down, the addition
  // below goes up. Left to the full conversion.
  if (product.low <= 1 && (product.high & 0x1FF) == 0 && (mantissa & 3) == 1) return false;
  mantissa = (mantissa + (mantissa & 1)) >> 1;
  int biased = floor_log2_pow10(parts.exponent) - shift + 1086 + upper;
  if (mantissa == std::uint64_t{1} << 53) {  // rounded up to the next power of two
    mantissa >>= 1;
    ++biased;
  }
  if (biased <= 0 || biased >= 0x7FF) return false;  // subnormal or out of range
  const std::uint64_t bits = (mantissa & ((std::uint64_t{1} << 52) - 1)) |
                             (static_cast<std::uint64_t>(biased) << 52) |
                             (static_cast<std::uint64_t>(parts.negative) << 63);
  value = std::bit_cast<double>(bits);
  return true;
}

}  // namespace bale::detail
