// SPDX-License-Identifier: BSL-1.0
// nlohmann::json: the usual struct mapping (NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE), dump() and
// parse().get<T>().
#include <nlohmann/json.hpp>

#include "common/json_cases.hpp"

namespace cases {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(seed_element, vec, i, f)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(employee, id, name, email, salary, active, scores, skills)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(department, name, location, budget, staff)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(company, name, founded, departments)
}  // namespace cases

namespace {

struct nlohmann_json {
  static constexpr const char* name = "nlohmann";
  static constexpr bool can_write = true;
  template <class T>
  static std::string write(const T& value) {
    return nlohmann::json(value).dump();
  }
  template <class T>
  static void read(const std::string& text, T& value) {
    nlohmann::json::parse(text).get_to(value);
  }
};

const bench::library_registration registration([] { bench::json_cases<nlohmann_json>(); });

}  // namespace
