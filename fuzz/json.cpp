// SPDX-License-Identifier: BSL-1.0
// The JSON reader on arbitrary text: try_from_json never throws, never crashes, never allocates
// past the limits. Text it accepts writes back to text that reads again to the same text, and
// the lenient options accept whatever the strict ones do, with the same result. Each input is read
// as the message type and as a list of number-only samples. Arrays of integers read into vectors
// (many numbers at a time) and into deques (one element at a time) agree, errors included.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string_view>
#include <vector>

#include "message.hpp"

namespace {

template <class T>
void check(std::string_view text) {
  bale::limits lim;
  lim.max_allocation = 1U << 24;
  bale::json_options lenient;
  lenient.skip_unknown_members = true;
  lenient.allow_missing_members = true;
  auto strict = bale::try_from_json<T>(text, {}, lim);
  auto relaxed = bale::try_from_json<T>(text, lenient, lim);
  if (strict) {
    if (!relaxed) std::abort();
    const std::string once = bale::to_json(*strict);
    if (bale::to_json(*relaxed) != once) std::abort();
    auto again = bale::try_from_json<T>(once);
    if (!again || bale::to_json(*again) != once) std::abort();
  }
}

void check_integer_arrays(std::string_view text) {
  const auto by_array = bale::try_from_json<std::vector<std::vector<std::int16_t>>>(text);
  const auto by_element = bale::try_from_json<std::vector<std::deque<std::int16_t>>>(text);
  if (by_array.has_value() != by_element.has_value()) std::abort();
  if (by_array) {
    const auto same = [](const auto& a, const auto& b) {
      return std::equal(a.begin(), a.end(), b.begin(), b.end());
    };
    if (!std::equal(by_array->begin(), by_array->end(), by_element->begin(), by_element->end(),
                    same))
      std::abort();
  } else if (by_array.error().offset() != by_element.error().offset() ||
             std::strcmp(by_array.error().what(), by_element.error().what()) != 0) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<char> copy(data, data + size);  // exact size: a read past the end is caught
  const std::string_view text(copy.data(), copy.size());
  check<fuzz::message>(text);
  check<fuzz::samples>(text);
  check_integer_arrays(text);
  return 0;
}
