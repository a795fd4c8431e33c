#pragma once
// The cases for libraries that serialize C++ types directly (bale, Boost, cereal, msgpack). A
// library is a struct with:
//   static constexpr const char* name;  static constexpr bool text;   // text formats run fewer
//   reps template <class T> static Buffer write(const T&);                  // Buffer has data(),
//   size() template <class T> static void read(std::span<const char>, T&); template <class T>
//   static void write_file(const path&, const T&); template <class T> static void read_file(const
//   path&, T&);

#include <filesystem>
#include <span>
#include <string>

#include "cases/data.hpp"
#include "common/files.hpp"
#include "common/harness.hpp"

namespace bench {

template <class Buffer>
std::span<const char> as_chars(const Buffer& buffer) {
  return {reinterpret_cast<const char*>(buffer.data()), buffer.size()};
}

/// <case>/<library>/write and /read, in memory. The read result is compared with the input.
template <class Lib, class T>
void memory_cases(const std::string& case_name, const T& (*input)(), cost c) {
  add(
      case_name + "/" + Lib::name + "/write",
      [input](benchmark::State& state) {
        const T& value = input();
        std::size_t size = 0;
        for (auto _ : state) {
          auto bytes = Lib::write(value);
          size = bytes.size();
          benchmark::DoNotOptimize(bytes.data());
        }
        T back{};
        Lib::read(as_chars(Lib::write(value)), back);
        require(state, back == value, "round trip mismatch");
        report(state, cases::payload_bytes(value), size);
      },
      c);
  add(
      case_name + "/" + Lib::name + "/read",
      [input](benchmark::State& state) {
        const T& value = input();
        const auto bytes = Lib::write(value);
        T back{};
        for (auto _ : state) {
          back = T{};
          Lib::read(as_chars(bytes), back);
          benchmark::DoNotOptimize(&back);
        }
        require(state, back == value, "read mismatch");
        report(state, cases::payload_bytes(value), bytes.size());
      },
      c);
}

/// <case>/<library>/write_file and /read_file_cold (the file is evicted from the page cache
/// before every read, outside the timed region).
template <class Lib, class T>
void file_cases(const std::string& case_name, const T& (*input)(), cost c) {
  const auto path = scratch_file(case_name + "." + Lib::name);
  add(
      case_name + "/" + Lib::name + "/write_file",
      [input, path](benchmark::State& state) {
        const T& value = input();
        for (auto _ : state) Lib::write_file(path, value);
        T back{};
        Lib::read_file(path, back);
        require(state, back == value, "file round trip mismatch");
        report(state, cases::payload_bytes(value), std::filesystem::file_size(path));
      },
      c);
  add(
      case_name + "/" + Lib::name + "/read_file_cold",
      [input, path](benchmark::State& state) {
        const T& value = input();
        Lib::write_file(path, value);
        T back{};
        for (auto _ : state) {
          state.PauseTiming();
          evict_from_page_cache(path);
          back = T{};
          state.ResumeTiming();
          Lib::read_file(path, back);
          benchmark::DoNotOptimize(&back);
        }
        require(state, back == value, "file read mismatch");
        report(state, cases::payload_bytes(value), std::filesystem::file_size(path));
      },
      c);
}

template <class Lib>
void per_type_cases() {
  const cost c = cost::fast;
  memory_cases<Lib>("per_type_char", &cases::per_type<signed char>, c);
  memory_cases<Lib>("per_type_short", &cases::per_type<short>, c);
  memory_cases<Lib>("per_type_int", &cases::per_type<int>, c);
  memory_cases<Lib>("per_type_long", &cases::per_type<long>, c);
  memory_cases<Lib>("per_type_float", &cases::per_type<float>, c);
  memory_cases<Lib>("per_type_double", &cases::per_type<double>, c);
}

template <class Lib>
void tuple_case() {
  add(
      std::string("tuple_roundtrip/") + Lib::name + "/roundtrip",
      [](benchmark::State& state) {
        const auto& t = cases::tuple_value();
        const std::size_t rounds = cases::tuple_rounds();
        std::size_t size = 0;
        for (auto _ : state) {
          for (std::size_t i = 0; i < rounds; ++i) {
            const auto bytes = Lib::write(t);
            cases::tuple_message back;
            Lib::read(as_chars(bytes), back);
            if (!require(state, back == t, "tuple round trip mismatch")) return;
            size = bytes.size();
          }
        }
        report(state, 0, size);
      },
      Lib::text ? cost::slow : cost::fast);
}

/// Every case a direct-serialization library takes part in.
template <class Lib>
void generic_cases() {
  const cost big = Lib::text ? cost::slow : cost::fast;
  memory_cases<Lib>("double_array", &cases::double_array, big);
  file_cases<Lib>("double_array", &cases::double_array, big);
  file_cases<Lib>("double_blocks", &cases::double_blocks, big);
  per_type_cases<Lib>();
  tuple_case<Lib>();
  memory_cases<Lib>("seed_struct", &cases::seed_elements, cost::fast);
  file_cases<Lib>("seed_struct", &cases::seed_elements, cost::fast);
  memory_cases<Lib>("hps_double_array", &cases::hps_doubles, cost::fast);
  memory_cases<Lib>("hps_sparse_matrix", &cases::hps_sparse, cost::fast);
  memory_cases<Lib>("hps_hash_map", &cases::hps_map, cost::fast);
}

}  // namespace bench
