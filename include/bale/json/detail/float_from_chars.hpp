// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::from_chars for a floating-point type, and where the standard library lacks it (libc++
// before 20) the C library's strtod family in the "C" locale, so that a user's locale never
// changes what a JSON number means. Only the rare numbers the exact paths of number_reader.hpp
// leave come here, already checked against JSON's grammar.

#include <cerrno>
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>
#include <type_traits>

#if defined(_LIBCPP_VERSION)
#include <locale.h>
#include <stdlib.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif
#endif

namespace bale::detail {

template <class T>
concept has_float_from_chars = requires(const char* text, T& value) {
  std::from_chars(text, text, value);
};

#if defined(_LIBCPP_VERSION)
inline locale_t c_numeric_locale() noexcept {
  static const locale_t locale = newlocale(LC_NUMERIC_MASK, "C", locale_t{});
  return locale;
}

template <class T>
std::from_chars_result strto_in_c_locale(const char* first, const char* last, T& value) {
  const std::string text(first, last);  // the C functions need a terminating zero
  char* end = nullptr;
  errno = 0;
  T parsed{};
  if constexpr (std::is_same_v<T, float>)
    parsed = strtof_l(text.c_str(), &end, c_numeric_locale());
  else if constexpr (std::is_same_v<T, double>)
    parsed = strtod_l(text.c_str(), &end, c_numeric_locale());
  else
    parsed = strtold_l(text.c_str(), &end, c_numeric_locale());
  const char* ptr = first + (end - text.c_str());
  // ERANGE also marks a subnormal result, which from_chars returns as a value.
  if (errno == ERANGE && (parsed == T{} || std::isinf(parsed)))
    return {ptr, std::errc::result_out_of_range};
  if (end == text.c_str()) return {first, std::errc::invalid_argument};
  value = parsed;
  return {ptr, std::errc{}};
}
#endif

/// std::from_chars(first, last, value) for float, double and long double on every library.
template <class T>
std::from_chars_result float_from_chars(const char* first, const char* last, T& value) {
  if constexpr (has_float_from_chars<T>) {
    return std::from_chars(first, last, value);
  } else {
#if defined(_LIBCPP_VERSION)
    return strto_in_c_locale(first, last, value);
#else
    static_assert(has_float_from_chars<T>, "the standard library lacks floating-point from_chars");
#endif
  }
}

}  // namespace bale::detail
