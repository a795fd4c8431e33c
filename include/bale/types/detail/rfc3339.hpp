// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::chrono::system_clock time points as RFC 3339 UTC text ("2026-11-25T08:30:00.125Z"), for
// archives whose values are meant for people (JSON). The fraction has as many digits as the time
// point's period needs (none for seconds, 3 for milliseconds, 9 for nanoseconds); reading accepts
// any offset ("+02:00" or "Z"), a lower-case 't' or 'z', and refuses a fraction finer than the
// time point can hold, so that what is read is exactly what was written.

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <ratio>
#include <string>
#include <string_view>

namespace bale::detail {

// Digits after the second for a period of 1/10^k seconds (k), or of whole seconds (0); nothing for
// any other period, whose time points stay counts.
template <class Period>
constexpr std::optional<int> rfc3339_fraction_digits() {
  if constexpr (Period::den == 1) {
    return 0;
  } else if constexpr (Period::num == 1) {
    std::intmax_t power = 1;
    for (int k = 0; k <= 18; ++k, power *= 10)
      if (power == Period::den) return k;
    return std::nullopt;
  } else {
    return std::nullopt;
  }
}

template <class Duration>
concept rfc3339_duration = std::integral<typename Duration::rep> &&
    rfc3339_fraction_digits<typename Duration::period>()
.has_value();

inline void put_digits(std::string& out, std::uint64_t value, int width) {
  char digits[20];
  for (int i = width - 1; i >= 0; --i, value /= 10) digits[i] = static_cast<char>('0' + value % 10);
  out.append(digits, static_cast<std::size_t>(width));
}

/// The text of a time point, or nothing when its year is outside 0000-9999.
template <class Duration>
std::optional<std::string> to_rfc3339(std::chrono::sys_time<Duration> point) {
  using namespace std::chrono;
  constexpr int digits = *rfc3339_fraction_digits<typename Duration::period>();
  const double since_epoch = duration<double>(point.time_since_epoch()).count();
  if (!(since_epoch >= -62167219200.0 && since_epoch < 253402300800.0)) return std::nullopt;
  // Split by hand, on the count: chrono's floor<days> compares days in the duration's own unit,
  // which overflows for the earliest nanosecond time points.
  const std::int64_t count = point.time_since_epoch().count();
  std::int64_t whole = 0, fraction = 0;
  if constexpr (Duration::period::den == 1) {
    whole = count * std::int64_t{Duration::period::num};  // in range: the year was checked
  } else {
    constexpr std::int64_t per_second = Duration::period::den;
    whole = count / per_second;
    fraction = count % per_second;
    if (fraction < 0) fraction += per_second, --whole;
  }
  std::int64_t day_count = whole / 86400, second_of_day = whole % 86400;
  if (second_of_day < 0) second_of_day += 86400, --day_count;
  const year_month_day date{sys_days(days(day_count))};
  const int y = static_cast<int>(date.year());
  std::string out;
  out.reserve(30);
  put_digits(out, static_cast<std::uint64_t>(y), 4);
  out += '-';
  put_digits(out, unsigned(date.month()), 2);
  out += '-';
  put_digits(out, unsigned(date.day()), 2);
  out += 'T';
  put_digits(out, static_cast<std::uint64_t>(second_of_day / 3600), 2);
  out += ':';
  put_digits(out, static_cast<std::uint64_t>(second_of_day / 60 % 60), 2);
  out += ':';
  put_digits(out, static_cast<std::uint64_t>(second_of_day % 60), 2);
  if constexpr (digits > 0) {
    out += '.';
    put_digits(out, static_cast<std::uint64_t>(fraction), digits);
  }
  out += 'Z';
  return out;
}

/// Reads RFC 3339 text into a time point; nothing if it is not RFC 3339, names an impossible date
/// or time, is finer than Duration, or falls outside what Duration holds.
template <class Duration>
std::optional<std::chrono::sys_time<Duration>> from_rfc3339(std::string_view text) {
  using namespace std::chrono;
  std::size_t at = 0;
  auto number = [&](std::size_t width, int& value) {
    if (text.size() - at < width) return false;
    value = 0;
    for (std::size_t i = 0; i < width; ++i) {
      const char c = text[at + i];
      if (c < '0' || c > '9') return false;
      value = value * 10 + (c - '0');
    }
    at += width;
    return true;
  };
  auto literal = [&](char a, char b) {
    if (at < text.size() && (text[at] == a || text[at] == b)) return ++at, true;
    return false;
  };
  int y, mo, d, h, mi, s;
  if (!number(4, y) || !literal('-', '-') || !number(2, mo) || !literal('-', '-') ||
      !number(2, d) || !literal('T', 't') || !number(2, h) || !literal(':', ':') ||
      !number(2, mi) || !literal(':', ':') || !number(2, s))
    return std::nullopt;
  const year_month_day date{year(y), month(static_cast<unsigned>(mo)),
                            day(static_cast<unsigned>(d))};
  if (!date.ok() || h > 23 || mi > 59 || s > 59) return std::nullopt;

  constexpr int digits = *rfc3339_fraction_digits<typename Duration::period>();
  std::int64_t fraction = 0;  // in units of 10^-digits s
  if (literal('.', '.')) {
    const std::size_t first = at;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      const int place = static_cast<int>(at - first);
      if (place < digits)
        fraction = fraction * 10 + (text[at] - '0');
      else if (text[at] != '0')
        return std::nullopt;  // finer than the time point holds
    }
    if (at == first) return std::nullopt;
    for (int place = static_cast<int>(at - first); place < digits; ++place) fraction *= 10;
  }
  std::int64_t offset_seconds = 0;
  if (!literal('Z', 'z')) {
    if (at >= text.size() || (text[at] != '+' && text[at] != '-')) return std::nullopt;
    const bool east = text[at++] == '+';
    int oh, om;
    if (!number(2, oh) || !literal(':', ':') || !number(2, om) || oh > 23 || om > 59)
      return std::nullopt;
    offset_seconds = (east ? 1 : -1) * (oh * 3600 + om * 60);
  }
  if (at != text.size()) return std::nullopt;

  // Whole seconds since the epoch fit 64 bits for any 4-digit year; ticks are checked.
  const std::int64_t whole = sys_days(date).time_since_epoch().count() * std::int64_t{86400} +
                             h * 3600 + mi * 60 + s - offset_seconds;
  using rep = typename Duration::rep;
  constexpr std::int64_t per_second = [] {
    std::int64_t p = 1;
    for (int k = 0; k < digits; ++k) p *= 10;
    return p;
  }();
  std::int64_t ticks;
  if constexpr (Duration::period::den == 1) {
    if (whole % Duration::period::num != 0) return std::nullopt;
    ticks = whole / Duration::period::num;
  } else {
    // Before the epoch, whole seconds are one further from zero than the time: step back to
    // them last, so the earliest time a type holds does not overflow on the way.
    const bool borrow = whole < 0 && fraction > 0;
    if (__builtin_mul_overflow(whole + borrow, per_second, &ticks) ||
        __builtin_add_overflow(ticks, fraction - (borrow ? per_second : 0), &ticks))
      return std::nullopt;
  }
  if (ticks < static_cast<std::int64_t>(std::numeric_limits<rep>::min()) ||
      (ticks > 0 &&
       static_cast<std::uint64_t>(ticks) > std::uint64_t{std::numeric_limits<rep>::max()}))
    return std::nullopt;
  return sys_time<Duration>(Duration(static_cast<rep>(ticks)));
}

}  // namespace bale::detail
