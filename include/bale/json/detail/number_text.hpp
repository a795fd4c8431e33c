// SPDX-License-Identifier: BSL-1.0
#pragma once
// Floats as text without the C library: the shortest form that reads back to the same bits (one
// product with a power of ten, its estimate kept unless within a margin of the rounding interval's
// ends; exact paths there and at the edges of the range), laid out as std::to_chars(first, last,
// value) would: plain or scientific, whichever is shorter. Integers are in integer_text.hpp;
// reading decimals back, in decimal_text.hpp, shares the powers of ten.

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "bale/json/detail/integer_text.hpp"
#include "bale/json/detail/pow10_table.hpp"

namespace bale::detail {

// ---- shortest floats ----

// floor(e log10 2), floor(e log10(3/4 2^e)) and floor(e log2 10), exact over the exponents of
// double (scripts/generate_pow10_table.py checks the same ranges).
inline constexpr int floor_log10_pow2(int e) noexcept {
  return static_cast<int>((static_cast<std::int64_t>(e) * 661971961083LL) >> 41);
}
inline constexpr int floor_log10_three_quarters_pow2(int e) noexcept {
  return static_cast<int>((static_cast<std::int64_t>(e) * 661971961083LL - 274743187321LL) >> 41);
}
inline constexpr int floor_log2_pow10(int e) noexcept {
  return static_cast<int>((static_cast<std::int64_t>(e) * 913124641741LL) >> 38);
}

/// A finite positive value as significand * 10^exponent.
struct decimal_value {
  std::uint64_t significand;
  int exponent;
};

// floor(g * x / 2^128) with its lowest bit set when the quotient is not an integer: rounding to
// odd keeps enough of the product to compare it with the candidates exactly. g overestimates the
// power of ten by less than one unit, so a middle word of 0 or 1 still means exact.
inline std::uint64_t round_to_odd(const pow10_entry& g, std::uint64_t x) noexcept {
  const uint128_parts low = multiply_full(g.low, x);
  const uint128_parts high = multiply_full(g.high, x);
  const std::uint64_t middle = high.low + low.high;
  const std::uint64_t top = high.high + (middle < low.high);
  return top | (middle > 1);
}

// The same for a float's narrower operands: the power of ten to 64 bits, rounded up, and one
// product. g overestimates by less than x units of the low word then, so a low word up to x still
// means exact (checked over every float by tests/exhaustive/float_text.cpp).
inline std::uint64_t round_to_odd_narrow(const pow10_entry& g, std::uint64_t x) noexcept {
  const uint128_parts product = multiply_full(g.high + 1, x);
  return product.high | (product.low > x);
}

template <class T>
struct float_traits;
template <>
struct float_traits<double> {
  using bits = std::uint64_t;
  static constexpr int fraction_bits = 52;
  static constexpr int min_exponent = -1074;  // of the lowest bit of a subnormal
};
template <>
struct float_traits<float> {
  using bits = std::uint32_t;
  static constexpr int fraction_bits = 23;
  static constexpr int min_exponent = -149;
};

// The inverse of 5^k modulo 2^64 (5 is odd, so it has one): Newton's iteration doubles the
// correct low bits each step, from the 3 that x = v gives.
inline constexpr std::uint64_t inverse_of_power_of_five(int k) noexcept {
  std::uint64_t v = 1;
  for (int i = 0; i < k; ++i) v *= 5;
  std::uint64_t x = v;
  for (int i = 0; i < 5; ++i) x *= 2 - v * x;
  return x;
}

// Trailing zeros: one is common, many come with short decimals in a double (up to 16 of 17
// digits); past the second, halving steps (17 zeros at most). A step divides only when 10^k
// divides: n * 5^-k (mod 2^64) rotated right by k is n / 10^k exactly when 10^k divides n, and
// larger than (2^64 - 1) / 10^k otherwise (the map is one to one), so a test costs a product and a
// rotation.
template <int k>
inline bool strip_trailing_zeros(decimal_value& d) noexcept {
  constexpr std::uint64_t inverse = inverse_of_power_of_five(k);
  static_assert(inverse * (powers_of_ten[k] >> k) == 1);
  constexpr std::uint64_t limit = ~std::uint64_t{0} / powers_of_ten[k];
  const std::uint64_t quotient = std::rotr(d.significand * inverse, k);
  if (quotient > limit) return false;
  d.significand = quotient;
  d.exponent += k;
  return true;
}
inline void remove_trailing_zeros(decimal_value& d) noexcept {
  if (strip_trailing_zeros<1>(d) && strip_trailing_zeros<1>(d)) {
    strip_trailing_zeros<8>(d);
    strip_trailing_zeros<4>(d);
    strip_trailing_zeros<2>(d);
    strip_trailing_zeros<1>(d);
  }
}

// The power of ten 10^k rounded up to the precision the one-product path needs, normalized to
// its top bit: 64 bits for float, 128 for double. The table holds floor + 1, which is the rounded
// up value except where the power is exact in that width (10^k for 0 <= k <= 27, resp. 55).
inline constexpr std::uint64_t float_power_rounded_up(int k) noexcept {
  const pow10_entry& entry = pow10_table[k - pow10_table_min];
  return k >= 0 && k <= 27 ? entry.high : entry.high + (entry.low != 0);
}

inline pow10_entry double_power_rounded_up(int k) noexcept {
  pow10_entry entry = pow10_table[k - pow10_table_min];
  if (static_cast<unsigned>(k) <= 55) {
    entry.high -= entry.low == 0;
    --entry.low;
  }
  return entry;
}

// x * 10^k * 2^(beta - 64) for an odd or even multiple x of the half ulp: its integer part, and
// whether the rounded-up power leaves no fraction (the product is then exactly an integer).
struct scaled_product {
  std::uint64_t integer;
  bool is_integer;
};
inline scaled_product scale_by_power(std::uint64_t x, std::uint64_t power) noexcept {
  const uint128_parts product = multiply_full(x, power);
  return {product.high, (product.low >> 32) == 0};
}
inline scaled_product scale_by_power(std::uint64_t x, const pow10_entry& power) noexcept {
  uint128_parts product = multiply_full(x, power.high);
  const std::uint64_t carry_in = multiply_full(x, power.low).high;
  product.low += carry_in;
  product.high += product.low < carry_in;
  return {product.high, product.low == 0};
}

// The lowest bit of the integer part of x * 10^k * 2^(beta - 64), and whether it has no fraction.
struct product_parity {
  bool odd;
  bool is_integer;
};
inline product_parity parity_of_scaled(std::uint64_t x, std::uint64_t power, int beta) noexcept {
  const std::uint64_t low = x * power;
  return {((low >> (64 - beta)) & 1) != 0, static_cast<std::uint32_t>(low >> (32 - beta)) == 0};
}
inline product_parity parity_of_scaled(std::uint64_t x, const pow10_entry& power,
                                       int beta) noexcept {
  const std::uint64_t high = x * power.high + multiply_full(x, power.low).high;
  const std::uint64_t low = x * power.low;
  return {((high >> (64 - beta)) & 1) != 0, ((high << beta) | (low >> (64 - beta))) == 0};
}

// The one-product path's scaling of c * 2^q: the power of ten, the interval's width delta and
// its upper end, scaled so that delta has kappa + 1 digits.
template <class T>
struct one_product_scaling {
  static constexpr bool is_float = std::is_same_v<T, float>;
  static constexpr int kappa = is_float ? 1 : 2;
  static constexpr std::uint32_t small_divisor = is_float ? 10 : 100;
  static constexpr std::uint32_t big_divisor = small_divisor * 10;
  using power_type = std::conditional_t<is_float, std::uint64_t, pow10_entry>;

