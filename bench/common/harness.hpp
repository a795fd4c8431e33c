// SPDX-License-Identifier: BSL-1.0
#pragma once
// The benchmark harness: run modes, self-registering library files, and the checks every benchmark
// makes (a result that does not match its input is a failure, not a number).

#include <benchmark/benchmark.h>

#include "common/progress.hpp"

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

enum class run_mode { tiny, quick, full };

/// BALE_BENCH_MODE=tiny|quick|full (scripts/bench.sh sets it); quick by default.
inline run_mode mode() {
  const char* value = std::getenv("BALE_BENCH_MODE");
  const std::string_view text = value ? value : "quick";
  if (text == "tiny") return run_mode::tiny;
  if (text == "full") return run_mode::full;
  return run_mode::quick;
}

/// A case's size: the seed's figure, or a tiny one that runs every code path in a moment.
inline std::size_t scaled(std::size_t seed_size, std::size_t tiny_size = 16) {
  return mode() == run_mode::tiny ? tiny_size : seed_size;
}

/// Every library file registers its benchmarks through one of these at static initialization.
inline std::vector<std::function<void()>>& registrations() {
  static std::vector<std::function<void()>> list;
  return list;
}
struct library_registration {
  explicit library_registration(std::function<void()> add) {
    registrations().push_back(std::move(add));
  }
};

/// How long an operation takes decides how often it runs: `slow` ones (text archives on 10^7
/// values) run fewer repetitions in quick mode so the default run stays within a few minutes.
enum class cost { fast, slow };

template <class F>
void add(const std::string& name, F&& body, cost c = cost::fast) {
  const bool slow = c == cost::slow;
  int repetitions = 1;
  double min_time = 0;  // 0: a fixed iteration count, each call one repetition
  switch (mode()) {
    case run_mode::tiny:
      break;
    case run_mode::quick:
      repetitions = slow ? 1 : 3;
      min_time = slow ? 0 : 0.05;
      break;
    case run_mode::full:
      repetitions = slow ? 3 : 5;
      min_time = slow ? 0 : 0.3;
      break;
  }
  // A library that throws fails its own row, not the whole suite. Google Benchmark calls a body
  // with growing iteration counts until a call lasts min_time: that last call ends a repetition.
  auto guarded = [body = std::forward<F>(body), name, min_time](benchmark::State& state) mutable {
    const auto start = std::chrono::steady_clock::now();
    try {
      body(state);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
    } catch (...) {
      state.SkipWithError("unknown exception");
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (min_time == 0 || took.count() >= min_time || state.error_occurred()) progress().done(name);
  };
  auto* b = benchmark::RegisterBenchmark(name.c_str(), std::move(guarded));
  b->Unit(benchmark::kMillisecond)->UseRealTime()->Repetitions(repetitions);
  if (min_time == 0)
    b->Iterations(1);
  else
    b->MinTime(min_time);
  progress().plan(name, repetitions);
}

/// Work a benchmark does once, not once per repetition: encoding its input, checking its result.
template <class T>
class once {
 public:
  template <class Make>
  const T& get(Make&& make) {
    if (!value_) value_ = std::make_unique<T>(make());
    return *value_;
  }

 private:
  std::unique_ptr<T> value_;
};

/// Marks the benchmark failed when `ok` is false; returns ok.
inline bool require(benchmark::State& state, bool ok, const std::string& what) {
  if (!ok) state.SkipWithError(what.c_str());
  return ok;
}

/// Payload bytes per iteration (for throughput) and the encoded size (for the size tables).
inline void report(benchmark::State& state, std::size_t payload_bytes, std::size_t encoded_bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * payload_bytes));
  state.counters["encoded_bytes"] = static_cast<double>(encoded_bytes);
}

}  // namespace bench
