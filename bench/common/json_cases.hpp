// SPDX-License-Identifier: BSL-1.0
#pragma once
// Case 8: JSON, bale against the JSON libraries, each through its usual mapping code for the same
// C++ structs. Every library reads the same text (bale's output, with room for simdjson's padding)
// and writes the same values; a write is checked by reading it back with bale, a read by comparing
// with the input. Throughput is the text's bytes per second.
#include <benchmark/benchmark.h>
#include <bale/all.hpp>

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "cases/data.hpp"
#include "cases/document.hpp"
#include "common/harness.hpp"

namespace bench {

/// The text every library reads: bale's, with spare capacity for parsers that read past the end.
template <class T>
const std::string& json_text(const T& value) {
  static const std::string text = [&] {
    std::string t = bale::to_json(value);
    t.reserve(t.size() + 128);
    return t;
  }();
  return text;
}

/// Times read(text, value, back) into a fresh T per iteration (made outside the timing), and
/// checks the last one against the input.
template <class T, class Read>
void time_json_read(benchmark::State& state, const T& value, const Read& read) {
  const std::string& text = json_text(value);
  T back{};
  for (auto _ : state) {
    state.PauseTiming();
    back = T{};
    state.ResumeTiming();
    read(text, value, back);
    benchmark::DoNotOptimize(&back);
  }
  require(state, back == value, "decoded value differs");
  report(state, text.size(), text.size());
}

/// A read of the case's text, as time_json_read.
template <class T, class Read>
void json_read_case(const std::string& name, const T& (*input)(), Read read) {
  add(name, [input, read](benchmark::State& state) { time_json_read(state, input(), read); });
}

template <class Lib, class T>
void json_case(const std::string& case_name, const T& (*input)()) {
  if constexpr (Lib::can_write) {
    add(case_name + "/" + Lib::name + "/write", [input](benchmark::State& state) {
      const T& value = input();
      std::string text;
      for (auto _ : state) {
        text = Lib::write(value);
        benchmark::DoNotOptimize(text.data());
      }
      require(state, bale::from_json<T>(text) == value, "written text reads back differently");
      report(state, text.size(), text.size());
    });
  }
  json_read_case(case_name + "/" + Lib::name + "/read", input,
                 [](const std::string& text, const T&, T& back) { Lib::read(text, back); });
}

/// The three JSON cases: the HPS hash map, 100,000 seed structs, the nested document.
template <class Lib>
void json_cases() {
  json_case<Lib>("json_hash_map", &cases::hps_map);
  json_case<Lib>("json_seed_struct", &cases::seed_elements);
  json_case<Lib>("json_document", &cases::document);
}

/// The floors of a JSON case, measured like the libraries: no writer is faster than copying the
/// finished text into a new string (memcpy), no reader faster than building the same structs by
/// copying the value (value_copy: every allocation and insertion, no text).
template <class T>
void json_floor_case(const std::string& case_name, const T& (*input)()) {
  add(case_name + "/memcpy/write", [input](benchmark::State& state) {
    const std::string& text = json_text(input());
    std::string copy;
    for (auto _ : state) {
      copy = std::string(text);
      benchmark::DoNotOptimize(copy.data());
    }
    require(state, copy == text, "copied text differs");
    report(state, text.size(), text.size());
  });
  json_read_case(case_name + "/value_copy/read", input,
                 [](const std::string&, const T& value, T& back) { back = value; });
}

/// The hash-map read's tighter floor, the least any reader of its text must do: convert each
/// number (std::from_chars) and emplace each key with it into a map reserved for all of them, in
/// bucket order, the order that inserts fastest. The keys and numbers are located in the text and
/// put in that order outside the timing, so no scanning, checking or ordering is timed.
inline void json_hash_map_insert_floor() {
  add("json_hash_map/convert_insert/read", [](benchmark::State& state) {
    const cases::hash_map& value = cases::hps_map();
    const std::string& text = json_text(value);
    cases::hash_map shape;  // a map reserved as the timed ones are: the same buckets
    shape.reserve(value.size());
    struct located {
      std::string_view key;
      const char* number;
      std::size_t bucket;
    };
    // bale's compact text: {"key":number,"key":number,...}, keys without escapes.
    std::vector<located> entries;
    for (std::size_t at = 1; at < text.size() && text[at] == '"';) {
      const std::size_t close = text.find('"', at + 1);
      const std::string key(text, at + 1, close - at - 1);
      entries.push_back({std::string_view(text.data() + at + 1, key.size()), &text[close + 2],
                         shape.bucket(key)});
      at = text.find_first_of(",}", close + 2) + 1;
    }
    require(state, entries.size() == value.size(), "keys not located");
    std::ranges::stable_sort(entries, {}, &located::bucket);
    time_json_read(state, value,
                   [&](const std::string& json, const cases::hash_map&, cases::hash_map& back) {
                     const char* const end = json.data() + json.size();
                     back.reserve(entries.size());
                     for (const located& e : entries) {
                       double number;
                       std::from_chars(e.number, end, number);
                       back.emplace(e.key, number);
                     }
                   });
  });
}

inline void json_floors() {
  json_hash_map_insert_floor();
  json_floor_case("json_hash_map", &cases::hps_map);
  json_floor_case("json_seed_struct", &cases::seed_elements);
  json_floor_case("json_document", &cases::document);
}

}  // namespace bench
