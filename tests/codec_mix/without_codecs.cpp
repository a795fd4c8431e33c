// SPDX-License-Identifier: BSL-1.0
#include <bale/compress/compress.hpp>

#include "codec_mix.hpp"

static_assert(!bale::codec_available(bale::codec::zstd));

std::string zstd_round_trip_without_codecs() {
  const std::string text(1000, 'a');
  try {
    (void)bale::compress(std::as_bytes(std::span(text)), bale::codec::zstd);
    return "compressed";
  } catch (const bale::error& e) {
    return e.what();
  }
}
