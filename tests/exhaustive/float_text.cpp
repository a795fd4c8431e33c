// SPDX-License-Identifier: BSL-1.0
// Every positive finite float (or the bit patterns in [first, last) given as arguments) written by
// bale's shortest-float writer and compared with std::to_chars: the same shortest digits and
// exponent, the same text byte for byte (plain or scientific), and text that reads back to the
// same bits. Too long for the test suite (a few minutes on two cores); run by hand after touching
// number_text.hpp:
//   cmake --build --preset dev --target bale_float_text_exhaustive
//   build/dev/tests/bale_float_text_exhaustive
#include <bale/json/detail/float_from_chars.hpp>
#include <bale/json/detail/number_text.hpp>

#include "support/scientific_text.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

namespace {

// to_chars's shortest scientific text as significand * 10^exponent without trailing zeros.
bale::detail::decimal_value reference_decimal(float value) {
  char text[64];
  const char* end =
      std::to_chars(text, text + sizeof text, value, std::chars_format::scientific).ptr;
  auto [significand, exponent] = bale_test::read_scientific(text, end);
  while (significand != 0 && significand % 10 == 0) {
    significand /= 10;
    ++exponent;
  }
  return {significand, exponent};
}

std::uint64_t check_range(std::uint32_t first, std::uint32_t last) {
  std::uint64_t failures = 0;
  for (std::uint64_t bits = first; bits < last; ++bits) {
    const float value = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    const bale::detail::decimal_value ours = bale::detail::shortest_decimal(value);
    const bale::detail::decimal_value expected = reference_decimal(value);
    char text[64];
    const char* end = bale::detail::write_shortest(text, value);
    char reference[64];
    const char* reference_end = std::to_chars(reference, reference + sizeof reference, value).ptr;
    const std::string_view ours_text(text, end), reference_text(reference, reference_end);
    // Integers from 2^24 on: to_chars writes the value's exact digits, bale its shortest digits
    // and zeros, as long.
    const bool same_text = ours_text == reference_text ||
                           (value >= 0x1p24f && ours_text.size() == reference_text.size() &&
                            reference_text.find_first_of(".e") == std::string_view::npos);
    float back = 0;
    bale::detail::float_from_chars(text, end, back);
    if (ours.significand != expected.significand || ours.exponent != expected.exponent ||
        !same_text || std::bit_cast<std::uint32_t>(back) != bits) {
      if (++failures <= 10)
        std::printf("0x%08x: %.*s, expected %llue%d\n", static_cast<unsigned>(bits),
                    static_cast<int>(end - text), text,
                    static_cast<unsigned long long>(expected.significand), expected.exponent);
    }
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint32_t first =
      argc > 1 ? static_cast<std::uint32_t>(std::strtoul(argv[1], nullptr, 0)) : 1;
  const std::uint32_t last =
      argc > 2 ? static_cast<std::uint32_t>(std::strtoul(argv[2], nullptr, 0)) : 0x7F800000u;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<std::uint64_t> failures{0};
  std::vector<std::thread> workers;
  const std::uint64_t span = (static_cast<std::uint64_t>(last) - first + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const std::uint64_t from = first + t * span, to = std::min<std::uint64_t>(last, from + span);
    if (from >= to) break;
    workers.emplace_back([&failures, from, to] {
      failures += check_range(static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to));
    });
  }
  for (auto& worker : workers) worker.join();
  std::printf("floats 0x%08x..0x%08x: %llu failures\n", static_cast<unsigned>(first),
              static_cast<unsigned>(last), static_cast<unsigned long long>(failures.load()));
  return failures == 0 ? 0 : 1;
}
