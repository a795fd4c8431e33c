// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading JSON numbers, beside number_text.hpp which writes them: the RFC 8259 grammar checked
// as the digits are gathered, the usual short forms read word-wise, exact conversion where a
// double holds the value, from_chars otherwise. One range check serves every integer type.

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "bale/core/error.hpp"
#include "bale/json/detail/cursor.hpp"
#include "bale/json/detail/decimal_text.hpp"
#include "bale/json/detail/float_from_chars.hpp"
#include "bale/json/detail/text.hpp"

namespace bale::detail {

class json_number_reader : public json_cursor {
 public:
  using json_cursor::json_cursor;

 protected:
  /// A bool, integer or floating-point value.
  template <class T>
  void read_number(T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      read_bool(value);
    } else if constexpr (std::is_floating_point_v<T>) {
      read_float(value);
    } else {
      read_integer(value);
    }
  }

  /// Stores a sign and magnitude in value when T holds it. With `Short`, the magnitude has at most
  /// seven digits, which every integer of 32 bits or more holds: only narrower ones, and unsigned
  /// ones given a negative, are checked.
  template <class T, bool Short = false>
  [[gnu::always_inline]] static bool store_integer(bool negative, std::uint64_t magnitude,
                                                   T& value) noexcept {
    using limits_t = std::numeric_limits<T>;
    constexpr bool holds_any_short = sizeof(T) >= 4;
    if constexpr (std::is_signed_v<T>) {
      if (!(Short && holds_any_short) &&
          magnitude > static_cast<std::uint64_t>(limits_t::max()) + negative)
        return false;
      value = negative ? static_cast<T>(0 - magnitude) : static_cast<T>(magnitude);
    } else {
      if (negative && magnitude != 0) return false;
      if (!(Short && holds_any_short) && magnitude > limits_t::max()) return false;
      value = static_cast<T>(magnitude);
    }
    return true;
  }

  // Checks the RFC 8259 number grammar from pos_ and gathers the parts that decide its value in
  // the same pass; returns where it ends and whether it is an integer (no fraction, no exponent).
  [[gnu::always_inline]] const char* scan_number(bool& integral, decimal_parts& parts) {
    const char* p = pos_;
    integral = true;
    parts = {};
    auto digit_at = [](const char* q) { return static_cast<unsigned>(*q - '0'); };
    std::uint64_t significand = 0;
    if (p < end_ && *p == '-') {
      parts.negative = true;
      ++p;
    }
    if (p >= end_) fail(errc::end_of_input, "expected a number, input ends");
    const char* const first_digit = p;
    if (*p == '0') {
      ++p;
      if (p < end_ && digit_at(p) < 10)
        fail_at(errc::invalid_value, "leading zero in a number", offset());
    } else if (digit_at(p) < 10) {
      p = append_digits(p, significand);
    } else {
      fail_expected("a number");
    }
    std::ptrdiff_t digits = p - first_digit;
    if (p < end_ && *p == '.') {
      integral = false;
      ++p;
      if (p >= end_ || digit_at(p) >= 10)
        fail_at(errc::invalid_value, "expected a digit after '.'",
                static_cast<std::size_t>(p - begin_));
      const char* const fraction = p;
      p = append_digits(p, significand);
      parts.exponent = -static_cast<int>(p - fraction);
      digits += p - fraction;
    }
    if (digits > 19) {
      // Leading zeros (0.000...) do not count.
      std::ptrdiff_t significant = 0;
      for (const char* q = first_digit; q < p; ++q)
        significant += (significant != 0 || (*q != '0' && *q != '.')) && *q != '.';
      parts.exact = significant <= 19;
    }
    parts.significand = significand;
    if (p < end_ && (*p == 'e' || *p == 'E')) {
      integral = false;
      ++p;
      bool negative_exponent = false;
      if (p < end_ && (*p == '+' || *p == '-')) negative_exponent = *p++ == '-';
      if (p >= end_ || digit_at(p) >= 10)
        fail_at(errc::invalid_value, "expected a digit in the exponent",
                static_cast<std::size_t>(p - begin_));
      // Saturates far past any double's range, so a long exponent is never cut to a small one;
      // the general path then reads the text itself.
      int exponent = 0;
      for (; p < end_ && digit_at(p) < 10; ++p)
        if (exponent < 100'000'000) exponent = exponent * 10 + static_cast<int>(digit_at(p));
      parts.exponent += negative_exponent ? -exponent : exponent;
    }
    return p;
  }

