#pragma once
// std::chrono::duration (its count) and std::chrono::time_point (its duration since the epoch).
// The period and clock are part of the type, not the wire: both sides must agree on them.

#include <chrono>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <class Rep, class Period>
struct serializer<std::chrono::duration<Rep, Period>> {
  using wire_shape = typename detail::wire_shape_of<Rep>::type;
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
  using wire_shape = typename detail::wire_shape_of<Duration>::type;
  static constexpr bool wire_compatible =
      bale::wire_compatible<Duration> &&
      sizeof(std::chrono::time_point<Clock, Duration>) == sizeof(Duration);

  template <class Archive>
  static void save(Archive& ar, const std::chrono::time_point<Clock, Duration>& point) {
    ar(point.time_since_epoch());
  }
  template <class Archive>
  static void load(Archive& ar, std::chrono::time_point<Clock, Duration>& point) {
    Duration since_epoch{};
    ar(since_epoch);
    point = std::chrono::time_point<Clock, Duration>(since_epoch);
  }
};

}  // namespace bale
