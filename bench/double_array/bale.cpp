// bale binary: the same four operations as the memcpy baseline.
#include <bale/bale.hpp>

#include "common/check.hpp"
#include "double_array/data.hpp"

namespace {

using bench::double_array::input;

void write_reused(benchmark::State& state) {
  const auto& v = input();
  std::vector<std::byte> out(bale::serialized_size(v));
  for (auto _ : state) {
    bale::serialize_to(out, v);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bench::require(state, bale::deserialize<std::vector<double>>(out) == v, "bale mismatch");
  bench::report_bytes(state, v.size() * sizeof(double), out.size());
}

void write_new(benchmark::State& state) {
  const auto& v = input();
  std::size_t size = 0;
  for (auto _ : state) {
    std::vector<std::byte> out = bale::serialize(v);
    size = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  bench::report_bytes(state, v.size() * sizeof(double), size);
}

void read_reused(benchmark::State& state) {
  const auto& v = input();
  const std::vector<std::byte> bytes = bale::serialize(v);
  std::vector<double> back(v.size());
  for (auto _ : state) {
    bale::deserialize(bytes, back);
    benchmark::DoNotOptimize(back.data());
    benchmark::ClobberMemory();
  }
  bench::require(state, back == v, "bale read mismatch");
  bench::report_bytes(state, v.size() * sizeof(double), bytes.size());
}

void read_new(benchmark::State& state) {
  const auto& v = input();
  const std::vector<std::byte> bytes = bale::serialize(v);
  for (auto _ : state) {
    auto back = bale::deserialize<std::vector<double>>(bytes);
    benchmark::DoNotOptimize(back.data());
  }
  bench::report_bytes(state, v.size() * sizeof(double), bytes.size());
}

BENCHMARK(write_reused)->Name("double_array/bale/write_reused")->Unit(benchmark::kMillisecond);
BENCHMARK(write_new)->Name("double_array/bale/write_new")->Unit(benchmark::kMillisecond);
BENCHMARK(read_reused)->Name("double_array/bale/read_reused")->Unit(benchmark::kMillisecond);
BENCHMARK(read_new)->Name("double_array/bale/read_new")->Unit(benchmark::kMillisecond);

}  // namespace