  // The usual number of minified text, -?digits.digits with at most 19 digits and no exponent,
  // while 40 bytes are left: its parts from a few word-wise digit runs, with no loop over the
  // input's end. Anything else returns nullptr and scan_number reads it (and reports errors).
  [[gnu::always_inline]] const char* scan_plain_decimal(decimal_parts& parts) const noexcept {
    const char* p = pos_;
    if (end_ - p < 40) return nullptr;
    parts.negative = *p == '-';
    p += parts.negative;
    // One to seven digits with no leading zero, then the point; one digit is the usual case.
    digit_run whole{1, static_cast<unsigned>(*p - '0')};
    if (whole.value >= 10 || p[1] != '.') {
      whole = leading_digits(p);
      if (whole.count < 2 || whole.count == 8 || *p == '0' || p[whole.count] != '.') return nullptr;
    }
    p += whole.count + 1;
    const char* const fraction = p;
    std::uint64_t significand = whole.value;
    for (int runs = 0;; ++runs) {  // at most 24 fraction digits: within the 40 bytes
      const digit_run run = leading_digits(p);
      significand = significand * powers_of_ten[run.count] + run.value;
      p += run.count;
      // A run of eight ends the fraction when no digit follows (a float's eight digits).
      if (run.count != 8 || static_cast<unsigned>(*p - '0') >= 10) break;
      if (runs == 2) return nullptr;
    }
    const std::ptrdiff_t fraction_digits = p - fraction;
    if (fraction_digits == 0 || whole.count + fraction_digits > 19 || (*p | 0x20) == 'e')
      return nullptr;
    parts.significand = significand;
    parts.exponent = -static_cast<int>(fraction_digits);
    return p;
  }

  // The run of digits at q appended to significand, which wraps past 19 digits (scan_number
  // counts those again); returns the run's end. Inlined: it is most of a number's reading.
  [[gnu::always_inline]] const char* append_digits(const char* q,
                                                   std::uint64_t& significand) const noexcept {
    // Up to eight digits per step while eight bytes are left, then one at a time.
    std::uint64_t value = significand;
    while (end_ - q >= 8) {
      const digit_run run = leading_digits(q);
      value = value * powers_of_ten[run.count] + run.value;
      q += run.count;
      // A shorter run ends here; so does a run of exactly eight before a non-digit.
      if (run.count != 8 || (q < end_ && static_cast<unsigned>(*q - '0') >= 10)) {
        significand = value;
        return q;
      }
    }
    for (; q < end_ && static_cast<unsigned>(*q - '0') < 10; ++q)
      value = value * 10 + static_cast<unsigned>(*q - '0');
    significand = value;
    return q;
  }

  template <class T>
  void read_integer(T& value) {
    if (!read_plain_integer(value)) read_integer_long(value);
  }
  // The usual integer, one to seven digits with room to read a word past it: one word-wise
  // digit run; the byte after it is known not to be a digit. Such a magnitude fits any integer
  // of 32 bits or more, so only narrower ones and unsigned negatives check the range. False for
  // every other form and every error.
  template <class T>
  [[gnu::always_inline]] bool read_plain_integer(T& value) {
    if (end_ - pos_ >= 20) {
      const char* p = pos_;
      const bool negative = *p == '-';
      p += negative;
      const digit_run run = leading_digits(p);
      const char next = p[run.count];
      if (static_cast<unsigned>(run.count) - 1U < 7U && next != '.' && (next | 0x20) != 'e' &&
          (run.count == 1 || *p != '0')) {
        if (store_integer<T, true>(negative, run.value, value)) {
          pos_ = p + run.count;
          return true;
        }
      }
    }
    return false;
  }
  // Up to 18 digits (they cannot overflow 64 bits) followed by a plain delimiter; anything else
  // goes to read_integer_checked, which reports errors.
  template <class T>
  [[gnu::noinline]] void read_integer_long(T& value) {
    {
      const char* p = pos_;
      const bool negative = p < end_ && *p == '-';
      if (negative) ++p;
      const char* digits = p;
      std::uint64_t magnitude = 0;
      if (end_ - p >= 16) {  // up to sixteen digits in two steps
        digit_run run = leading_digits(p);
        magnitude = run.value;
        p += run.count;
        if (run.count == 8) {
          run = leading_digits(p);
          magnitude = magnitude * powers_of_ten[run.count] + run.value;
          p += run.count;
        }
      } else {
        while (p < end_ && p - digits < 19 && static_cast<unsigned>(*p - '0') < 10)
          magnitude = magnitude * 10 + static_cast<unsigned>(*p++ - '0');
      }
      const std::ptrdiff_t n = p - digits;
      const bool delimited = p == end_ || (*p != '.' && *p != 'e' && *p != 'E' &&
                                           static_cast<unsigned>(*p - '0') >= 10);
      if (n > 0 && n < 19 && delimited && (n == 1 || *digits != '0')) {
        if (store_integer(negative, magnitude, value)) {
          pos_ = p;
          return;
        }
      }
    }
    read_integer_checked(value);
  }
  template <class T>
  [[gnu::noinline]] void read_integer_checked(T& value) {
    const std::size_t at = offset();
    bool integral = true;
    decimal_parts parts;
    const char* end = scan_number(integral, parts);
    if (!integral) fail_at(errc::invalid_value, "expected an integer", at);
    const char* p = pos_;
    const bool negative = *p == '-';
    if (negative) ++p;
    std::uint64_t magnitude = 0;
    for (; p < end; ++p) {
      const auto digit = static_cast<unsigned>(*p - '0');
      if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
        fail_at(errc::invalid_value, "integer does not fit 64 bits", at);
      magnitude = magnitude * 10 + digit;
    }
    if (!store_integer(negative, magnitude, value))
      fail_at(errc::invalid_value,
              error_text({std::string_view(pos_, static_cast<std::size_t>(end - pos_)),
                          " does not fit a ", sizeof(T) * 8, "-bit ",
                          std::is_signed_v<T> ? "signed" : "unsigned", " integer"}),
              at);
    pos_ = end;
  }

