// SPDX-License-Identifier: BSL-1.0
#pragma once
// Shared by every benchmark: a result that does not match its input is an error, not a number.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>

namespace bench {

/// Marks the benchmark failed (and skips it) when `ok` is false.
inline bool require(benchmark::State& state, bool ok, const char* what) {
  if (!ok) state.SkipWithError(what);
  return ok;
}

/// Reports bytes per iteration, and the encoded size as a counter the report prints.
inline void report_bytes(benchmark::State& state, std::size_t bytes_per_iteration,
                         std::size_t encoded_size) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_per_iteration));
  state.counters["encoded_bytes"] = static_cast<double>(encoded_size);
}

}  // namespace bench
