// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which codecs a translation unit has compiled in. Linking bale::lz4 / bale::zstd (CMake) defines
// BALE_WITH_LZ4 / BALE_WITH_ZSTD, and those macros change what compress, decompress and the file
// functions do. So that two translation units of one program built differently never see two
// definitions of one function, everything that depends on them lives in an inline namespace named
// after the set of codecs: each translation unit calls its own version, whatever the link order.

#include <cstdint>
#include <string_view>

#if defined(BALE_WITH_LZ4) && defined(BALE_WITH_ZSTD)
#define BALE_CODECS_BEGIN inline namespace with_lz4_zstd {
#elif defined(BALE_WITH_LZ4)
#define BALE_CODECS_BEGIN inline namespace with_lz4 {
#elif defined(BALE_WITH_ZSTD)
#define BALE_CODECS_BEGIN inline namespace with_zstd {
#else
#define BALE_CODECS_BEGIN inline namespace without_codecs {
#endif
#define BALE_CODECS_END }

namespace bale {

/// A general-purpose compressor for whole buffers.
enum class codec : std::uint8_t { none = 0, lz4 = 1, zstd = 2 };

constexpr std::string_view to_string(codec c) noexcept {
  switch (c) {
    case codec::none:
      return "none";
    case codec::lz4:
      return "lz4";
    case codec::zstd:
      return "zstd";
  }
  return "unknown";
}

BALE_CODECS_BEGIN

/// Whether this translation unit has the codec compiled in.
constexpr bool codec_available(codec c) noexcept {
  switch (c) {
    case codec::none:
      return true;
#if defined(BALE_WITH_LZ4)
    case codec::lz4:
      return true;
#endif
#if defined(BALE_WITH_ZSTD)
    case codec::zstd:
      return true;
#endif
    default:
      return false;
  }
}

BALE_CODECS_END

}  // namespace bale
