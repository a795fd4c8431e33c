// SPDX-License-Identifier: BSL-1.0
#pragma once
// The cases for libraries that serialize C++ types directly (bale, Boost, cereal, msgpack). A
// library is a struct with:
//   static constexpr const char* name;  static constexpr bool text;   // text formats run fewer
//   reps template <class T> static Buffer write(const T&);                  // Buffer has data(),
//   size() template <class T> static void read(std::span<const char>, T&); template <class T>
//   static void write_file(const path&, const T&); template <class T> static void read_file(const
//   path&, T&);

#include <filesystem>
#include <memory>
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

/// What the write and read benchmarks of one library and case share: the bytes the writer made,
/// which the reader decodes and compares with the input (so the writer's output is checked without
/// encoding it twice).
template <class Buffer>
struct shared_encoding {
  std::unique_ptr<Buffer> bytes;
};

/// <case>/<library>/write, in memory.
template <class Lib, class T, class Buffer>
void write_case(const std::string& case_name, const T& (*input)(), cost c,
                std::shared_ptr<shared_encoding<Buffer>> shared) {
  add(
      case_name + "/" + Lib::name + "/write",
      [input, shared](benchmark::State& state) {
        const T& value = input();
        std::size_t size = 0;
        for (auto _ : state) {
          auto bytes = Lib::write(value);
          size = bytes.size();
          benchmark::DoNotOptimize(bytes.data());
          if (!shared->bytes) shared->bytes = std::make_unique<Buffer>(std::move(bytes));
        }
        report(state, cases::payload_bytes(value), size);
      },
      c);
}

/// <case>/<library>/<operation> (read by default), in memory: decodes the writer's bytes and
/// compares the result with the input.
template <class Lib, class T, class Buffer>
void read_case(const std::string& case_name, const T& (*input)(), const std::string& operation,
               cost c, std::shared_ptr<shared_encoding<Buffer>> shared) {
  add(
      case_name + "/" + Lib::name + "/" + operation,
      [input, shared](benchmark::State& state) {
        const T& value = input();
        if (!shared->bytes) shared->bytes = std::make_unique<Buffer>(Lib::write(value));
        const auto& bytes = *shared->bytes;
        T back{};
        for (auto _ : state) {
          back = T{};
          Lib::read(as_chars(bytes), back);
          benchmark::DoNotOptimize(&back);
        }
        require(state, back == value, "decoded value differs from the input");
        report(state, cases::payload_bytes(value), bytes.size());
      },
      c);
}

template <class Lib, class T>
auto encoding_for(const T& (*input)()) {
  return std::make_shared<shared_encoding<decltype(Lib::write(input()))>>();
}

template <class Lib, class T>
void memory_cases(const std::string& case_name, const T& (*input)(), cost c) {
  auto shared = encoding_for<Lib>(input);
  write_case<Lib>(case_name, input, c, shared);
  read_case<Lib>(case_name, input, "read", c, shared);
}

/// A further read operation on its own encoding (FlatBuffers' read_twice).
template <class Lib, class T>
void read_case(const std::string& case_name, const T& (*input)(), const std::string& operation) {
  read_case<Lib>(case_name, input, operation, cost::fast, encoding_for<Lib>(input));
}

/// <case>/<library>/write_file and /read_file_cold. The cold read decodes the file the writer made
/// (evicted from the page cache before every read, outside the timed region) and compares.
template <class Lib, class T>
void file_cases(const std::string& case_name, const T& (*input)(), cost c) {
  const auto path = scratch_file(case_name + "." + Lib::name);
  add(
      case_name + "/" + Lib::name + "/write_file",
      [input, path](benchmark::State& state) {
        const T& value = input();
        for (auto _ : state) Lib::write_file(path, value);
        report(state, cases::payload_bytes(value), std::filesystem::file_size(path));
      },
      c);
  add(
      case_name + "/" + Lib::name + "/read_file_cold",
      [input, path](benchmark::State& state) {
        const T& value = input();
        if (!std::filesystem::exists(path)) Lib::write_file(path, value);
        T back{};
        for (auto _ : state) {
          state.PauseTiming();
          evict_from_page_cache(path);
          back = T{};
          state.ResumeTiming();
          Lib::read_file(path, back);
          benchmark::DoNotOptimize(&back);
        }
        require(state, back == value, "file decoded differs from the input");
        report(state, cases::payload_bytes(value), std::filesystem::file_size(path));
      },
      c);
}

template <class Lib>
void per_type_cases() {
  const cost c = Lib::text ? cost::slow : cost::fast;
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
  // Text archives take seconds per pass over 10^7 doubles: the quick run leaves them to --full.
  if (!Lib::text || mode() != run_mode::quick) {
    memory_cases<Lib>("double_array", &cases::double_array, big);
    file_cases<Lib>("double_array", &cases::double_array, big);
    file_cases<Lib>("double_blocks", &cases::double_blocks, big);
  }
  per_type_cases<Lib>();
  tuple_case<Lib>();
  memory_cases<Lib>("seed_struct", &cases::seed_elements, cost::fast);
  file_cases<Lib>("seed_struct", &cases::seed_elements, cost::fast);
  memory_cases<Lib>("hps_double_array", &cases::hps_doubles, cost::fast);
  memory_cases<Lib>("hps_sparse_matrix", &cases::hps_sparse, cost::fast);
  memory_cases<Lib>("hps_hash_map", &cases::hps_map, cost::fast);
}

}  // namespace bench
