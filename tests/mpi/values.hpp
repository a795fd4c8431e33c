// SPDX-License-Identifier: BSL-1.0
#pragma once
// Values of every type family, made from a seed so that a receiver knows what the sender sent.
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "bale/all.hpp"

namespace mpi_test {

/// The neighbours of a rank on a ring of every rank.
struct ring {
  template <class Communicator>
  explicit ring(const Communicator& comm)
      : right((comm.rank() + 1) % comm.size()),
        left((comm.rank() + comm.size() - 1) % comm.size()) {}
  int right;
  int left;
};

struct point {
  double x = 0, y = 0;
  bool operator==(const point&) const = default;
};
struct cell {
  std::string name;
  std::vector<point> corners;
  std::map<std::string, std::vector<int>> tags;
  std::variant<int, std::string, point> extra;
  bool operator==(const cell&) const = default;
};

inline std::vector<double> doubles(std::size_t count, int seed) {
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<double>(i) * 0.5 + seed;
  return values;
}

inline cell make_cell(int seed) {
  cell c;
  c.name = "cell " + std::to_string(seed);
  for (int i = 0; i < seed % 5 + 1; ++i) c.corners.push_back({i * 1.5, seed * 2.0});
  c.tags["a" + std::to_string(seed)] = {seed, seed + 1};
  c.tags["b"] = {};
  if (seed % 3 == 0) c.extra = seed;
  if (seed % 3 == 1) c.extra = std::string(static_cast<std::size_t>(seed) * 7, 'x');
  if (seed % 3 == 2) c.extra = point{1, 2};
  return c;
}

inline std::vector<cell> cells(std::size_t count, int seed) {
  std::vector<cell> values;
  for (std::size_t i = 0; i < count; ++i) values.push_back(make_cell(seed + static_cast<int>(i)));
  return values;
}

}  // namespace mpi_test
