// SPDX-License-Identifier: BSL-1.0
#pragma once
// Case 11: data written by an older layout of a type, read by a newer one. The seed struct (case 5)
// and a vector of small records (a name, a short vector of small structs, an enum, flags), each
// read with its own schema and, resolved, as a layout that added two members and removed one.

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cases/data.hpp"

namespace cases {

/// The seed struct with `f` removed and two members added.
struct seed_element_v2 {
  float vec[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int i = 0;
  float health = 1.0f;
  std::uint8_t team = 0;
  bool operator==(const seed_element_v2&) const = default;
};

enum class unit_kind : std::uint8_t { scout, tank, healer };

struct waypoint {
  float x = 0, y = 0;
  std::int16_t wait = 0;
  bool operator==(const waypoint&) const = default;
};

struct unit {
  std::string name;
  std::vector<waypoint> path;
  unit_kind kind = unit_kind::scout;
  std::uint32_t flags = 0;
  std::optional<std::uint32_t> owner;
  bool operator==(const unit&) const = default;
};

/// `owner` removed, `level` and `tags` added.
struct unit_v2 {
  std::string name;
  std::vector<waypoint> path;
  unit_kind kind = unit_kind::scout;
  std::uint32_t flags = 0;
  std::uint16_t level = 1;
  std::vector<std::string> tags;
  bool operator==(const unit_v2&) const = default;
};

inline const std::vector<unit>& units() {
  static const std::vector<unit> values = [] {
    std::vector<unit> v(bench::scaled(100'000, 100));
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> coordinate(-100.0f, 100.0f);
    for (std::size_t n = 0; n < v.size(); ++n) {
      unit& u = v[n];
      u.name = "unit_" + std::to_string(n % 5000);
      u.path.resize(rng() % 5);
      for (auto& p : u.path)
        p = {coordinate(rng), coordinate(rng), static_cast<std::int16_t>(rng() % 100)};
      u.kind = static_cast<unit_kind>(rng() % 3);
      u.flags = rng() % 16;
      if (rng() % 2 != 0) u.owner = static_cast<std::uint32_t>(rng() % 1000);
    }
    return v;
  }();
  return values;
}

/// Whether a newer-layout value holds what the older one did, and defaults where it added.
inline bool same_seed(const seed_element& a, const seed_element_v2& b) {
  return std::equal(std::begin(a.vec), std::end(a.vec), std::begin(b.vec)) && a.i == b.i &&
         b.health == 1.0f && b.team == 0;
}
inline bool same_unit(const unit& a, const unit_v2& b) {
  return a.name == b.name && a.path == b.path && a.kind == b.kind && a.flags == b.flags &&
         b.level == 1 && b.tags.empty();
}

}  // namespace cases
