// bale binary: write, read and the round trip of the seed struct.
#include <bale/bale.hpp>

#include "common/check.hpp"
#include "seed_struct/data.hpp"

namespace {

using bench::seed_struct::element;
using bench::seed_struct::input;

void write(benchmark::State& state) {
  const auto& v = input();
  std::size_t size = 0;
  for (auto _ : state) {
    auto bytes = bale::serialize(v);
    size = bytes.size();
    benchmark::DoNotOptimize(bytes.data());
  }
  bench::report_bytes(state, v.size() * sizeof(element), size);
}

void read(benchmark::State& state) {
  const auto& v = input();
  const auto bytes = bale::serialize(v);
  std::vector<element> back;
  for (auto _ : state) {
    back = bale::deserialize<std::vector<element>>(bytes);
    benchmark::DoNotOptimize(back.data());
  }
  bench::require(state, back == v, "bale read mismatch");
  bench::report_bytes(state, v.size() * sizeof(element), bytes.size());
}

void roundtrip(benchmark::State& state) {
  const auto& v = input();
  std::vector<element> back;
  std::size_t size = 0;
  for (auto _ : state) {
    const auto bytes = bale::serialize(v);
    back = bale::deserialize<std::vector<element>>(bytes);
    size = bytes.size();
    benchmark::DoNotOptimize(back.data());
  }
  bench::require(state, back == v, "bale round trip mismatch");
  bench::report_bytes(state, v.size() * sizeof(element), size);
}

BENCHMARK(write)->Name("seed_struct/bale/write")->Unit(benchmark::kMicrosecond);
BENCHMARK(read)->Name("seed_struct/bale/read")->Unit(benchmark::kMicrosecond);
BENCHMARK(roundtrip)->Name("seed_struct/bale/roundtrip")->Unit(benchmark::kMicrosecond);

}  // namespace
