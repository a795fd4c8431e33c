#pragma once
// Case: std::vector<double> of 10^7 elements to memory and back (a seed's first benchmark).

#include <cstddef>
#include <random>
#include <vector>

namespace bench::double_array {

inline constexpr std::size_t default_count = 10'000'000;

inline std::size_t count() {
  // BALE_BENCH_TINY shrinks every case so that CI runs each code path in a moment.
  return std::getenv("BALE_BENCH_TINY") ? 1000 : default_count;
}

inline const std::vector<double>& input() {
  static const std::vector<double> values = [] {
    std::vector<double> v(count());
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (auto& d : v) d = dist(rng);
    return v;
  }();
  return values;
}

}  // namespace bench::double_array
