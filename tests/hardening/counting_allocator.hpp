// SPDX-License-Identifier: BSL-1.0
#pragma once
// The heap as the hardening tests see it: every operator new and delete of the test program goes
// through a counter of live bytes, so a test can ask what a decode allocated at its peak (and how
// many allocations it made) without timing anything.

#include <cstddef>

namespace hardening {

struct heap_use {
  std::size_t peak_bytes;   // the most live at once, above what was live at the start
  std::size_t allocations;  // calls to operator new
};

/// Runs f() and reports its peak heap use.
template <class F>
heap_use measure_heap(F&& f);

void start_measuring() noexcept;
heap_use stop_measuring() noexcept;

template <class F>
heap_use measure_heap(F&& f) {
  start_measuring();
  try {
    f();
  } catch (...) {
    stop_measuring();
    throw;
  }
  return stop_measuring();
}

inline constexpr std::size_t mib = std::size_t{1} << 20;

}  // namespace hardening
