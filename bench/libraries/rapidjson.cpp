// SPDX-License-Identifier: BSL-1.0
// RapidJSON: the usual hand-written mapping, a Writer over a StringBuffer to write and a Document
// (DOM, full-precision numbers so doubles read back exactly) walked member by member to read.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <stdexcept>

#include "common/json_cases.hpp"

namespace {

using writer = rapidjson::Writer<rapidjson::StringBuffer>;
using value = rapidjson::Value;

void put(writer& w, const std::string& s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

void write_value(writer& w, const cases::hash_map& map) {
  w.StartObject();
  for (const auto& [key, number] : map) {
    w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    w.Double(number);
  }
  w.EndObject();
}
void write_value(writer& w, const std::vector<cases::seed_element>& elements) {
  w.StartArray();
  for (const auto& e : elements) {
    w.StartObject();
    w.Key("vec");
    w.StartArray();
    for (float x : e.vec) w.Double(x);
    w.EndArray();
    w.Key("i");
    w.Int(e.i);
    w.Key("f");
    w.Double(e.f);
    w.EndObject();
  }
  w.EndArray();
}
void write_value(writer& w, const cases::company& c) {
  w.StartObject();
  w.Key("name");
  put(w, c.name);
  w.Key("founded");
  w.Int(c.founded);
  w.Key("departments");
  w.StartArray();
  for (const auto& d : c.departments) {
    w.StartObject();
    w.Key("name");
    put(w, d.name);
    w.Key("location");
    put(w, d.location);
    w.Key("budget");
    w.Double(d.budget);
    w.Key("staff");
    w.StartArray();
    for (const auto& e : d.staff) {
      w.StartObject();
      w.Key("id");
      w.Uint64(e.id);
      w.Key("name");
      put(w, e.name);
      w.Key("email");
      put(w, e.email);
      w.Key("salary");
      w.Double(e.salary);
      w.Key("active");
      w.Bool(e.active);
      w.Key("scores");
      w.StartArray();
      for (auto s : e.scores) w.Int(s);
      w.EndArray();
      w.Key("skills");
      w.StartArray();
      for (const auto& s : e.skills) put(w, s);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

const value& member(const value& object, const char* name) {
  const auto found = object.FindMember(name);
  if (found == object.MemberEnd()) throw std::runtime_error(std::string("missing ") + name);
  return found->value;
}
std::string text(const value& v) {
  return {v.GetString(), v.GetStringLength()};
}

void read_value(const value& v, cases::hash_map& map) {
  for (const auto& m : v.GetObject()) map.emplace(text(m.name), m.value.GetDouble());
}
void read_value(const value& v, std::vector<cases::seed_element>& elements) {
  for (const auto& item : v.GetArray()) {
    cases::seed_element e;
    int k = 0;
    for (const auto& x : member(item, "vec").GetArray())
      e.vec[k++ & 3] = static_cast<float>(x.GetDouble());
    e.i = member(item, "i").GetInt();
    e.f = static_cast<float>(member(item, "f").GetDouble());
    elements.push_back(e);
  }
}
void read_value(const value& v, cases::company& c) {
  c.name = text(member(v, "name"));
  c.founded = member(v, "founded").GetInt();
  for (const auto& dv : member(v, "departments").GetArray()) {
    cases::department d;
    d.name = text(member(dv, "name"));
    d.location = text(member(dv, "location"));
    d.budget = member(dv, "budget").GetDouble();
    for (const auto& ev : member(dv, "staff").GetArray()) {
      cases::employee e;
      e.id = member(ev, "id").GetUint64();
      e.name = text(member(ev, "name"));
      e.email = text(member(ev, "email"));
      e.salary = member(ev, "salary").GetDouble();
      e.active = member(ev, "active").GetBool();
      for (const auto& s : member(ev, "scores").GetArray()) e.scores.push_back(s.GetInt());
      for (const auto& s : member(ev, "skills").GetArray()) e.skills.push_back(text(s));
      d.staff.push_back(std::move(e));
    }
    c.departments.push_back(std::move(d));
  }
}

struct rapidjson_library {
  static constexpr const char* name = "rapidjson";
  static constexpr bool can_write = true;
  template <class T>
  static std::string write(const T& v) {
    rapidjson::StringBuffer buffer;
    writer w(buffer);
    write_value(w, v);
    return {buffer.GetString(), buffer.GetSize()};
  }
  template <class T>
  static void read(const std::string& json, T& v) {
    rapidjson::Document document;
    document.Parse<rapidjson::kParseFullPrecisionFlag>(json.data(), json.size());
    if (document.HasParseError()) throw std::runtime_error("rapidjson: parse error");
    read_value(document, v);
  }
};

const bench::library_registration registration([] { bench::json_cases<rapidjson_library>(); });

}  // namespace
