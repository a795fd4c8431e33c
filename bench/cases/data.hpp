// SPDX-License-Identifier: BSL-1.0
#pragma once
// The benchmark cases' data, with the sizes of the seeds they come from. Types here are plain C++;
// each library file says how its library reads and writes them.

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "common/harness.hpp"

namespace cases {

/// n values drawn uniformly from [-1, 1] with a fixed seed.
template <class T>
std::vector<T> uniform_values(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> dist(-1, 1);
  for (auto& x : v) x = dist(rng);
  return v;
}

/// Case 1 (seed 000): std::vector<double> of 10^7 elements.
inline const std::vector<double>& double_array() {
  static const std::vector<double> values =
      uniform_values<double>(bench::scaled(10'000'000, 1000), 1);
  return values;
}

/// Case 2 (seed 000): 1000 arrays of double[10000].
inline constexpr std::size_t array_length = 10'000;
using double_block = std::array<double, array_length>;
inline const std::vector<double_block>& double_blocks() {
  static const std::vector<double_block> values = [] {
    std::vector<double_block> v(bench::scaled(1000, 2));
    std::mt19937_64 rng(2);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (auto& block : v)
      for (auto& d : block) d = dist(rng);
    return v;
  }();
  return values;
}

/// Case 3 (seed 001): 10^6 random values of one type; full range for integers, [-1, 1] for floats.
template <class T>
const std::vector<T>& per_type() {
  static const std::vector<T> values = [] {
    std::vector<T> v(bench::scaled(1'000'000, 1000));
    std::mt19937_64 rng(3);
    if constexpr (std::is_floating_point_v<T>) {
      std::uniform_real_distribution<T> dist(-1, 1);
      for (auto& x : v) x = dist(rng);
    } else {
      std::uniform_int_distribution<long long> dist(std::numeric_limits<T>::min(),
                                                    std::numeric_limits<T>::max());
      for (auto& x : v) x = static_cast<T>(dist(rng));
    }
    return v;
  }();
  return values;
}

/// Case 4 (seed 002): the tuple, and how many round trips.
using tuple_message = std::tuple<int, std::uint64_t, std::vector<std::uint8_t>, std::string>;
inline const tuple_message& tuple_value() {
  static const tuple_message value{10, 20, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, "hello cpp-love!"};
  return value;
}
inline std::size_t tuple_rounds() {
  return bench::scaled(500'000, 100);
}

/// Case 5 (seed 003): 100,000 of struct { float vec[4]; int i; float f; }, drawn three ways:
///   uniform  - floats uniform in [-1, 1], i uniform in [0, 1000) (the case's main table);
///   constant - every element the same;
///   small    - vec never changed from its default, i geometric, f a binomial count of halves
///              (the seed's "most values are small or unchanged" data).
struct seed_element {
  float vec[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int i = 0;
  float f = 0.0f;
  bool operator==(const seed_element&) const = default;
};
enum class seed_spread { uniform, constant, small };
template <seed_spread Spread>
const std::vector<seed_element>& seed_elements_drawn() {
  static const std::vector<seed_element> values = [] {
    std::vector<seed_element> v(bench::scaled(100'000, 100));
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::geometric_distribution<int> geometric(0.1);
    std::binomial_distribution<int> halves(8, 0.5);
    for (auto& e : v) {
      if constexpr (Spread == seed_spread::uniform)
        e = {{uniform(rng), uniform(rng), uniform(rng), uniform(rng)},
             static_cast<int>(rng() % 1000),
             uniform(rng)};
      else if constexpr (Spread == seed_spread::constant)
        e = {{0.5f, 1.0f, -1.0f, 2.0f}, 3, 1.0f};
      else
        e = {{}, geometric(rng), static_cast<float>(halves(rng)) / 2.0f};
    }
    return v;
  }();
  return values;
}
inline const std::vector<seed_element>& seed_elements() {
  return seed_elements_drawn<seed_spread::uniform>();
}
/// The case name of each distribution: seed_struct (uniform), seed_struct_constant, ..._small.
struct seed_distribution {
  const char* case_name;
  const std::vector<seed_element>& (*input)();
};
inline constexpr seed_distribution seed_distributions[] = {
    {"seed_struct", &seed_elements_drawn<seed_spread::uniform>},
    {"seed_struct_constant", &seed_elements_drawn<seed_spread::constant>},
    {"seed_struct_small", &seed_elements_drawn<seed_spread::small>},
};

/// Case 6 (seed 004): a double array, a sparse matrix, a hash map string -> double.
inline const std::vector<double>& hps_doubles() {
  static const std::vector<double> values =
      uniform_values<double>(bench::scaled(1'000'000, 1000), 6);
  return values;
}

struct sparse_row {
  std::vector<std::int64_t> columns;
  std::vector<double> values;
  bool operator==(const sparse_row&) const = default;
};
using sparse_matrix = std::vector<sparse_row>;
inline const sparse_matrix& hps_sparse() {
  static const sparse_matrix matrix = [] {
    sparse_matrix m(bench::scaled(1000, 10));
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (auto& row : m) {
      std::int64_t column = 0;
      for (int k = 0; k < 100; ++k) {
        column += 1 + static_cast<std::int64_t>(rng() % 20);  // sorted, gaps of 1..20
        row.columns.push_back(column);
        row.values.push_back(dist(rng));
      }
    }
    return m;
  }();
  return matrix;
}

using hash_map = std::unordered_map<std::string, double>;
inline const hash_map& hps_map() {
  static const hash_map map = [] {
    hash_map m;
    std::mt19937_64 rng(8);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    const std::size_t n = bench::scaled(100'000, 100);
    while (m.size() < n) m.emplace("key_" + std::to_string(rng() % (n * 100)), dist(rng));
    return m;
  }();
  return map;
}

template <class Range>
std::size_t payload_bytes(const Range& r) {
  return r.size() * sizeof(typename Range::value_type);
}

}  // namespace cases
