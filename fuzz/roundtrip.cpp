// SPDX-License-Identifier: BSL-1.0
// For a type without ordered containers the encoding is canonical: what decodes must re-encode to
// exactly the input.
#include <cstdlib>

#include "message.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::byte> input(fuzz::bytes_of(data, size).begin(),
                                     fuzz::bytes_of(data, size).end());
  auto decoded = bale::try_deserialize<fuzz::canonical>(input);
  if (decoded && bale::serialize(*decoded) != input) std::abort();
  return 0;
}
