// SPDX-License-Identifier: BSL-1.0
#pragma once
// Progress of a run on stderr while the tables go to the log: how many repetitions are done of how
// many, the time spent and an estimate of the time left. On a terminal one line is redrawn;
// elsewhere (CI logs) a line is printed at every tenth of the run.
//
// Counted in the benchmarks themselves, not by the reporter: with random interleaving a benchmark
// is reported only after its last repetition, so the reporter sees nothing for most of the run.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace bench {

class progress_meter {
 public:
  /// Every registered benchmark and its number of repetitions (filled by bench::add).
  void plan(std::string name, int repetitions) {
    planned_.emplace_back(std::move(name), repetitions);
  }

  /// Starts the clock; counts the repetitions the filter selects, as Google Benchmark selects
  /// them (a leading '-' negates).
  void start(std::string filter) {
    if (filter.empty() || filter == "all" || filter == ".") filter = ".*";
    const bool negated = filter.front() == '-';
    if (negated) filter.erase(0, 1);
    const std::regex pattern(filter, std::regex::extended);
    total_ = 0;
    for (const auto& [name, repetitions] : planned_)
      if (std::regex_search(name, pattern) != negated) total_ += repetitions;
    start_ = clock::now();
  }

  /// One repetition of `name` has finished.
  void done(const std::string& name) {
    ++done_;
    const int tenth = total_ > 0 ? done_ * 10 / total_ : 10;
    if (!on_terminal_ && tenth == shown_tenth_) return;
    shown_tenth_ = tenth;
    const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();
    const double left = done_ > 0 && total_ > done_ ? elapsed / done_ * (total_ - done_) : 0;
    std::fprintf(stderr, "%s[%d/%d] %s elapsed, about %s left  %-50.50s%s",
                 on_terminal_ ? "\r" : "", done_, total_, minutes(elapsed).c_str(),
                 minutes(left).c_str(), name.c_str(), on_terminal_ ? "" : "\n");
    std::fflush(stderr);
  }

  void finish() const {
    if (on_terminal_) std::fputc('\n', stderr);
  }

 private:
  using clock = std::chrono::steady_clock;

  static std::string minutes(double seconds) {
    const int s = static_cast<int>(seconds + 0.5);
    char text[32];
    std::snprintf(text, sizeof text, "%d:%02d", s / 60, s % 60);
    return text;
  }

  std::vector<std::pair<std::string, int>> planned_;
  int total_ = 0;
  int done_ = 0;
  int shown_tenth_ = -1;
  bool on_terminal_ = isatty(2) != 0;
  clock::time_point start_ = clock::now();
};

inline progress_meter& progress() {
  static progress_meter meter;
  return meter;
}

}  // namespace bench
