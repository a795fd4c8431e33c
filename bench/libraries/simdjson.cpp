// SPDX-License-Identifier: BSL-1.0
// simdjson On-Demand: the usual mapping, fields asked for by name in document order, strings copied
// out of the parser's buffer. simdjson parses only, so it has read rows and no write rows. The
// parser is kept across reads, as its documentation advises. On-Demand picks its kernels when it is
// compiled, so this file is built with -march=native (AVX2 here); bale's code is not.
#include <simdjson.h>

#include "common/json_cases.hpp"

namespace {

namespace od = simdjson::ondemand;

std::string text(od::value v) {
  return std::string(std::string_view(v.get_string()));
}

void read_value(od::value v, cases::hash_map& map) {
  for (auto field : v.get_object())
    map.emplace(std::string(std::string_view(field.unescaped_key())), double(field.value()));
}
void read_value(od::value v, std::vector<cases::seed_element>& elements) {
  for (od::object item : v.get_array()) {
    cases::seed_element e;
    int k = 0;
    for (double x : item["vec"].get_array()) e.vec[k++ & 3] = static_cast<float>(x);
    e.i = static_cast<int>(std::int64_t(item["i"]));
    e.f = static_cast<float>(double(item["f"]));
    elements.push_back(e);
  }
}
void read_value(od::value v, cases::company& c) {
  od::object object = v.get_object();
  c.name = text(object["name"]);
  c.founded = static_cast<std::int32_t>(std::int64_t(object["founded"]));
  for (od::object dv : object["departments"].get_array()) {
    cases::department d;
    d.name = text(dv["name"]);
    d.location = text(dv["location"]);
    d.budget = double(dv["budget"]);
    for (od::object ev : dv["staff"].get_array()) {
      cases::employee e;
      e.id = std::uint64_t(ev["id"]);
      e.name = text(ev["name"]);
      e.email = text(ev["email"]);
      e.salary = double(ev["salary"]);
      e.active = bool(ev["active"]);
      for (std::int64_t s : ev["scores"].get_array())
        e.scores.push_back(static_cast<std::int32_t>(s));
      for (od::value s : ev["skills"].get_array()) e.skills.push_back(text(s));
      d.staff.push_back(std::move(e));
    }
    c.departments.push_back(std::move(d));
  }
}

struct simdjson_ondemand {
  static constexpr const char* name = "simdjson_ondemand";
  static constexpr bool can_write = false;
  template <class T>
  static void read(const std::string& json, T& v) {
    static od::parser parser;
    // json_text() leaves capacity past the end for simdjson's padding.
    od::document document = parser.iterate(json.data(), json.size(), json.capacity());
    read_value(document.get_value(), v);
  }
};

const bench::library_registration registration([] { bench::json_cases<simdjson_ondemand>(); });

}  // namespace
