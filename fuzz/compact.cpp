// SPDX-License-Identifier: BSL-1.0
// bale::compact: try_deserialize never throws; what decodes writes back to the exact size, and
// those bytes read again to the same bytes (compact has one encoding per value).
#include <cstdlib>

#include "message.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::byte> input(fuzz::bytes_of(data, size).begin(),
                                     fuzz::bytes_of(data, size).end());
  auto decoded = bale::try_deserialize<fuzz::message, bale::compact>(input);
  if (decoded) {
    const auto again = bale::serialize<bale::compact>(*decoded);
    if (bale::serialized_size<bale::compact>(*decoded) != again.size()) std::abort();
    auto twice = bale::try_deserialize<fuzz::message, bale::compact>(again);
    if (!twice || bale::serialize<bale::compact>(*twice) != again) std::abort();
  }
  return 0;
}