  std::uint64_t c;
  int minus_k, beta;
  power_type power;
  std::uint32_t delta;
  scaled_product upper;
  bool even;  // ties to even: the interval's ends belong to it

  [[gnu::always_inline]] one_product_scaling(std::uint64_t c_, int q) noexcept : c(c_) {
    minus_k = floor_log10_pow2(q) - kappa;
    beta = q + floor_log2_pow10(-minus_k);
    if constexpr (is_float) {
      power = float_power_rounded_up(-minus_k);
      delta = static_cast<std::uint32_t>(power >> (63 - beta));
    } else {
      power = double_power_rounded_up(-minus_k);
      delta = static_cast<std::uint32_t>(power.high >> (63 - beta));
    }
    upper = scale_by_power(((c << 1) | 1) << beta, power);
    even = (c & 1) == 0;
  }

  // One digit more than the multiples of 10^(kappa + 1): the value's nearest multiple of
  // 10^kappa, from the upper end's quotient and remainder r, with the ties settled by parity.
  [[gnu::always_inline]] std::uint64_t one_digit_more(std::uint64_t quotient,
                                                      std::uint32_t r) const noexcept {
    const std::uint32_t distance = r - delta / 2 + small_divisor / 2;
    const bool approximate_parity = ((distance ^ (small_divisor / 2)) & 1) != 0;
    std::uint64_t significand = quotient * 10 + distance / small_divisor;
    if (distance % small_divisor == 0) [[unlikely]] {
      const product_parity exact = parity_of_scaled(c << 1, power, beta);
      if (exact.odd != approximate_parity)
        --significand;
      else if (exact.is_integer && (significand & 1) != 0)
        --significand;
    }
    return significand;
  }
};

// The shortest decimal from the scaling, case by case (Dragonbox's nearest-even path): the
// interval holds a multiple of 10^(kappa + 1) when the remainder r of its upper end is below
// delta, and that multiple is then the shortest; where r meets an end of the interval, that end
// decides. Otherwise the answer has one digit more.
template <class T>
inline decimal_value shortest_decimal_by_cases(const one_product_scaling<T>& s) noexcept {
  decimal_value result{s.upper.integer / s.big_divisor, s.minus_k + s.kappa + 1};
  auto r = static_cast<std::uint32_t>(s.upper.integer - result.significand * s.big_divisor);
  bool shortest = false;
  if (r < s.delta) {
    if (r != 0 || !s.upper.is_integer || s.even) {
      shortest = true;
    } else {
      // The upper end is the multiple itself and does not belong to the interval.
      --result.significand;
      r = s.big_divisor;
    }
  } else if (r == s.delta) {
    // The lower end reaches the multiple exactly: in when it is not past it.
    const product_parity lower = parity_of_scaled((s.c << 1) - 1, s.power, s.beta);
    shortest = lower.odd || (lower.is_integer && s.even);
  }
  if (shortest) {
    remove_trailing_zeros(result);
    return result;
  }
  return {s.one_digit_more(result.significand, r), s.minus_k + s.kappa};
}
// The shortest decimal of c * 2^q (c with its hidden bit, not a power of two) from one product,
// exactly: where the digit path below steps aside.
template <class T>
[[gnu::noinline]] decimal_value shortest_decimal_one_product(std::uint64_t c, int q) noexcept {
  return shortest_decimal_by_cases(one_product_scaling<T>(c, q));
}

// The shortest decimal of c * 2^q where the one-product path does not apply (subnormals, powers
// of two, doubles below 10^-306) by Schubfach: the interval of values rounding to the float is
// scaled by a 128-bit power of ten with round-to-odd, and its shortest member is picked from at
// most four candidates.
template <class T>
[[gnu::noinline]] decimal_value shortest_decimal_four_candidates(std::uint64_t c, int q,
                                                                 int biased) noexcept {
  constexpr std::uint64_t hidden = std::uint64_t{1} << float_traits<T>::fraction_bits;
  decimal_value result;
  // The values rounding to c * 2^q lie in [cbl, cbr] * 2^(q-2), boundaries included when c is
  // even; the interval is narrower below a power of two.
  const std::uint64_t out = c & 1;
  const std::uint64_t cb = c << 2;
  const std::uint64_t cbr = cb + 2;
  std::uint64_t cbl;
  int k;
  if (c != hidden || biased <= 1) {
    cbl = cb - 2;
    k = floor_log10_pow2(q);
  } else {
    cbl = cb - 1;
    k = floor_log10_three_quarters_pow2(q);
  }
  const int h = q + floor_log2_pow10(-k) + 1;
  const pow10_entry& g = pow10_table[-k - pow10_table_min];
  // 4 * v / 10^k and its bounds, rounded to odd.
  auto scaled = [&g](std::uint64_t x) {
    if constexpr (std::is_same_v<T, float>)
      return round_to_odd_narrow(g, x);
    else
      return round_to_odd(g, x);
  };
  const std::uint64_t vbl = scaled(cbl << h);
  const std::uint64_t vb = scaled(cb << h);
  const std::uint64_t vbr = scaled(cbr << h);
  const std::uint64_t s = vb >> 2;
  if (s >= 10) {
    // One digit fewer: the multiples of ten around s (at most one lies in the interval).
    const std::uint64_t sp10 = s / 10 * 10;
    const std::uint64_t tp10 = sp10 + 10;
    const bool lower_in = vbl + out <= sp10 << 2;
    const bool upper_in = (tp10 << 2) + out <= vbr;
    if (lower_in != upper_in) {
      result = {lower_in ? sp10 : tp10, k};
      remove_trailing_zeros(result);
      return result;
    }
  }
  const std::uint64_t t = s + 1;
  const bool lower_in = vbl + out <= s << 2;
  const bool upper_in = (t << 2) + out <= vbr;
  if (lower_in != upper_in) {
    result = {lower_in ? s : t, k};
  } else {
    // Both in the interval: the closer one, the even one on a tie.
    const auto twice_distance = static_cast<std::int64_t>(vb - ((s + t) << 1));
    result = {twice_distance < 0 || (twice_distance == 0 && (s & 1) == 0) ? s : t, k};
  }
  remove_trailing_zeros(result);
  return result;
}

// What the digit path's scaling of a float depends on is its exponent alone: 10^-k (k =
// floor(q log10 2)) rounded up to 64 bits and normalized to its top bit, and the shift beta (0 to
// 3), one entry per biased exponent.
struct float_digit_scaling {
  std::uint64_t power;
  std::int8_t k;
  std::uint8_t beta;
};
inline constexpr auto float_digit_scalings = [] {
  std::array<float_digit_scaling, 256> table{};
  for (int biased = 1; biased < 255; ++biased) {
    const int q = biased - 1 + float_traits<float>::min_exponent;
    const int k = floor_log10_pow2(q);
    table[static_cast<std::size_t>(biased)] = {float_power_rounded_up(-k),
                                               static_cast<std::int8_t>(k),
                                               static_cast<std::uint8_t>(q + floor_log2_pow10(-k))};
  }
  return table;
}();

// The shortest decimal of c * 2^q (c with its hidden bit, normal, not a power of two) as D * 10^k
// from one product with a power of ten; false when the product lies too close to a boundary for
// its precision to decide, and the exact paths then do. What steps aside: an inexact value about
// once in 2^56 (double) or 2^30 (float), exact halfway ties, which come with exponents near 0, and
// short decimals on an end of the interval.
// With k = floor(q log10 2), x = c 2^q / 10^k lies in [c, 10c) and the ulp scaled the same way in
// [1, 10): the values rounding to c 2^q are x +- h with h in [1/2, 5). That interval holds at most
// one multiple of ten, which is then the shortest decimal (its digits one or more fewer than
// x's); otherwise every candidate has x's digits and the nearest integer to x is the closest.
// - double: D in [10^15, 10^17) with its trailing zeros (the writer drops them). x is computed in
//   64.64 fixed point from a 64 x 128-bit product and h in 4.60, each within two units of its last
//   place, so every comparison made with a margin of four units is the exact one.
// - float: a multiple of ten is returned divided by ten, so that D is below 10^8 (a word of eight
//   digits for the writer) unless it needs all nine. x comes from one 64 x 64-bit product whose
//   power is over by less than one unit: x is over by less than c 2^(beta + 1) < 2^28 units of
//   its 64 fractional bits; a margin of 2^29 covers that and h's truncation.
template <class T>
[[gnu::always_inline]] inline bool shortest_decimal_from_digits(std::uint64_t c, int q,
                                                                decimal_value& result) noexcept {
  constexpr bool is_float = std::is_same_v<T, float>;
  int k, beta;
  std::uint64_t integral, fraction, power_high;
  if constexpr (is_float) {
    const float_digit_scaling& entry =
        float_digit_scalings[static_cast<std::size_t>(q + 1 - float_traits<float>::min_exponent)];
    k = entry.k;
    beta = entry.beta;
    power_high = entry.power;
    // floor(shifted * power / 2^64): x to 64 fractional bits.
    const uint128_parts product = multiply_full(c << (beta + 1), power_high);
    integral = product.high;
    fraction = product.low;
  } else {
    k = floor_log10_pow2(q);
    beta = q + floor_log2_pow10(-k);  // 0 to 3
    // 10^-k = power * 2^(beta - q - 127), rounded up by less than one unit of the 128 bits.
    const pow10_entry power = double_power_rounded_up(-k);
    power_high = power.high;
    const std::uint64_t shifted = c << (beta + 1);
    // floor(shifted * power / 2^64): x to 64 fractional bits (high over x by less than one unit).
    const uint128_parts product = multiply_full(shifted, power.high);
    const std::uint64_t carry_in = multiply_full(shifted, power.low).high;
    fraction = product.low + carry_in;
    integral = product.high + (fraction < carry_in);
  }
  const std::uint64_t tens = integral / 10;
  const std::uint64_t digit = integral - tens * 10;
  // 4.60 fixed point: x less the multiple of ten below it, the distance up to the next one, h.
  constexpr std::uint64_t ten = std::uint64_t{10} << 60;
  const std::uint64_t below = (digit << 60) | (fraction >> 4);
  const std::uint64_t above = ten - below;
  const std::uint64_t half_ulp = power_high >> (4 - beta);
  // |a - b| <= margin as one unsigned comparison.
  constexpr std::uint64_t margin = is_float ? std::uint64_t{1} << 29 : 4;
  const auto near = [](std::uint64_t a, std::uint64_t b) { return a - b + margin <= 2 * margin; };
  if (near(below, half_ulp) || near(above, half_ulp) || near(fraction, std::uint64_t{1} << 63))
      [[unlikely]]
    return false;
  const std::uint64_t nearest = integral + (fraction >> 63);
  if constexpr (is_float) {
    // Whether the interval holds a multiple of ten is as random as the data (40 % of floats in
    // [-1, 1] have 7 digits, 55 % have 8): the answer is chosen with a mask, not a branch.
    const bool up = above < half_ulp;
    const bool multiple = (below < half_ulp) | up;
    const std::uint64_t mask = 0 - static_cast<std::uint64_t>(multiple);
    result.significand = ((tens + up) & mask) | (nearest & ~mask);
    result.exponent = k + multiple;
  } else {
    const std::uint64_t multiple = integral - digit;
    result.significand = below < half_ulp ? multiple : above < half_ulp ? multiple + 10 : nearest;
    result.exponent = k;
  }
  return true;
}

// Whether the one-product path's power of ten for a double c * 2^q is in the table (all but the
// values below about 10^-306).
constexpr bool double_power_in_table(int q) noexcept {
  return 2 - floor_log10_pow2(q) <= pow10_table_max;
}

// Significands below this are written from one word of eight digits, trailing zeros included.
inline constexpr std::uint64_t digit_word_limit = 100000000;

/// The shortest decimal that reads back to `value` (finite and > 0), the closest one on ties,
/// possibly with trailing zeros: the writer drops those for free from the digits it writes.
template <class T>
[[gnu::always_inline]] inline decimal_value shortest_decimal_with_zeros(T value) noexcept {
  using traits = float_traits<T>;
  constexpr int fraction_bits = traits::fraction_bits;
  const auto bits = std::bit_cast<typename traits::bits>(value);
  const std::uint64_t fraction = bits & ((typename traits::bits{1} << fraction_bits) - 1);
  const int biased = static_cast<int>(bits >> fraction_bits);
  const std::uint64_t hidden = std::uint64_t{1} << fraction_bits;
  std::uint64_t c = biased != 0 ? fraction | hidden : fraction;
  const int q = biased != 0 ? biased - 1 + traits::min_exponent : traits::min_exponent;

  if (q < 0 && q > -fraction_bits - 1 && (c & ((std::uint64_t{1} << -q) - 1)) == 0) {
    // An integer below 2^53: its own digits are the shortest.
    decimal_value result{c >> -q, 0};
    if (result.significand >= digit_word_limit) remove_trailing_zeros(result);  // never for a float
    return result;
  }
  if constexpr (std::is_same_v<T, double>) {
    // A decimal with at most six digits after the point (prices, measurements, coordinates),
    // found with one product and one division instead of the interval search. m / 10^6 is the
    // decimal when it rounds back to the value; below 2^52 / 10^6 the value's ulp is under 10^-6,
    // so no other decimal with six or fewer places rounds to it, and none with fewer digits
    // either (such a decimal would have six or fewer places too): m without its trailing zeros
    // is the shortest. Random doubles fail the check and take the general path.
    constexpr double scale = 1e6;
    const double scaled = value * scale;
    if (scaled < 0x1p52) {
      const auto m = static_cast<std::int64_t>(scaled + 0.5);
      if (static_cast<double>(m) / scale == value) {
        // Not an integer (handled above), so at most five trailing zeros: three steps, cheaper
        // than the general stripping that a significand of 10^8 or more would take.
        decimal_value result{static_cast<std::uint64_t>(m), -6};
        strip_trailing_zeros<4>(result);
        strip_trailing_zeros<2>(result);
        strip_trailing_zeros<1>(result);
        return result;
      }
    }
  }
  // Normal values that are not a power of two, within the range of the one-product path.
  const bool symmetric = biased > 1 && c != hidden;
  decimal_value result;
  if (symmetric && shortest_decimal_from_digits<T>(c, q, result)) [[likely]]
    return result;
  if (symmetric && (std::is_same_v<T, float> || double_power_in_table(q)))
    return shortest_decimal_one_product<T>(c, q);
  return shortest_decimal_four_candidates<T>(c, q, biased);
}

/// The shortest decimal that reads back to `value` (finite and > 0), the closest one on ties,
/// without trailing zeros.
template <class T>
decimal_value shortest_decimal(T value) noexcept {
  decimal_value result = shortest_decimal_with_zeros(value);
  remove_trailing_zeros(result);
  return result;
}

// to_chars's choice of layout for n significant digits times 10^exponent: plain unless
// scientific is shorter. An integer is plain with up to four padding zeros (five past one digit,
// as "1e+05" is as long); digits on both sides of the point are always plain; "0." takes up to
// three zeros before the digits (two for one digit, as "1e-04" is as long as "0.0001").
enum class decimal_layout { integer, around_point, leading_zeros, scientific };
inline decimal_layout layout_of(int n, int exponent) noexcept {
  const int point = n + exponent;  // digits before the decimal point
  if (exponent >= 0)
    return exponent <= 4 + (n > 1) ? decimal_layout::integer : decimal_layout::scientific;
  if (point > 0) return decimal_layout::around_point;
  return point >= -2 - (n > 1) ? decimal_layout::leading_zeros : decimal_layout::scientific;
}

// The exponent of the scientific form, "e-07" or "e+308", at p; returns its end.
inline char* write_exponent(char* p, int exponent) noexcept {
  const int magnitude = exponent < 0 ? -exponent : exponent;
  *p++ = 'e';
  *p++ = exponent < 0 ? '-' : '+';
  if (magnitude >= 100) {
    *p++ = static_cast<char>('0' + magnitude / 100);
    std::memcpy(p, digit_pairs + (magnitude % 100) * 2, 2);
  } else {
    std::memcpy(p, digit_pairs + magnitude * 2, 2);
  }
  return p + 2;
}

// The text of significand * 10^exponent (0 < significand < 10^8, trailing zeros allowed), laid
// out as write_shortest lays out a shortest decimal. Its eight digits, in one word with the first
// in the lowest byte, give both the leading zeros (the low zero bytes) and the trailing ones (the
// high zero bytes), so neither a digit count nor a division is needed; each form is made of
// fixed-size stores of that word.
[[gnu::always_inline]] inline char* write_decimal_below_1e8(char* out, std::uint32_t significand,
                                                            int exponent) noexcept {
  const std::uint64_t values = eight_digit_values(significand);
  const int leading = std::countr_zero(values) / 8;
  const int trailing = std::countl_zero(values) / 8;
  const int n = 8 - leading - trailing;  // significant digits
  exponent += trailing;
  const std::uint64_t digits = values >> (leading * 8);  // the first digit in the lowest byte
  const int point = n + exponent;                        // digits before the decimal point
  // Bytes past the text are scratch.
  switch (layout_of(n, exponent)) {
    case decimal_layout::integer:
      store_digit_word(out, digits);
      std::memcpy(out + n, "00000000", 8);
      return out + point;
    case decimal_layout::around_point:
      store_digit_word(out, digits);
      out[point] = '.';
      store_digit_word(out + point + 1, digits >> (point * 8));
      return out + n + 1;
    case decimal_layout::leading_zeros:
      std::memcpy(out, "0.000000", 8);
      store_digit_word(out + 2 - point, digits);
      return out + 2 - point + n;
    case decimal_layout::scientific:
      break;
  }
  store_digit_word(out + 1, digits);
  out[0] = out[1];
  out[1] = '.';  // overwritten by the 'e' after a single digit
  return write_exponent(out + 1 + (n > 1 ? n : 0), point - 1);
}

// The text of significand * 10^exponent (10^8 <= significand < 10^17, trailing zeros allowed),
// laid out as write_shortest lays out a shortest decimal. The significand goes out as a field of a
// seventeenth digit (overwritten when there is none) and sixteen more, its first digit in the
// field's first byte: shorter significands are scaled up to sixteen digits first. Where the
// digits end comes from the sixteen written, so neither a digit count nor a division by ten is
// needed for a double's sixteen or seventeen digits; bytes past the text are scratch. Out of
// line, which keeps write_shortest small for the floats' common eight-digit path.
[[gnu::noinline]] inline char* write_decimal_from_1e8(char* out, std::uint64_t significand,
                                                      int exponent) noexcept {
  constexpr std::uint64_t e15 = 1000000000000000, e16 = 10 * e15;
  if (significand < e15) [[unlikely]] {
    const int scale = 16 - decimal_digit_count(significand);
    significand *= powers_of_ten[scale];
    exponent -= scale;
  }
  const std::uint64_t top = significand / e16;
  const int seventeen = top != 0;
  const sixteen_digits rest(significand - top * e16);
  // The significant digits: a seventeenth digit and the sixteen up to their last nonzero digit
  // (without a seventeenth, the sixteen start with a nonzero digit).
  const int n = seventeen + rest.significant();
  const int point = 16 + seventeen + exponent;  // digits before the decimal point
  const auto write_field = [&](char* at) {
    *at = static_cast<char>('0' + top);
    rest.store(at + seventeen);
  };
  switch (layout_of(n, point - n)) {
    case decimal_layout::integer:
      write_field(out);
      std::memcpy(out + n, "00000000", 8);
      return out + point;
    case decimal_layout::around_point: {
      // At most 16 digits either side of the point.
      char field[32];
      write_field(field);
      std::memcpy(out, field, 16);
      out[point] = '.';
      std::memcpy(out + point + 1, field + point, 8);
      if (n - point > 8) std::memcpy(out + point + 9, field + point + 8, 8);
      return out + n + 1;
    }
    case decimal_layout::leading_zeros:
      std::memcpy(out, "0.000000", 8);
      write_field(out + 2 - point);
      return out + 2 - point + n;
    case decimal_layout::scientific:
      break;
  }
  write_field(out + 1);
  out[0] = out[1];
  out[1] = '.';  // overwritten by the 'e' after a single digit
  return write_exponent(out + 1 + (n > 1 ? n : 0), point - 1);
}

/// The shortest text of a finite float or double, laid out as std::to_chars(first, last, value)
/// lays it out; an integer too large for the significand keeps only its shortest digits
/// (2^60 is 1152921504606847000). Uses at most 32 bytes at out; returns the end of the text.
template <class T>
char* write_shortest(char* out, T value) noexcept {
  // The sign without a branch, as in write_integer, and the magnitude, from the bits.
  using bits_type = typename float_traits<T>::bits;
  constexpr int sign_shift = sizeof(T) * 8 - 1;
  auto bits = std::bit_cast<bits_type>(value);
  *out = '-';
  out += bits >> sign_shift;
  bits &= ~(bits_type{1} << sign_shift);
  if (bits == 0) {
    *out = '0';
    return out + 1;
  }
  const decimal_value d = shortest_decimal_with_zeros(std::bit_cast<T>(bits));
  if (d.significand < digit_word_limit)
    return write_decimal_below_1e8(out, static_cast<std::uint32_t>(d.significand), d.exponent);
  return write_decimal_from_1e8(out, d.significand, d.exponent);
}

}  // namespace bale::detail
