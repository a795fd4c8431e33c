// SPDX-License-Identifier: BSL-1.0
// The JSON number text: integers against std::to_chars, shortest floats against std::to_chars's
// shortest digits and layout, and the exact fast path of reading against std::from_chars.
#include <gtest/gtest.h>
#include <bale/json/detail/decimal_text.hpp>
#include <bale/json/detail/float_from_chars.hpp>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "support/scientific_text.hpp"

namespace {

using namespace bale::detail;

template <class T>
std::string reference_text(T value) {
  char text[64];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

template <class T>
std::string shortest_text(T value) {
  char text[64];
  return std::string(text, write_shortest(text, value));
}

template <class T>
std::string integer_text(T value) {
  char text[32];
  return std::string(text, write_integer(text, value));
}

// bale's text has std::to_chars's digits and layout, except that a plain integer too large for
// the significand keeps only its shortest digits (to_chars writes the exact binary value there).
template <class T>
void expect_shortest(T value) {
  if (!std::isfinite(value)) return;
  const std::string expected = reference_text(value);
  const std::string text = shortest_text(value);
  T back{};
  const auto result = bale::detail::float_from_chars(text.data(), text.data() + text.size(), back);
  ASSERT_EQ(result.ec, std::errc{}) << text;
  ASSERT_EQ(std::bit_cast<typename float_traits<T>::bits>(back),
            std::bit_cast<typename float_traits<T>::bits>(value))
      << text << " does not read back";
  if (text == expected) return;
  const bool plain_integers = expected.find_first_of(".e") == std::string::npos &&
                              text.find_first_of(".e") == std::string::npos;
  ASSERT_TRUE(plain_integers && text.size() == expected.size())
      << std::hexfloat << value << ": " << text << " against " << expected;
  // Then the digits are to_chars's shortest scientific digits, padded with zeros.
  char scientific[64];
  const std::string shortest(scientific, std::to_chars(scientific, scientific + sizeof scientific,
                                                       value, std::chars_format::scientific)
                                             .ptr);
  std::string digits;
  for (char c : shortest.substr(0, shortest.find('e')))
    if (c >= '0' && c <= '9') digits += c;
  std::string ours = text.substr(text[0] == '-');
  const std::size_t exponent = ours.size() - 1;
  ours.erase(ours.find_last_not_of('0') + 1);
  EXPECT_EQ(ours, digits) << text << " against " << shortest;
  EXPECT_EQ(std::to_string(exponent),
            std::to_string(std::stoi(shortest.substr(shortest.find('e') + 1))))
      << text << " against " << shortest;
}

TEST(NumberText, IntegersMatchToChars) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t bits = rng() >> (rng() % 64);
    ASSERT_EQ(integer_text(bits), reference_text(bits));
    ASSERT_EQ(integer_text(static_cast<std::int64_t>(bits)),
              reference_text(static_cast<std::int64_t>(bits)));
    ASSERT_EQ(integer_text(static_cast<std::int32_t>(bits)),
              reference_text(static_cast<std::int32_t>(bits)));
  }
  for (std::uint64_t power : powers_of_ten) {
    for (std::uint64_t v : {power - 1, power, power + 1})
      EXPECT_EQ(integer_text(v), reference_text(v));
  }
  for (std::uint32_t v = 0; v < 100000; ++v) ASSERT_EQ(integer_text(v), reference_text(v));
  EXPECT_EQ(integer_text(0), "0");
  EXPECT_EQ(integer_text(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(integer_text(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(integer_text(std::int8_t{-128}), "-128");
  // Every value of the narrow types, whose negative values widen with their sign.
  for (int v = -32768; v <= 32767; ++v) {
    ASSERT_EQ(integer_text(static_cast<std::int16_t>(v)), reference_text(v));
    ASSERT_EQ(integer_text(static_cast<std::uint16_t>(v)),
              reference_text(static_cast<std::uint16_t>(v)));
  }
  for (int v = -128; v <= 127; ++v)
    ASSERT_EQ(integer_text(static_cast<std::int8_t>(v)), reference_text(v));
}

// Sixteen digits at once: the digits of every four-digit group in every place, and where the
// trailing zeros begin.
TEST(NumberText, SixteenDigits) {
  std::mt19937_64 rng(31);
  const auto check = [](std::uint64_t n) {
    char expected[17];
    std::snprintf(expected, sizeof expected, "%016llu", static_cast<unsigned long long>(n));
    std::size_t significant = 16;
    while (significant != 0 && expected[significant - 1] == '0') --significant;
    char text[16];
    const sixteen_digits digits(n);
    digits.store(text);
    ASSERT_EQ(std::string(text, 16), expected);
    ASSERT_EQ(digits.significant(), static_cast<int>(significant)) << expected;
  };
  constexpr std::uint64_t e4 = 10000;
  for (std::uint64_t group = 0; group < e4; ++group) {
    check(((group * e4 + group) * e4 + group) * e4 + group);
    check(group * e4 * e4 * e4);
    check(group);
  }
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t n = rng() % powers_of_ten[16];
    check(n);
    check(n / powers_of_ten[rng() % 16] * powers_of_ten[rng() % 16] % powers_of_ten[16]);
  }
}

// Digits on both sides of the point: every split of 2 to 17 digits, both signs, so the fraction
// is copied with one and with two stores.
TEST(NumberText, ShortestFloatsWithDigitsAroundThePoint) {
  std::mt19937_64 rng(13);
  for (int digits = 2; digits <= 17; ++digits) {
    for (int whole = 1; whole < digits; ++whole) {
      for (int i = 0; i < 300; ++i) {
        std::string text = (i & 1) ? "-" : "";
        text += static_cast<char>('1' + rng() % 9);
        for (int k = 1; k < digits; ++k) {
          if (k == whole) text += '.';
          text += static_cast<char>('0' + (k + 1 == digits ? 1 + rng() % 9 : rng() % 10));
        }
        double value = 0;
        bale::detail::float_from_chars(text.data(), text.data() + text.size(), value);
        expect_shortest(value);
        if (digits <= 15) {  // fifteen digits always read back, so these are the shortest
          EXPECT_EQ(shortest_text(value), text);
        }
        expect_shortest(static_cast<float>(value));
      }
    }
  }
}

TEST(NumberText, ShortestFloatsExactText) {
  EXPECT_EQ(shortest_text(0.0), "0");
  EXPECT_EQ(shortest_text(-0.0), "-0");
  EXPECT_EQ(shortest_text(0.1), "0.1");
  EXPECT_EQ(shortest_text(0.3), "0.3");
  EXPECT_EQ(shortest_text(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(shortest_text(1.5), "1.5");
  EXPECT_EQ(shortest_text(100.0), "100");
  EXPECT_EQ(shortest_text(123456.789), "123456.789");
  EXPECT_EQ(shortest_text(1e-5), "1e-05");
  EXPECT_EQ(shortest_text(0.0001), "1e-04");
  EXPECT_EQ(shortest_text(0.001), "0.001");
  EXPECT_EQ(shortest_text(1e21), "1e+21");
  EXPECT_EQ(shortest_text(1e22), "1e+22");
  EXPECT_EQ(shortest_text(1e23), "1e+23");
  EXPECT_EQ(shortest_text(-1e300), "-1e+300");
  EXPECT_EQ(shortest_text(5e-324), "5e-324");
  EXPECT_EQ(shortest_text(8e-323), "8e-323");
  EXPECT_EQ(shortest_text(2.2250738585072014e-308), "2.2250738585072014e-308");
  EXPECT_EQ(shortest_text(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(shortest_text(9007199254740993.0), "9007199254740992");
  EXPECT_EQ(shortest_text(std::ldexp(1.0, 60)), "1152921504606847000");
  EXPECT_EQ(shortest_text(0.1f), "0.1");
  EXPECT_EQ(shortest_text(16777216.0f), "16777216");
  EXPECT_EQ(shortest_text(3.4028235e38f), "3.4028235e+38");
  EXPECT_EQ(shortest_text(1e-45f), "1e-45");
  EXPECT_EQ(shortest_text(-0.55601364f), "-0.55601364");
}

TEST(NumberText, ShortestFloatsAgreeWithToChars) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 300000; ++i) {
    expect_shortest(std::bit_cast<double>(rng()));
    expect_shortest(std::bit_cast<float>(static_cast<std::uint32_t>(rng())));
    expect_shortest(static_cast<double>(rng() % 100000000) / 100.0);
    expect_shortest(static_cast<float>(rng() % 1000000) / 1000.0f);
  }
  // Every power of two and its neighbours: the boundary cases of the rounding interval.
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    expect_shortest(p);
    expect_shortest(std::nextafter(p, 0.0));
    expect_shortest(std::nextafter(p, 2.0 * p));
  }
  for (int e = -149; e <= 127; ++e) {
    const float p = std::ldexp(1.0f, e);
    expect_shortest(p);
    expect_shortest(std::nextafter(p, 0.0f));
    expect_shortest(std::nextafter(p, 2.0f * p));
  }
  // The smallest normal doubles, on both sides of where the one-product path's power of ten
  // leaves the table (below about 1e-306, Schubfach's candidates take over).
  for (std::uint64_t biased = 1; biased <= 12; ++biased) {
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t fraction = rng() & ((std::uint64_t{1} << 52) - 1);
      expect_shortest(std::bit_cast<double>(biased << 52 | fraction));
    }
  }
  // Every small subnormal, where the digits are few.
  for (std::uint64_t bits = 1; bits < 5000; ++bits) {
    expect_shortest(std::bit_cast<double>(bits));
    expect_shortest(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
  }
  for (std::int64_t i = -100000; i <= 100000; ++i) {
    expect_shortest(static_cast<double>(i));
    expect_shortest(static_cast<float>(i) * 1e7f);
  }
}

// The digit path (one product, a multiple of ten's trailing zeros left to the writer) decides
// from fixed-point estimates and steps aside where they come within its margin of a boundary;
// where it answers, the answer must be the exact one-product path's (Schubfach's four candidates
// where a double's power of ten is not in that path's table). Checked on random bits, and on
// decimals of one digit up to the type's longest at every magnitude with their neighbours, which
// put a multiple of ten at or near an end of the rounding interval. Exact ties and interval ends
// need exponents q in [exact_q_min, exact_q_max] (a tie needs x's binary fraction short enough
// for c, k - q at most the significand's bits; an end on a multiple of ten needs 5^(k + 1) to
// divide 2c +- 1); elsewhere no random value steps aside.
template <class T>
void expect_digit_path_exact(std::uint64_t seed, int random_values, int max_digits,
                             int min_exponent, int max_exponent, int samples, int exact_q_min,
                             int exact_q_max) {
  using traits = float_traits<T>;
  using bits_type = typename traits::bits;
  constexpr int fraction_bits = traits::fraction_bits;
  std::mt19937_64 rng(seed);
  int answered = 0, stepped_aside = 0, random_aside = 0;
  bool random = true;
  const auto check = [&](T value) {
    value = std::fabs(value);
    if (!std::isfinite(value) || value == 0) return;
    const auto bits = std::bit_cast<bits_type>(value);
    const auto biased = static_cast<int>(bits >> fraction_bits);
    const std::uint64_t fraction = bits & ((bits_type{1} << fraction_bits) - 1);
    if (biased <= 1 || fraction == 0) return;  // not the symmetric, normal case it serves
    const std::uint64_t c = fraction | std::uint64_t{1} << fraction_bits;
    const int q = biased - 1 + traits::min_exponent;
    decimal_value fast{};
    if (!shortest_decimal_from_digits<T>(c, q, fast)) {
      ++stepped_aside;
      if (random && (q < exact_q_min || q > exact_q_max)) ++random_aside;
      return;
    }
    ++answered;
    if constexpr (std::is_same_v<T, double>) {
      ASSERT_GE(fast.significand, 1000000000000000u) << std::hexfloat << value;
      ASSERT_LT(fast.significand, 100000000000000000u) << std::hexfloat << value;
    } else {
      // Nine digits only when all nine are needed; a multiple of ten comes divided by ten.
      ASSERT_LT(fast.significand, 1000000000u) << std::hexfloat << value;
      if (fast.significand >= 100000000u) {
        ASSERT_NE(fast.significand % 10, 0u) << value;
      }
    }
    decimal_value exact = std::is_same_v<T, float> || double_power_in_table(q)
                              ? shortest_decimal_one_product<T>(c, q)
                              : shortest_decimal_four_candidates<T>(c, q, biased);
    remove_trailing_zeros(fast);
    remove_trailing_zeros(exact);
    ASSERT_EQ(fast.significand, exact.significand) << std::hexfloat << value;
    ASSERT_EQ(fast.exponent, exact.exponent) << std::hexfloat << value;
  };
  for (int i = 0; i < random_values; ++i) check(std::bit_cast<T>(static_cast<bits_type>(rng())));
  random = false;
  const T huge = std::numeric_limits<T>::infinity();
  for (int digits = 1; digits <= max_digits; ++digits) {
    for (int exponent = min_exponent; exponent <= max_exponent; exponent += 1) {
      for (int i = 0; i < samples; ++i) {
        std::uint64_t significand = rng() % powers_of_ten[digits];
        if (i < 3) significand = powers_of_ten[digits] - 1 - static_cast<std::uint64_t>(i);
        const std::string text = std::to_string(significand) + "e" + std::to_string(exponent);
        T value;
        if constexpr (std::is_same_v<T, double>)
          value = std::strtod(text.c_str(), nullptr);
        else
          value = std::strtof(text.c_str(), nullptr);
        check(value);
        check(std::nextafter(value, T{0}));
        check(std::nextafter(value, huge));
      }
    }
  }
  EXPECT_GT(answered, random_values * 9 / 10);
  // An inexact value steps aside when within the margin of a boundary: about once in 2^56
  // (double) or 2^30 (float), so not among these random values. What does step aside is exact: a
  // tie halfway between two integers, or a short decimal on an end of the interval.
  EXPECT_EQ(random_aside, 0);
  EXPECT_LT(stepped_aside, answered / 20) << stepped_aside;
}

TEST(NumberText, DigitPathAgreesWithExactPath) {
  expect_digit_path_exact<double>(29, 2000000, 17, -320, 300, 12, -77, 76);
  expect_digit_path_exact<float>(31, 4000000, 9, -46, 38, 200, -35, 33);
}

// Doubles with up to six decimal places take a path of their own (one product and one division);
// it must agree with to_chars at every number of places, at every magnitude it covers, at its
// upper edge 2^52 / 10^6, and on the neighbours of such values, which must take the general path.
TEST(NumberText, ShortDecimalsAgreeWithToChars) {
  std::mt19937_64 rng(13);
  for (int i = 0; i < 200000; ++i) {
    const int places = static_cast<int>(rng() % 7);
    const std::uint64_t digits = rng() % powers_of_ten[1 + rng() % 16];
    const double value = static_cast<double>(digits) / static_cast<double>(powers_of_ten[places]);
    expect_shortest(value);
    expect_shortest(-value);
    expect_shortest(std::nextafter(value, 0.0));
    expect_shortest(std::nextafter(value, 1e300));
  }
  const double edge = 0x1p52 / 1e6;
  double below = edge, above = edge;
  for (int i = 0; i < 1000; ++i) {
    below = std::nextafter(below, 0.0);
    above = std::nextafter(above, 1e300);
    expect_shortest(below);
    expect_shortest(above);
  }
  for (std::uint64_t m = 1; m < 20000; ++m) {
    expect_shortest(static_cast<double>(m) / 1e6);
    expect_shortest(static_cast<double>(m) / 1e7);
    expect_shortest(4503599627.0 + static_cast<double>(m) / 1e6);
  }
  EXPECT_EQ(shortest_text(37936.21), "37936.21");
  EXPECT_EQ(shortest_text(0.000001), "1e-06");
  EXPECT_EQ(shortest_text(0.25), "0.25");
  EXPECT_EQ(shortest_text(4503599627.370495), "4503599627.370495");
  EXPECT_EQ(shortest_text(123456.7), "123456.7");
}

// A significand below 10^8 is laid out from one word of its digits, its leading and trailing
// zeros counted from the word's zero bytes: every digit count, with every number of trailing
// zeros, at every exponent where each form (integer, digits around the point, "0.00..", scientific)
// begins and ends, as to_chars lays out the same decimal (exact in a double: at most 8 digits).
TEST(NumberText, DecimalsBelow1e8LaidOutAsToChars) {
  std::mt19937_64 rng(17);
  for (int digits = 1; digits <= 8; ++digits) {
    for (int zeros = 0; digits + zeros <= 8; ++zeros) {
      for (int i = 0; i < 20; ++i) {
        // digits significant digits, the last nonzero, then zeros trailing zeros.
        std::uint64_t significant =
            powers_of_ten[digits - 1] + rng() % (9 * powers_of_ten[digits - 1]);
        if (significant % 10 == 0) ++significant;
        const std::uint64_t significand = significant * powers_of_ten[zeros];
        for (int exponent = -40; exponent <= 20; ++exponent) {
          char text[64];
          const std::string ours(
              text,
              write_decimal_below_1e8(text, static_cast<std::uint32_t>(significand), exponent));
          const double value =
              std::stod(std::to_string(significand) + "e" + std::to_string(exponent));
          ASSERT_EQ(ours, reference_text(value)) << significand << "e" << exponent;
        }
      }
    }
  }
}

// Stripping trailing zeros by the inverse of a power of five must divide exactly when 10^k
// divides and never otherwise, up to the top of 64 bits. It strips at most 17 zeros (a double's
// shortest digits have at most 17).
TEST(NumberText, TrailingZerosStripExactly) {
  auto expected = [](std::uint64_t n) {
    decimal_value d{n, 0};
    while (d.exponent < 17 && d.significand != 0 && d.significand % 10 == 0) {
      d.significand /= 10;
      ++d.exponent;
    }
    return d;
  };
  auto check = [&](std::uint64_t n) {
    if (n == 0) return;  // zero is written before any digits are made
    decimal_value d{n, 0};
    remove_trailing_zeros(d);
    const decimal_value want = expected(n);
    ASSERT_EQ(d.significand, want.significand) << n;
    ASSERT_EQ(d.exponent, want.exponent) << n;
  };
  std::mt19937_64 rng(12);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t m = rng() % 1000000 + 1;
    const std::uint64_t zeros = rng() % 14;
    check(m * powers_of_ten[zeros]);
    check(m * powers_of_ten[zeros] + 1);
    check(rng());
  }
  for (int k = 0; k <= 19; ++k) {
    const std::uint64_t p = powers_of_ten[k];
    const std::uint64_t top = std::numeric_limits<std::uint64_t>::max() / p * p;
    for (std::uint64_t d = 0; d < 3; ++d) {
      check(p + d);
      check(top - d);
      check(top - d * p);
    }
  }
}

template <class T>
void expect_fast_read(std::uint64_t significand, int exponent, bool negative) {
  decimal_parts parts;
  parts.significand = significand;
  parts.exponent = exponent;
  parts.negative = negative;
  T value{};
  if (!decimal_to_float_exact(parts, value)) return;  // the caller falls back to from_chars
  const std::string text =
      (negative ? "-" : "") + std::to_string(significand) + "e" + std::to_string(exponent);
  T expected{};
  bale::detail::float_from_chars(text.data(), text.data() + text.size(), expected);
  ASSERT_EQ(std::bit_cast<typename float_traits<T>::bits>(value),
            std::bit_cast<typename float_traits<T>::bits>(expected))
      << text;
}

TEST(NumberText, ExactReadsAgreeWithFromChars) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 300000; ++i) {
    const std::uint64_t significand = rng() >> (rng() % 64);
    const int exponent = static_cast<int>(rng() % 61) - 30;
    expect_fast_read<double>(significand, exponent, rng() % 2 == 0);
    expect_fast_read<float>(significand, exponent, rng() % 2 == 0);
    expect_fast_read<float>(significand % 1000000000, exponent / 3, false);
  }
  // The ends of the exact range stay inside the normal floats (no range check is made there).
  for (const std::uint64_t significand : {std::uint64_t{1}, std::uint64_t{1} << 53})
    for (const int exponent : {-22, 22}) expect_fast_read<float>(significand, exponent, true);
  // Halfway between two floats, exactly as a double: the fast path must refuse it.
  decimal_parts halfway;
  halfway.significand = 16777217;  // 2^24 + 1
  float value = 0;
  EXPECT_FALSE(decimal_to_float_exact(halfway, value));
  halfway.exact = false;
  halfway.significand = 1;
  EXPECT_FALSE(decimal_to_float_exact(halfway, value));
}

// Significands up to 19 digits at every exponent, doubles' own 17 digits and their neighbours,
// and ties just above 2^53 and 2^54: the product path agrees with from_chars wherever it answers.
void expect_product_read(std::uint64_t significand, int exponent, bool negative) {
  decimal_parts parts;
  parts.significand = significand;
  parts.exponent = exponent;
  parts.negative = negative;
  double value = 0;
  if (!decimal_to_double_product(parts, value)) return;
  const std::string text =
      (negative ? "-" : "") + std::to_string(significand) + "e" + std::to_string(exponent);
  double expected = 0;
  const auto result =
      bale::detail::float_from_chars(text.data(), text.data() + text.size(), expected);
  ASSERT_EQ(result.ec, std::errc{}) << text;
  ASSERT_EQ(std::bit_cast<std::uint64_t>(value), std::bit_cast<std::uint64_t>(expected)) << text;
}

TEST(NumberText, ProductReadsAgreeWithFromChars) {
  std::mt19937_64 rng(9);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t significand =
        i % 2 ? rng() % 10000000000000000000ULL : rng() >> (rng() % 64);
    expect_product_read(significand, static_cast<int>(rng() % 700) - 350, rng() % 2 == 0);
  }
  for (int i = 0; i < 50000; ++i) {
    const double d = std::bit_cast<double>(rng() & 0x7FEFFFFFFFFFFFFFULL);
    char text[64];
    char* end = std::to_chars(text, text + sizeof text, d, std::chars_format::scientific, 16).ptr;
    const auto [significand, exponent] = bale_test::read_scientific(text, end);
    for (std::uint64_t s : {significand - 1, significand, significand + 1})
      expect_product_read(s, exponent, false);
    expect_product_read(significand * 10 + 5, exponent - 1, true);
  }
  for (std::uint64_t m = (1ULL << 53) + 1; m < (1ULL << 53) + 20000; m += 2)
    expect_product_read(m, 0, false);
  for (std::uint64_t m = (1ULL << 54) + 2; m < (1ULL << 54) + 40000; m += 4)
    expect_product_read(m, 0, false);
  // Ties must be refused, not rounded up: 2^53 + 1 is halfway between 2^53 and 2^53 + 2.
  decimal_parts tie;
  tie.significand = (1ULL << 53) + 1;
  double value = 0;
  EXPECT_FALSE(decimal_to_double_product(tie, value));
  // Zero, the range's ends, and what is left to the full conversion.
  decimal_parts parts;
  parts.negative = true;
  ASSERT_TRUE(decimal_to_double_product(parts, value));
  EXPECT_EQ(std::bit_cast<std::uint64_t>(value), std::bit_cast<std::uint64_t>(-0.0));
  parts = {1, 309, false, true};
  EXPECT_FALSE(decimal_to_double_product(parts, value));  // beyond the largest double
  parts = {17976931348623157ULL, 292, false, true};
  ASSERT_TRUE(decimal_to_double_product(parts, value));
  EXPECT_EQ(value, 1.7976931348623157e308);
  parts = {17976931348623159ULL, 292, false, true};
  EXPECT_FALSE(decimal_to_double_product(parts, value));  // rounds past the largest double
  parts = {5, -324, false, true};
  EXPECT_FALSE(decimal_to_double_product(parts, value));  // subnormal
  parts = {1, 0, false, false};
  EXPECT_FALSE(decimal_to_double_product(parts, value));  // more than 19 significant digits
}

}  // namespace
