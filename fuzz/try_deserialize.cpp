// SPDX-License-Identifier: BSL-1.0
// bale::try_deserialize never throws; a successful decode re-encodes to a value that decodes again
// to the same bytes.
#include <cstdlib>

#include "message.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::byte> input(fuzz::bytes_of(data, size).begin(),
                                     fuzz::bytes_of(data, size).end());
  auto decoded = bale::try_deserialize<fuzz::message>(input);
  if (decoded) {
    const auto again = bale::serialize(*decoded);
    if (bale::serialized_size(*decoded) != again.size()) std::abort();
    auto twice = bale::try_deserialize<fuzz::message>(again);
    if (!twice || bale::serialize(*twice) != again) std::abort();
  }
  return 0;
}
