// SPDX-License-Identifier: BSL-1.0
#pragma once
// Case 8's nested document: a company of departments of staff, about 10 MB of JSON. Strings (some
// with escapes and non-ASCII), integers, doubles, booleans, arrays and three levels of objects.

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/harness.hpp"

namespace cases {

struct employee {
  std::uint64_t id = 0;
  std::string name;
  std::string email;
  double salary = 0;
  bool active = false;
  std::vector<std::int32_t> scores;
  std::vector<std::string> skills;
  bool operator==(const employee&) const = default;
};

struct department {
  std::string name;
  std::string location;
  double budget = 0;
  std::vector<employee> staff;
  bool operator==(const department&) const = default;
};

struct company {
  std::string name;
  std::int32_t founded = 0;
  std::vector<department> departments;
  bool operator==(const company&) const = default;
};

inline const company& document() {
  static const company value = [] {
    static const char* const first[] = {"Ada", "Zoë",    "Grace",   "Linus", "Bjarne",
                                        "Ken", "Dennis", "Barbara", "José",  "Margaret"};
    static const char* const last[] = {"Lovelace", "Hopper", "Torvalds", "Stroustrup", "Thompson",
                                       "Ritchie",  "Liskov", "O\"Neil",  "Hamilton"};
    static const char* const skills[] = {"c++",      "hpc", "mpi",        "simd",
                                         "numerics", "io",  "json\\text", "compilers"};
    static const char* const places[] = {"Zürich", "Lyon", "Austin", "Osaka", "Nairobi"};
    std::mt19937_64 rng(10);
    company c;
    c.name = "bale \"benchmark\" works";
    c.founded = 1987;
    const std::size_t departments = bench::scaled(100, 2);
    const std::size_t staff = bench::scaled(560, 3);
    std::uint64_t id = 100000;
    for (std::size_t d = 0; d < departments; ++d) {
      department dep;
      dep.name = "Department " + std::to_string(d);
      dep.location = places[rng() % 5];
      dep.budget = static_cast<double>(rng() % 100000000) / 100.0;
      for (std::size_t s = 0; s < staff; ++s) {
        employee e;
        e.id = id++;
        e.name = std::string(first[rng() % 10]) + " " + last[rng() % 9];
        // Built by assign(1, 'e') and appends: GCC 12 warns falsely (-Wrestrict) on "e" +
        // std::string and on assigning "e" here, depending on what was inlined.
        e.email.assign(1, 'e');
        e.email += std::to_string(e.id);
        e.email += "@example.com";
        e.salary =
            std::round(std::uniform_real_distribution<double>(30000, 250000)(rng) * 100) / 100;
        e.active = rng() % 4 != 0;
        for (int k = 0; k < 8; ++k)
          e.scores.push_back(static_cast<std::int32_t>(rng() % 2000) - 500);
        for (std::uint64_t k = 0, n = 1 + rng() % 4; k < n; ++k)
          e.skills.push_back(skills[rng() % 8]);
        dep.staff.push_back(std::move(e));
      }
      c.departments.push_back(std::move(dep));
    }
    return c;
  }();
  return value;
}

}  // namespace cases
