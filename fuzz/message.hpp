// SPDX-License-Identifier: BSL-1.0
#pragma once
// The message type the fuzzers decode: every kind of wire element at once.

#include <array>
#include <bale/all.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fuzz {

struct point {
  double x, y;
  std::string label;
  bool visible;
};

// Described by hand, with a version: its load branches on the version the data holds.
struct stamp {
  std::uint32_t when = 0;
  std::string by;  // since version 2
  template <class Archive>
  void save(Archive& ar) const {
    ar(when, by);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(when);
    if (ar.version() >= 2) ar(by);
  }
};

}  // namespace fuzz

template <>
inline constexpr std::uint32_t bale::version<fuzz::stamp> = 2;

namespace fuzz {

struct shape {
  std::uint32_t id;
  stamp made;
  std::vector<point> points;
  std::optional<std::string> note;
  std::variant<std::monostate, std::int64_t, std::vector<std::uint16_t>, std::u32string> extra;
  std::map<std::string, double> attributes;
  std::unique_ptr<shape> child;
  std::array<float, 3> position;
  std::vector<bool> flags;
  std::vector<std::shared_ptr<point>> shared;  // an object table: references, checked
  std::weak_ptr<shape> up;                     // a reference that may not own (no cycle leaks)
  bale::observer<point> seen;                  // observers: claims and dangling objects checked
  bale::observer<shape> near;
};

using message = std::vector<shape>;

// A message with no ordered containers: decoding then encoding gives back the same bytes.
using canonical = std::tuple<std::vector<point>, std::optional<std::u16string>,
                             std::variant<std::int8_t, std::vector<std::vector<std::uint32_t>>>,
                             std::unique_ptr<point>, std::bitset<20>>;

// Numbers and fixed arrays of numbers only: the JSON reader and writer take such objects in one
// pass when the text is compact and in order, and hand any other text to the general path.
struct sample {
  std::int32_t count;
  float position[3];
  bool valid;
  std::array<double, 2> range;
  std::uint8_t level;
  std::int64_t stamp;
};

using samples = std::vector<sample>;

// No pointers: what decoding by schema reads whole (the schema target's seeds).
using plain = std::tuple<std::vector<point>, std::optional<std::u16string>,
                         std::variant<std::monostate, std::int8_t, std::string>, std::bitset<70>,
                         std::map<std::string, std::vector<std::int32_t>>, samples>;

// Versions and required members through schema resolution (the schema target).
struct stamped {
  std::uint32_t id;
  std::vector<stamp> stamps;
  std::optional<std::string> note;
};

inline std::span<const std::byte> bytes_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

}  // namespace fuzz

template <>
inline constexpr auto bale::required_members<fuzz::stamped> = std::array<std::string_view, 1>{"id"};
