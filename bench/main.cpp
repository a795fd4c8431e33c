// SPDX-License-Identifier: BSL-1.0
// Runs every registered library's benchmarks. The mode (BALE_BENCH_MODE) decides sizes and
// repetitions; the usual Google Benchmark flags (--benchmark_filter, --benchmark_out) still apply.
// The tables go to stdout, the progress of the run to stderr.
#include "common/files.hpp"
#include "common/harness.hpp"

int main(int argc, char** argv) {
  std::filesystem::remove_all(bench::scratch_dir());
  for (auto& add_library : bench::registrations()) add_library();
  benchmark::Initialize(&argc, argv);
  const char* modes[] = {"tiny", "quick", "full"};
  benchmark::AddCustomContext("bale_mode", modes[static_cast<int>(bench::mode())]);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::progress().start(benchmark::GetBenchmarkFilter());
  benchmark::RunSpecifiedBenchmarks();
  bench::progress().finish();
  benchmark::Shutdown();
  std::filesystem::remove_all(bench::scratch_dir());
  return 0;
}
