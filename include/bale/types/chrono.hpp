// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::chrono::duration (its count) and std::chrono::time_point (its duration since the epoch).
// The period and clock are part of the type, not the wire: both sides must agree on them. Archives
// meant for people (JSON) write a system_clock time point as RFC 3339 UTC text instead, whose
// meaning does not depend on the platform's clock period.

#include <chrono>
#include <string>

#include "bale/core/archive.hpp"
#include "bale/core/error.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/detail/rfc3339.hpp"

namespace bale {

template <class Rep, class Period>
struct serializer<std::chrono::duration<Rep, Period>> {
  using schema_shape = schema::duration<Rep, Period>;
  static constexpr bool wire_compatible =
      bale::wire_compatible<Rep> && sizeof(std::chrono::duration<Rep, Period>) == sizeof(Rep);

  template <class Archive>
  static void save(Archive& ar, const std::chrono::duration<Rep, Period>& duration) {
    ar(duration.count());
  }
  template <class Archive>
  static void load(Archive& ar, std::chrono::duration<Rep, Period>& duration) {
    Rep count{};
    ar(count);
    duration = std::chrono::duration<Rep, Period>(count);
  }
};

template <class Clock, class Duration>
struct serializer<std::chrono::time_point<Clock, Duration>> {
  using schema_shape = schema::time_point<Duration>;
  static constexpr bool wire_compatible =
      bale::wire_compatible<Duration> &&
      sizeof(std::chrono::time_point<Clock, Duration>) == sizeof(Duration);

  template <class Archive>
  static constexpr bool as_text = detail::human_readable<Archive>&&
      std::same_as<Clock, std::chrono::system_clock>&& detail::rfc3339_duration<Duration>;

  template <class Archive>
  static void save(Archive& ar, const std::chrono::time_point<Clock, Duration>& point) {
    if constexpr (as_text<Archive>) {
      const auto text = detail::to_rfc3339(point);
      if (!text)
        ar.fail(errc::invalid_value, "a time outside the years 0000-9999 has no RFC 3339 text");
      ar.write_text(std::string_view(*text));
    } else {
      ar(point.time_since_epoch());
    }
  }
  template <class Archive>
  static void load(Archive& ar, std::chrono::time_point<Clock, Duration>& point) {
    if constexpr (as_text<Archive>) {
      const std::size_t at = ar.offset();
      std::string text;
      ar.read_text(text);
      const auto read = detail::from_rfc3339<Duration>(text);
      if (!read)
        ar.fail_at(errc::invalid_value,
                   "\"" + text + "\" is not an RFC 3339 time this time point holds exactly", at);
      point = *read;
    } else {
      Duration since_epoch{};
      ar(since_epoch);
      point = std::chrono::time_point<Clock, Duration>(since_epoch);
    }
  }
};

}  // namespace bale
