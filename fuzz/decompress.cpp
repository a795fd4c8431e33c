// SPDX-License-Identifier: BSL-1.0
// bale::decompress on any frame: never throws but bale::error; a frame that decodes gives exactly
// the bytes that compress back to a frame decoding to them again; never more than the limit.
#include <bale/compress/compress.hpp>
#include <cstdlib>

#include "message.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::byte> input(fuzz::bytes_of(data, size).begin(),
                                     fuzz::bytes_of(data, size).end());
  const bale::limits lim{.max_allocation = std::size_t{16} << 20};
  auto out = bale::try_decompress(input, lim);
  if (out) {
    if (out->size() > lim.max_allocation) std::abort();
    for (auto c : {bale::codec::none, bale::codec::lz4, bale::codec::zstd}) {
      if (!bale::codec_available(c)) continue;
      auto back = bale::try_decompress(bale::compress(*out, c), lim);
      if (!back || *back != *out) std::abort();
    }
  }
  return 0;
}
