// SPDX-License-Identifier: BSL-1.0
// bale::deserialize: anything but bale::error escaping is a bug.
#include "message.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A copy of exactly `size` bytes, so that a read past the end is caught by AddressSanitizer.
  const std::vector<std::byte> input(fuzz::bytes_of(data, size).begin(),
                                     fuzz::bytes_of(data, size).end());
  try {
    (void)bale::deserialize<fuzz::message>(input);
  } catch (const bale::error&) {
  }
  return 0;
}
