// SPDX-License-Identifier: BSL-1.0
#pragma once
// Timing in rounds for the MPI benchmarks: methods interleaved round by round, medians with
// quartiles, paired ratios, and the cells of the Markdown tables.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace bale_bench {

/// The lower quartile, median and upper quartile of some values.
struct quartiles {
  double low = 0, median = 0, high = 0;
};
inline quartiles quartiles_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto at = [&](double q) {  // linear interpolation between the closest ranks
    const double position = q * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(position);
    const std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] +
           (position - static_cast<double>(below)) * (values[above] - values[below]);
  };
  return {at(0.25), at(0.5), at(0.75)};
}

/// Seconds per call of each method in each round.
struct timings {
  std::vector<std::vector<double>> rounds;  // [method][round]

  double median(std::size_t method) const { return quartiles_of(rounds[method]).median; }
  double fastest(std::size_t method) const {
    return *std::min_element(rounds[method].begin(), rounds[method].end());
  }
  /// time(base) / time(method), round by round: the two ran side by side in each round, so the
  /// machine's drift between rounds cancels. Above 1, `method` is faster.
  quartiles ratio(std::size_t base, std::size_t method) const {
    std::vector<double> ratios;
    for (std::size_t r = 0; r < rounds[base].size(); ++r)
      ratios.push_back(rounds[base][r] / rounds[method][r]);
    return quartiles_of(ratios);
  }
};

// The methods take turns round by round, in alternating order (A B C, C B A) so that neither
// runs first more often; each round calls a method often enough to last round_seconds.
inline timings interleaved(int rounds, double round_seconds,
                           const std::vector<std::function<void()>>& methods) {
  timings t;
  t.rounds.resize(methods.size());
  std::vector<int> calls(methods.size(), 1);
  for (std::size_t i = 0; i < methods.size(); ++i) {  // warm up and size the rounds
    const auto start = std::chrono::steady_clock::now();
    methods[i]();
    const double once =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double longest = once;
    MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    calls[i] = std::max(1, static_cast<int>(round_seconds / std::max(longest, 1e-9)));
  }
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < methods.size(); ++k) {
      const std::size_t i = round % 2 == 0 ? k : methods.size() - 1 - k;
      MPI_Barrier(MPI_COMM_WORLD);
      const auto start = std::chrono::steady_clock::now();
      for (int call = 0; call < calls[i]; ++call) methods[i]();
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
          calls[i];
      // The slower rank's time: a round trip or a broadcast ends when both are done.
      MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      t.rounds[i].push_back(seconds);
    }
  }
  return t;
}

/// A ratio of speeds as its median over rounds and, in brackets, its quartiles; marked with "~"
/// when the quartiles lie more than 10 % apart, where one run says little about the ratio.
inline std::string ratio_cell(const quartiles& q) {
  char text[96];
  const bool noisy = q.high - q.low > 0.1 * q.median;
  std::snprintf(text, sizeof text, "%s%.2f (%.2f-%.2f)", noisy ? "~" : "", q.median, q.low, q.high);
  return text;
}

inline std::string human(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20)) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}
inline std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

}  // namespace bale_bench