  // The usual number in a few instructions; false for every other form and every error.
  template <class T>
  [[gnu::always_inline]] bool read_plain_float(T& value) {
    decimal_parts parts;
    if (const char* end = scan_plain_decimal(parts); end != nullptr) {
      // A plain decimal is exact and has 1 to 18 fraction digits: only the significand's size
      // decides whether one division is exact enough.
      bool done = parts.significand <= (std::uint64_t{1} << 53) &&
                  exact_quotient_to_float(parts.significand, parts.exponent, parts.negative, value);
      if constexpr (std::is_same_v<T, double>) {
        if (!done) done = decimal_to_double_product(parts, value);
      }
      if (done) {
        pos_ = end;
        return true;
      }
    }
    return false;
  }

  template <class T>
  void read_float(T& value) {
    if (!read_plain_float(value)) read_float_general(value);
  }
  template <class T>
  [[gnu::noinline]] void read_float_general(T& value) {
    const std::size_t at = offset();
    if (options_.allow_non_finite) {
      if (literal("NaN")) {
        value = std::numeric_limits<T>::quiet_NaN();
        return;
      }
      if (literal("Infinity")) {
        value = std::numeric_limits<T>::infinity();
        return;
      }
      if (literal("-Infinity")) {
        value = -std::numeric_limits<T>::infinity();
        return;
      }
    }
    bool integral = true;
    decimal_parts parts;
    const char* end = scan_number(integral, parts);
    bool done = decimal_to_float_exact(parts, value);
    if constexpr (std::is_same_v<T, double>) {
      if (!done) done = decimal_to_double_product(parts, value);
    }
    if (!done) {
      const auto result = float_from_chars(pos_, end, value);
      if (result.ec == std::errc::result_out_of_range) {
        // Too small for the type reads as zero (as other JSON parsers read it); too large fails.
        if (!rounds_to_zero(pos_, end))
          fail_at(errc::invalid_value,
                  error_text({std::string_view(pos_, static_cast<std::size_t>(end - pos_)),
                              " is out of range"}),
                  at);
        value = *pos_ == '-' ? -T{} : T{};
        pos_ = end;
        return;
      }
      if (result.ec != std::errc{} || result.ptr != end)
        fail_at(errc::invalid_value, "not a number", at);
    }
    pos_ = end;
  }

 private:
  // Whether a number that is out of range is so for being too small: the power of ten of its
  // first significant digit is negative.
  static bool rounds_to_zero(const char* p, const char* end) noexcept {
    if (p < end && *p == '-') ++p;
    long long magnitude = 0;  // digits before the point, or minus the zeros after it
    bool significant = false;
    for (; p < end && *p >= '0' && *p <= '9'; ++p)
      if (significant || *p != '0') {
        significant = true;
        ++magnitude;
      }
    if (p < end && *p == '.')
      for (++p; p < end && *p >= '0' && *p <= '9'; ++p) {
        if (!significant && *p != '0') significant = true;
        if (!significant) --magnitude;
      }
    long long exponent = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
      ++p;
      const bool negative = p < end && *p == '-';
      if (p < end && (*p == '+' || *p == '-')) ++p;
      for (; p < end && *p >= '0' && *p <= '9'; ++p)
        if (exponent < 1'000'000'000'000LL) exponent = exponent * 10 + (*p - '0');
      if (negative) exponent = -exponent;
    }
    return magnitude + exponent < 0;
  }

  void read_bool(bool& value) {
    if (end_ - pos_ >= 5) {  // one word compared, not a call per literal
      if (same_bytes(pos_, "true", 4)) {
        value = true;
        pos_ += 4;
        return;
      }
      if (same_bytes(pos_, "false", 5)) {
        value = false;
        pos_ += 5;
        return;
      }
    }
    if (literal("true"))
      value = true;
    else if (literal("false"))
      value = false;
    else
      fail_expected("true or false");
  }
};

}  // namespace bale::detail
