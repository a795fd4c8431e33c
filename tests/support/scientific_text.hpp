// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading std::to_chars's scientific text back as an integer significand and a power of ten, for
// tests that compare bale's number text with the standard library's.

#include <charconv>
#include <cstdint>

namespace bale_test {

struct scientific_decimal {
  std::uint64_t significand;  // all the digits written, in order
  int exponent;               // of the last digit
};

/// Text such as "-1.2345e+07" (at most 19 digits) as 12345 and 3.
inline scientific_decimal read_scientific(const char* text, const char* end) {
  std::uint64_t significand = 0;
  int digits = 0;
  const char* p = text;
  for (; p != end && *p != 'e'; ++p) {
    if (*p >= '0' && *p <= '9') {
      significand = significand * 10 + static_cast<std::uint64_t>(*p - '0');
      ++digits;
    }
  }
  int exponent = 0;
  if (p != end) std::from_chars(p + 1 + (p[1] == '+'), end, exponent);
  return {significand, exponent - (digits - 1)};
}

}  // namespace bale_test
