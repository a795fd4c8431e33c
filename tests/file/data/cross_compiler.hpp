// SPDX-License-Identifier: BSL-1.0
#pragma once
// The type of the files in this folder, written by a GCC build and by a Clang build of
// write_cross_compiler_files.cpp; tests/file/cross_compiler_test.cpp reads both in every build.

#include <bale/all.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cross {

enum class element : std::uint8_t { fire, water };
BALE_ENUM_NAMES(element, fire, water)

struct rune {
  std::string name;
  element kind;
  std::optional<double> weight;
};

struct tome {
  std::uint64_t id;
  std::vector<rune> runes;
  std::map<std::string, std::int32_t> counts;
  std::variant<std::monostate, std::int64_t, std::string> seal;
  std::chrono::milliseconds age;
  std::vector<std::uint16_t> pages;
};

inline tome sample() {
  return {42,
          {{"ember", element::fire, 1.25}, {"tide", element::water, std::nullopt}},
          {{"a", -1}, {"b", 2}},
          std::string("wax"),
          std::chrono::milliseconds(90061),
          {1, 2, 65535}};
}

}  // namespace cross
