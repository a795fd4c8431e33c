// Baselines: copying the std::vector (one copy), and memcpy to bytes and back (two copies).
#include <cstring>

#include "common/check.hpp"
#include "seed_struct/data.hpp"

namespace {

using bench::seed_struct::element;
using bench::seed_struct::input;

void copy(benchmark::State& state) {
  const auto& v = input();
  for (auto _ : state) {
    std::vector<element> copy = v;
    benchmark::DoNotOptimize(copy.data());
    if (!bench::require(state, copy.size() == v.size(), "copy size")) break;
  }
  bench::report_bytes(state, v.size() * sizeof(element), v.size() * sizeof(element));
}

void roundtrip(benchmark::State& state) {
  const auto& v = input();
  std::vector<element> back;
  for (auto _ : state) {
    std::vector<std::byte> bytes(v.size() * sizeof(element));
    std::memcpy(bytes.data(), v.data(), bytes.size());
    back.assign(reinterpret_cast<const element*>(bytes.data()),
                reinterpret_cast<const element*>(bytes.data()) + v.size());
    benchmark::DoNotOptimize(back.data());
  }
  bench::require(state, back == v, "memcpy round trip mismatch");
  bench::report_bytes(state, v.size() * sizeof(element), v.size() * sizeof(element));
}

BENCHMARK(copy)->Name("seed_struct/vector_copy/copy")->Unit(benchmark::kMicrosecond);
BENCHMARK(roundtrip)->Name("seed_struct/memcpy/roundtrip")->Unit(benchmark::kMicrosecond);

}  // namespace
