#pragma once
// Case: 100,000 of struct { float vec[4]; int i; float f; } in memory (a seed's load benchmark).

#include <cstddef>
#include <cstdlib>
#include <random>
#include <vector>

namespace bench::seed_struct {

struct element {
  float vec[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int i = 0;
  float f = 0.0f;
  bool operator==(const element&) const = default;
};

inline std::size_t count() {
  return std::getenv("BALE_BENCH_TINY") ? 100 : 100'000;
}

inline const std::vector<element>& input() {
  static const std::vector<element> values = [] {
    std::vector<element> v(count());
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto& e : v)
      e = element{{dist(rng), dist(rng), dist(rng), dist(rng)}, static_cast<int>(rng()), dist(rng)};
    return v;
  }();
  return values;
}

}  // namespace bench::seed_struct
