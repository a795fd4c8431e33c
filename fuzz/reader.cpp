// SPDX-License-Identifier: BSL-1.0
// bale::reader over several values in a row, zero-copy views included, with tight limits.
#include "message.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::byte> input(fuzz::bytes_of(data, size).begin(),
                                     fuzz::bytes_of(data, size).end());
  bale::limits lim;
  lim.max_depth = 16;
  lim.max_allocation = 1 << 16;
  bale::reader r(input, lim);
  try {
    std::string_view name;
    std::span<const std::uint32_t> numbers;
    fuzz::point p;
    std::vector<fuzz::shape> shapes;
    while (r.remaining() != 0) r(name, numbers, p, shapes);
  } catch (const bale::error&) {
  }
  return 0;
}
