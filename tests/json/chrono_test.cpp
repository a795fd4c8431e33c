// SPDX-License-Identifier: BSL-1.0
// system_clock time points in JSON are RFC 3339 UTC text, read back exactly; other clocks and
// durations stay counts, and the binary formats keep the count.
#include <gtest/gtest.h>
#include <bale/all.hpp>

#include <chrono>
#include <random>
#include <string>

namespace {

using namespace std::chrono;
using std::chrono::sys_days;

struct event {
  sys_time<milliseconds> at;
  seconds timeout;
};

constexpr sys_days launch = sys_days(year(2026) / 11 / 25);

TEST(JsonTime, SystemClockTimeIsRfc3339Text) {
  EXPECT_EQ(bale::to_json(sys_seconds(launch + 8h + 30min)), R"("2026-11-25T08:30:00Z")");
  EXPECT_EQ(bale::to_json(sys_time<milliseconds>(launch + 125ms)), R"("2026-11-25T00:00:00.125Z")");
  EXPECT_EQ(bale::to_json(sys_time<nanoseconds>(launch + 5ns)),
            R"("2026-11-25T00:00:00.000000005Z")");
  EXPECT_EQ(bale::to_json(sys_time<minutes>(launch - 1min)), R"("2026-11-24T23:59:00Z")");
  EXPECT_EQ(bale::to_json(sys_seconds(sys_days(year(1969) / 12 / 31) + 1s)),
            R"("1969-12-31T00:00:01Z")");
  EXPECT_EQ(bale::to_json(event{sys_time<milliseconds>(launch), 30s}),
            R"({"at":"2026-11-25T00:00:00.000Z","timeout":30})");
  // The clock's own precision, whatever it is on this platform.
  const system_clock::time_point now = system_clock::now();
  EXPECT_EQ(bale::from_json<system_clock::time_point>(bale::to_json(now)), now);
}

TEST(JsonTime, ReadsOffsetsAndTheLowerCaseForm) {
  using ms = sys_time<milliseconds>;
  EXPECT_EQ(bale::from_json<ms>(R"("2026-11-25T10:30:00.5+02:00")"),
            ms(launch + 8h + 30min + 500ms));
  EXPECT_EQ(bale::from_json<ms>(R"("2026-11-24t21:00:00-03:00")"), ms(launch));
  EXPECT_EQ(bale::from_json<ms>(R"("2026-11-25T00:00:00.125000z")"), ms(launch + 125ms));
  EXPECT_EQ(bale::from_json<sys_seconds>(R"("0000-01-01T00:00:00Z")"),
            sys_seconds(sys_days(year(0) / 1 / 1)));
  EXPECT_EQ(bale::from_json<sys_seconds>(R"("9999-12-31T23:59:59Z")"),
            sys_seconds(sys_days(year(9999) / 12 / 31) + 86399s));
}

TEST(JsonTime, RefusesWhatItCannotHoldExactly) {
  for (const char* text :
       {R"("2026-11-25T00:00:00.1234Z")",  // finer than milliseconds
        R"("2026-02-30T00:00:00Z")",       // no such day
        R"("2026-11-25T24:00:00Z")",       // no such hour
        R"("2026-11-25T23:59:60Z")",       // leap seconds are not counted by system_clock
        R"("2026-11-25T00:00:00")",        // no offset
        R"("2026-11-25 00:00:00Z")",       // not RFC 3339's 'T'
        R"("2026-11-25T00:00:00.Z")",      // a point with no digits
        R"("2026-11-25T00:00:00Z ")",      // bytes after it
        R"("26-11-25T00:00:00Z")", R"(1764028800000)"}) {
    auto r = bale::try_from_json<sys_time<milliseconds>>(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().code(), bale::errc::invalid_value) << text;
    if (text[0] == '"') {
      EXPECT_EQ(r.error().offset(), 0u) << text;
    }
  }
  // Past what 64-bit nanoseconds hold (the year 2262).
  EXPECT_FALSE(bale::try_from_json<sys_time<nanoseconds>>(R"("2263-01-01T00:00:00Z")"));
  EXPECT_TRUE(bale::try_from_json<sys_time<nanoseconds>>(R"("2262-01-01T00:00:00Z")"));
  // A time point whose year has four digits no more cannot be written.
  EXPECT_THROW(bale::to_json(sys_seconds(sys_days(year(10000) / 1 / 1))), bale::error);
  EXPECT_THROW(bale::to_json(sys_seconds(sys_days(year(-1) / 12 / 31))), bale::error);
}

TEST(JsonTime, TheFirstAndLastTimesOfATypeRoundTrip) {
  for (const auto ns : {sys_time<nanoseconds>::min(), sys_time<nanoseconds>::max(),
                        sys_time<nanoseconds>(-1ns), sys_time<nanoseconds>(0ns)})
    EXPECT_EQ(bale::from_json<sys_time<nanoseconds>>(bale::to_json(ns)), ns) << bale::to_json(ns);
  EXPECT_EQ(bale::to_json(sys_time<nanoseconds>::min()), R"("1677-09-21T00:12:43.145224192Z")");
}

TEST(JsonTime, RandomTimesOfEveryPrecisionRoundTrip) {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<std::int64_t> any_nanosecond(
      std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
  for (int i = 0; i < 20000; ++i) {
    const sys_time<nanoseconds> ns(nanoseconds(any_nanosecond(random)));
    ASSERT_EQ(bale::from_json<sys_time<nanoseconds>>(bale::to_json(ns)), ns);
    const auto us = floor<microseconds>(ns);
    ASSERT_EQ(bale::from_json<sys_time<microseconds>>(bale::to_json(us)), us);
    const auto s = floor<seconds>(ns);
    ASSERT_EQ(bale::from_json<sys_seconds>(bale::to_json(s)), s);
  }
}

TEST(JsonTime, OtherClocksDurationsAndBinaryFormatsStayCounts) {
  EXPECT_EQ(bale::to_json(steady_clock::time_point(steady_clock::duration(42))), "42");
  EXPECT_EQ(bale::to_json(milliseconds(1500)), "1500");
  const sys_time<milliseconds> t(launch + 1ms);
  EXPECT_EQ(bale::serialize(t), bale::serialize(t.time_since_epoch().count()));
  EXPECT_EQ(bale::deserialize<sys_time<milliseconds>>(bale::serialize(t)), t);
  EXPECT_EQ(
      (bale::deserialize<sys_time<milliseconds>, bale::msgpack>(bale::serialize<bale::msgpack>(t))),
      t);
}

}  // namespace
