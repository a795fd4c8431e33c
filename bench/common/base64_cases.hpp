// SPDX-License-Identifier: BSL-1.0
#pragma once
// Case 9: base64 on 1, 8 and 64 MB of random bytes (seed 001's sizes). A codec library encodes
// and decodes in memory into a buffer it keeps (the codec alone); a tool runs as a whole process
// on a file, its output sent to /dev/null. Throughput is the raw bytes per second, both ways.
#include <benchmark/benchmark.h>
#include <bale/base64/base64.hpp>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "common/harness.hpp"

namespace bench {

struct base64_size {
  const char* case_name;
  std::size_t bytes;
};
inline constexpr base64_size base64_sizes[] = {
    {"base64_1MB", 1U << 20}, {"base64_8MB", 8U << 20}, {"base64_64MB", 64U << 20}};

/// n random bytes (tiny mode: a few hundred), made once per size.
inline const std::vector<std::byte>& base64_input(std::size_t n) {
  static std::vector<std::vector<std::byte>> made(std::size(base64_sizes));
  for (std::size_t k = 0; k < std::size(base64_sizes); ++k) {
    if (base64_sizes[k].bytes != n) continue;
    if (made[k].empty()) {
      made[k].resize(scaled(n, 300 + k));
      std::mt19937_64 rng(9);
      for (auto& b : made[k]) b = static_cast<std::byte>(rng());
    }
    return made[k];
  }
  throw std::logic_error("no base64 case of that size");
}

/// The same bytes as padded standard base64, the text every decoder reads.
inline const std::string& base64_text(std::size_t n) {
  static std::vector<std::string> made(std::size(base64_sizes));
  for (std::size_t k = 0; k < std::size(base64_sizes); ++k)
    if (base64_sizes[k].bytes == n) {
      if (made[k].empty()) made[k] = bale::base64::encode(base64_input(n));
      return made[k];
    }
  throw std::logic_error("no base64 case of that size");
}

template <class Lib>
void base64_cases() {
  for (const auto& size : base64_sizes) {
    const std::size_t n = size.bytes;
    add(std::string(size.case_name) + "/" + Lib::name + "/encode", [n](benchmark::State& state) {
      const auto& input = base64_input(n);
      std::string out;
      for (auto _ : state) {
        Lib::encode(input, out);
        benchmark::DoNotOptimize(out.data());
      }
      require(state, out == base64_text(n), "encoded text differs");
      report(state, input.size(), out.size());
    });
    add(std::string(size.case_name) + "/" + Lib::name + "/decode", [n](benchmark::State& state) {
      const auto& text = base64_text(n);
      std::vector<std::byte> out;
      for (auto _ : state) {
        Lib::decode(text, out);
        benchmark::DoNotOptimize(out.data());
      }
      require(state, out == base64_input(n), "decoded bytes differ");
      report(state, out.size(), text.size());
    });
  }
}

}  // namespace bench
