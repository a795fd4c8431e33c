// SPDX-License-Identifier: BSL-1.0
#include <bale/compress/compress.hpp>

#include "codec_mix.hpp"

static_assert(bale::codec_available(bale::codec::zstd));

std::string zstd_round_trip_with_zstd() {
  const std::string text(1000, 'a');
  const auto packed = bale::compress(std::as_bytes(std::span(text)), bale::codec::zstd);
  const auto back = bale::decompress(packed);
  return std::string(reinterpret_cast<const char*>(back.data()), back.size()) == text ? "ok"
                                                                                      : "wrong";
}
