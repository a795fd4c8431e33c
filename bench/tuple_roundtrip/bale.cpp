// Case: 500,000 round trips of tuple<int, uint64_t, vector<uint8_t>, string> with a seed's values.
#include <bale/bale.hpp>

#include "common/check.hpp"

namespace {

using message = std::tuple<int, std::uint64_t, std::vector<std::uint8_t>, std::string>;

const message& input() {
  static const message value{10, 20, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, "hello cpp-love!"};
  return value;
}

std::size_t rounds() {
  return std::getenv("BALE_BENCH_TINY") ? 100 : 500'000;
}

void roundtrip(benchmark::State& state) {
  const message& t = input();
  const std::size_t n = rounds();
  std::size_t size = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto bytes = bale::serialize(t);
      const auto back = bale::deserialize<message>(bytes);
      if (back != t) {
        state.SkipWithError("bale round trip mismatch");
        return;
      }
      size = bytes.size();
    }
  }
  state.counters["encoded_bytes"] = static_cast<double>(size);
  state.counters["roundtrips"] = static_cast<double>(n);
}

BENCHMARK(roundtrip)->Name("tuple_roundtrip/bale/roundtrip")->Unit(benchmark::kMillisecond);

}  // namespace
