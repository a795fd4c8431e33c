// SPDX-License-Identifier: BSL-1.0
#pragma once
// Case 13, monsters: the shape the public C++ serializer benchmarks use. 50 monsters, each a
// position, mana, hp, a name, an inventory of bytes, a colour, a few weapons {name, damage}, the
// weapon equipped and a path of points. One message is a few kilobytes: what is measured is the
// cost per field, not the cost per byte.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/harness.hpp"

namespace cases {

enum class colour : std::uint8_t { red, green, blue };

struct point3 {
  float x = 0, y = 0, z = 0;
  bool operator==(const point3&) const = default;
};

struct weapon {
  std::string name;
  std::int16_t damage = 0;
  bool operator==(const weapon&) const = default;
};

struct monster {
  point3 position;
  std::int16_t mana = 0;
  std::int16_t hp = 0;
  std::string name;
  std::vector<std::uint8_t> inventory;
  colour tint = colour::red;
  std::vector<weapon> weapons;
  weapon equipped;
  std::vector<point3> path;
  bool operator==(const monster&) const = default;
};

using monster_list = std::vector<monster>;

namespace monster_detail {
inline std::string word(std::mt19937& rng, std::size_t min, std::size_t max) {
  std::string s(min + rng() % (max - min + 1), ' ');
  for (char& c : s) c = static_cast<char>('a' + rng() % 26);
  return s;
}
inline float coordinate(std::mt19937& rng) {
  return static_cast<float>(static_cast<int>(rng() % 20001) - 10000) / 8.0f;
}
}  // namespace monster_detail

inline const monster_list& monsters() {
  static const monster_list list = [] {
    using namespace monster_detail;
    monster_list v(bench::scaled(50, 5));
    std::mt19937 rng(13);
    for (monster& m : v) {
      m.position = {coordinate(rng), coordinate(rng), coordinate(rng)};
      m.mana = static_cast<std::int16_t>(rng() % 500);
      m.hp = static_cast<std::int16_t>(rng() % 1000);
      m.name = word(rng, 8, 20);
      m.inventory.resize(10 + rng() % 11);
      for (auto& item : m.inventory) item = static_cast<std::uint8_t>(rng());
      m.tint = static_cast<colour>(rng() % 3);
      m.weapons.resize(1 + rng() % 5);
      for (weapon& w : m.weapons) w = {word(rng, 5, 12), static_cast<std::int16_t>(rng() % 100)};
      m.equipped = m.weapons[rng() % m.weapons.size()];
      m.path.resize(1 + rng() % 10);
      for (point3& p : m.path) p = {coordinate(rng), coordinate(rng), coordinate(rng)};
    }
    return v;
  }();
  return list;
}

/// The bytes of the values a list holds (what throughput is counted in).
inline std::size_t payload_bytes(const monster_list& list) {
  std::size_t bytes = 0;
  const auto weapon_bytes = [](const weapon& w) { return w.name.size() + sizeof w.damage; };
  for (const monster& m : list) {
    bytes += sizeof m.position + sizeof m.mana + sizeof m.hp + m.name.size() + m.inventory.size() +
             sizeof m.tint + weapon_bytes(m.equipped) + m.path.size() * sizeof(point3);
    for (const weapon& w : m.weapons) bytes += weapon_bytes(w);
  }
  return bytes;
}

}  // namespace cases
