// Runs every registered library's benchmarks. The mode (BALE_BENCH_MODE) decides sizes and
// repetitions; the usual Google Benchmark flags (--benchmark_filter, --benchmark_out) still apply.
#include "common/harness.hpp"

int main(int argc, char** argv) {
  for (auto& add_library : bench::registrations()) add_library();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
