// Baseline: memcpy of the same bytes, into a buffer kept across iterations and into a new one.
#include <cstring>

#include "common/check.hpp"
#include "double_array/data.hpp"

namespace {

using bench::double_array::input;

void write_reused(benchmark::State& state) {
  const auto& v = input();
  std::vector<std::byte> out(v.size() * sizeof(double));
  for (auto _ : state) {
    std::memcpy(out.data(), v.data(), out.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bench::require(state, std::memcmp(out.data(), v.data(), out.size()) == 0, "memcpy mismatch");
  bench::report_bytes(state, out.size(), out.size());
}

void write_new(benchmark::State& state) {
  const auto& v = input();
  for (auto _ : state) {
    std::vector<std::byte> out(v.size() * sizeof(double));
    std::memcpy(out.data(), v.data(), out.size());
    benchmark::DoNotOptimize(out.data());
  }
  bench::report_bytes(state, v.size() * sizeof(double), v.size() * sizeof(double));
}

void read_reused(benchmark::State& state) {
  const auto& v = input();
  std::vector<std::byte> bytes(v.size() * sizeof(double));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  std::vector<double> back(v.size());
  for (auto _ : state) {
    std::memcpy(back.data(), bytes.data(), bytes.size());
    benchmark::DoNotOptimize(back.data());
    benchmark::ClobberMemory();
  }
  bench::require(state, back == v, "memcpy read mismatch");
  bench::report_bytes(state, bytes.size(), bytes.size());
}

void read_new(benchmark::State& state) {
  const auto& v = input();
  std::vector<std::byte> bytes(v.size() * sizeof(double));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  for (auto _ : state) {
    std::vector<double> back(v.size());
    std::memcpy(back.data(), bytes.data(), bytes.size());
    benchmark::DoNotOptimize(back.data());
  }
  bench::report_bytes(state, bytes.size(), bytes.size());
}

BENCHMARK(write_reused)->Name("double_array/memcpy/write_reused")->Unit(benchmark::kMillisecond);
BENCHMARK(write_new)->Name("double_array/memcpy/write_new")->Unit(benchmark::kMillisecond);
BENCHMARK(read_reused)->Name("double_array/memcpy/read_reused")->Unit(benchmark::kMillisecond);
BENCHMARK(read_new)->Name("double_array/memcpy/read_new")->Unit(benchmark::kMillisecond);

}  // namespace
