// SPDX-License-Identifier: BSL-1.0
// The baselines: memcpy of the same bytes, copying the std::vector, and raw file write plus
// mmap + memcpy back, for the cases whose data is trivially copyable.
#include <bale/compress/compress.hpp>
#include <cstring>

#include "common/generic_cases.hpp"

namespace {

template <class T>
std::span<const char> bytes_of(const std::vector<T>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}

struct raw_memcpy {
  static constexpr const char* name = "memcpy";
  static constexpr bool text = false;

  template <class T>
  static std::vector<char> write(const std::vector<T>& value) {
    std::vector<char> out(value.size() * sizeof(T));
    std::memcpy(out.data(), value.data(), out.size());
    return out;
  }
  template <class T>
  static void read(std::span<const char> bytes, std::vector<T>& value) {
    value.resize(bytes.size() / sizeof(T));
    std::memcpy(value.data(), bytes.data(), bytes.size());
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const std::vector<T>& value) {
    bench::write_whole_file(path, value.data(), value.size() * sizeof(T));
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, std::vector<T>& value) {
    const bench::mapped_file file(path);
    read(file.bytes(), value);
  }
};

// memcpy + LZ4 (the seed's compressed baseline): the raw bytes, LZ4-compressed into the file.
struct memcpy_lz4 : raw_memcpy {
  static constexpr const char* name = "memcpy_lz4";
  template <class T>
  static void write_file(const std::filesystem::path& path, const std::vector<T>& value) {
    const auto packed = bale::compress(std::as_bytes(std::span(value)), bale::codec::lz4);
    bench::write_whole_file(path, packed.data(), packed.size());
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, std::vector<T>& value) {
    const bench::mapped_file file(path);
    const auto raw = bale::decompress(std::as_bytes(file.bytes()));
    value.resize(raw.size() / sizeof(T));
    std::memcpy(value.data(), raw.data(), raw.size());
  }
};

// The seed's in-memory baseline: `std::vector<T> copy = elements;`.
template <class T>
void vector_copy(const std::string& case_name, const std::vector<T>& (*input)()) {
  bench::add(case_name + "/vector_copy/copy", [input](benchmark::State& state) {
    const auto& value = input();
    std::vector<T> copy;
    for (auto _ : state) {
      copy = value;
      benchmark::DoNotOptimize(copy.data());
    }
    bench::require(state, copy == value, "copy mismatch");
    bench::report(state, cases::payload_bytes(value), cases::payload_bytes(value));
  });
}

// memcpy into memory kept across calls: the baseline of bale's write_reused / read_reused.
void reused_cases() {
  bench::add("double_array/memcpy/write_reused", [](benchmark::State& state) {
    const auto& value = cases::double_array();
    std::vector<std::byte> out(cases::payload_bytes(value));
    for (auto _ : state) {
      std::memcpy(out.data(), value.data(), out.size());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    bench::require(state, std::memcmp(out.data(), value.data(), out.size()) == 0, "copy differs");
    bench::report(state, out.size(), out.size());
  });
  bench::add("double_array/memcpy/read_reused", [](benchmark::State& state) {
    const auto& value = cases::double_array();
    std::vector<std::byte> bytes(cases::payload_bytes(value));
    std::memcpy(bytes.data(), value.data(), bytes.size());
    std::vector<double> back(value.size());
    for (auto _ : state) {
      std::memcpy(back.data(), bytes.data(), bytes.size());
      benchmark::DoNotOptimize(back.data());
      benchmark::ClobberMemory();
    }
    bench::require(state, back == value, "copy differs");
    bench::report(state, bytes.size(), bytes.size());
  });
}

const bench::library_registration registration([] {
  reused_cases();
  using bench::cost;
  bench::memory_cases<raw_memcpy>("double_array", &cases::double_array, cost::fast);
  bench::file_cases<raw_memcpy>("double_array", &cases::double_array, cost::fast);
  for (const auto& [case_name, input] : cases::seed_distributions) {
    bench::memory_cases<raw_memcpy>(case_name, input, cost::fast);
    bench::file_cases<raw_memcpy>(case_name, input, cost::fast);
    bench::file_cases<memcpy_lz4>(case_name, input, cost::fast);
    vector_copy(case_name, input);
  }
  bench::memory_cases<raw_memcpy>("hps_double_array", &cases::hps_doubles, cost::fast);
  bench::file_cases<memcpy_lz4>("double_array", &cases::double_array, cost::fast);
  vector_copy("double_array", &cases::double_array);
});

}  // namespace
