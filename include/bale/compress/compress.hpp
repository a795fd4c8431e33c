// SPDX-License-Identifier: BSL-1.0
#pragma once
// Whole-buffer compression with LZ4 or zstd, in a small bale frame:
//   "balz" | codec (1 byte; +0x80: a CRC32C of the original bytes follows) | original size (u64,
//   little-endian) | [u32 CRC32C] | the codec's compressed bytes
// LZ4 blocks and stored bytes carry bale's CRC32C; zstd frames carry zstd's own content checksum.
// The original size must fit limits::max_allocation and what the codec can produce from the bytes
// given (LZ4 expands at most 255 times; a zstd frame states its size), and zstd's output grows as
// it is decoded: a tiny frame that claims a huge size is refused before anything is allocated.
//
// Link bale::lz4 and/or bale::zstd (CMake) to compile the codecs in; the core never needs them.
//   auto packed = bale::compress(bytes, bale::codec::zstd, 3);    // chosen at run time
//   auto packed2 = bale::compress<bale::codec::zstd>(bytes, 3);    // does not build without zstd
//   auto bytes2 = bale::decompress(packed);

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "bale/checksum/crc32c.hpp"
#include "bale/compress/codecs.hpp"
#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/little_endian.hpp"

#if defined(BALE_WITH_LZ4)
#include <lz4.h>
#include <lz4hc.h>
#endif
#if defined(BALE_WITH_ZSTD)
#include <zstd.h>
#endif

namespace bale {

namespace detail {
BALE_CODECS_BEGIN

inline constexpr std::array<char, 4> compress_magic{'b', 'a', 'l', 'z'};
inline constexpr std::size_t compress_header_size = 4 + 1 + 8;
inline constexpr std::uint8_t frame_has_crc = 0x80;
/// LZ4 turns one input byte into at most 255 output bytes (a run-length byte of 255).
inline constexpr std::uint64_t lz4_max_ratio = 255;

[[noreturn]] inline void codec_missing(codec c) {
  throw error(errc::invalid_value,
              detail::error_text(
                  {"this build of bale has no ", to_string(c), " (link bale::", to_string(c), ")"}),
              4);
}
[[noreturn]] inline void frame_damaged(const std::string& what, std::size_t at) {
  throw error(errc::invalid_value, what, at);
}

// The codec's bytes for `input`, written after `header` bytes of `out`.
inline void compress_payload(std::vector<std::byte>& out, std::size_t header,
                             std::span<const std::byte> input, codec c, int level, bool check) {
  (void)level;  // unused when no codec that has levels is compiled in
  (void)check;
  switch (c) {
    case codec::none:
      out.resize(header + input.size());
      if (!input.empty()) std::memcpy(out.data() + header, input.data(), input.size());
      return;
    case codec::lz4: {
#if defined(BALE_WITH_LZ4)
      if (input.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE))
        throw error(errc::invalid_value, "LZ4 compresses at most 2 GB at a time");
      const int bound = LZ4_compressBound(static_cast<int>(input.size()));
      out.resize(header + static_cast<std::size_t>(bound));
      const auto* src = reinterpret_cast<const char*>(input.data());
      auto* dst = reinterpret_cast<char*>(out.data() + header);
      const int written =
          level > 0 ? LZ4_compress_HC(src, dst, static_cast<int>(input.size()), bound, level)
                    : LZ4_compress_default(src, dst, static_cast<int>(input.size()), bound);
      if (written <= 0 && !input.empty())
        throw error(errc::invalid_value, "LZ4 compression failed");
      out.resize(header + static_cast<std::size_t>(written));
      return;
#else
      codec_missing(c);
#endif
    }
    case codec::zstd: {
#if defined(BALE_WITH_ZSTD)
      const std::size_t bound = ZSTD_compressBound(input.size());
      out.resize(header + bound);
      const std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> context(ZSTD_createCCtx(),
                                                                            ZSTD_freeCCtx);
      if (!context) throw std::bad_alloc();
      ZSTD_CCtx_setParameter(context.get(), ZSTD_c_compressionLevel, level == 0 ? 3 : level);
      ZSTD_CCtx_setParameter(context.get(), ZSTD_c_checksumFlag, check ? 1 : 0);
      const std::size_t written =
          ZSTD_compress2(context.get(), out.data() + header, bound, input.data(), input.size());
      if (ZSTD_isError(written))
        throw error(errc::invalid_value,
                    detail::error_text({"zstd: ", ZSTD_getErrorName(written)}));
      out.resize(header + written);
      return;
#else
      codec_missing(c);
#endif
    }
  }
  throw error(errc::invalid_value, "unknown codec", 4);
}

// The whole frame. `check`: protect the original bytes with a checksum (bale's CRC32C, or zstd's
// own); files leave it off, as their own CRC32C covers the frame.
inline std::vector<std::byte> compress_frame(std::span<const std::byte> input, codec c, int level,
                                             bool check) {
  const bool own_crc = check && c != codec::zstd;
  const std::size_t header = compress_header_size + (own_crc ? 4 : 0);
  std::vector<std::byte> out(header);
  std::memcpy(out.data(), compress_magic.data(), 4);
  out[4] = static_cast<std::byte>(static_cast<std::uint8_t>(c) | (own_crc ? frame_has_crc : 0));
  put_u64(out.data() + 5, input.size());
  if (own_crc) put_u32(out.data() + compress_header_size, crc32c(input));
  compress_payload(out, header, input, c, level, check);
  if (out.capacity() - out.size() > out.size() / 8) out.shrink_to_fit();  // not the worst case
  return out;
}

#if defined(BALE_WITH_LZ4)
// The claimed size is checked against what LZ4 can expand the payload to before the output is
// allocated.
inline void decompress_lz4(std::span<const std::byte> payload, std::uint64_t size,
                           std::vector<std::byte>& out, std::size_t at) {
  if (size > static_cast<std::uint64_t>(LZ4_MAX_INPUT_SIZE) ||
      payload.size() > static_cast<std::size_t>(INT32_MAX))
    frame_damaged("LZ4 frame too large", 5);
  if (size > (payload.size() + 1) * lz4_max_ratio)
    frame_damaged(detail::error_text({"LZ4 frame claims ", size, " bytes from ", payload.size(),
                                      ", more than LZ4 can expand to"}),
                  5);
  out.resize(size);  // at most LZ4_MAX_INPUT_SIZE, checked above
  const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(payload.data()),
                                    reinterpret_cast<char*>(out.data()),
                                    static_cast<int>(payload.size()), static_cast<int>(out.size()));
  if (n < 0 || static_cast<std::size_t>(n) != out.size()) frame_damaged("LZ4 data is damaged", at);
}
#endif

#if defined(BALE_WITH_ZSTD)
// Streams the frame into `out`, which grows (doubling) as output arrives, up to `size` bytes.
inline void decompress_zstd(std::span<const std::byte> payload, std::uint64_t size,
                            std::vector<std::byte>& out, std::size_t at) {
  const unsigned long long stated = ZSTD_getFrameContentSize(payload.data(), payload.size());
  if (stated == ZSTD_CONTENTSIZE_ERROR) frame_damaged("zstd data is damaged: no frame header", at);
  if (stated != ZSTD_CONTENTSIZE_UNKNOWN && stated != size)
    frame_damaged(
        detail::error_text({"zstd frame holds ", stated, " bytes, the header says ", size}), 5);
  const std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(),
                                                                        ZSTD_freeDCtx);
  if (!context) throw std::bad_alloc();
  ZSTD_inBuffer in{payload.data(), payload.size(), 0};
  constexpr std::size_t first_room = std::size_t{1} << 16;
  out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(size, first_room)));
  std::size_t produced = 0;
  for (;;) {
    ZSTD_outBuffer chunk{out.data() + produced, out.size() - produced, 0};
    const std::size_t status = ZSTD_decompressStream(context.get(), &chunk, &in);
    if (ZSTD_isError(status))
      frame_damaged(detail::error_text({"zstd data is damaged: ", ZSTD_getErrorName(status)}), at);
    produced += chunk.pos;
    if (status == 0) break;  // the frame is complete (and its checksum verified)
    if (produced == out.size()) {
      if (out.size() == size) frame_damaged("zstd data holds more than the header says", at);
      out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(size, 2 * out.size())));
    } else if (in.pos == in.size && chunk.pos == 0) {
      frame_damaged("zstd data ends inside its frame", at);
    }
  }
  if (in.pos != in.size) frame_damaged("zstd data is followed by other bytes", at);
  if (produced != size) frame_damaged("zstd data has the wrong size", at);
}
#endif

BALE_CODECS_END
}  // namespace detail

BALE_CODECS_BEGIN

/// Compresses a whole buffer. `level`: 0 is each codec's default (LZ4 fast; zstd 3); LZ4 levels
/// above 0 use LZ4HC. The frame is checksummed: decompress() detects damage.
inline std::vector<std::byte> compress(std::span<const std::byte> input, codec c, int level = 0) {
  return detail::compress_frame(input, c, level, true);
}

/// compress() with the codec named at compile time: a codec this translation unit lacks does not
/// compile, rather than failing when it runs.
template <codec C>
std::vector<std::byte> compress(std::span<const std::byte> input, int level = 0) {
  static_assert(codec_available(C),
                "bale: this codec is not compiled in: link bale::lz4 or bale::zstd (CMake), or "
                "define BALE_WITH_LZ4 / BALE_WITH_ZSTD and link liblz4 / libzstd");
  return detail::compress_frame(input, C, level, true);
}

/// Reverses compress(). Throws bale::error on a damaged frame (a checksum that does not match,
/// codec data that does not decode to the stated size) or one whose original size passes
/// limits::max_allocation or what its codec could produce from it.
inline std::vector<std::byte> decompress(std::span<const std::byte> frame, const limits& lim = {}) {
  if (frame.size() < detail::compress_header_size)
    throw error(errc::end_of_input, "a compressed frame has a 13-byte header", 0);
  if (std::memcmp(frame.data(), detail::compress_magic.data(), 4) != 0)
    throw error(errc::invalid_value, "not a bale compressed frame (magic)", 0);
  const auto kind = std::to_integer<std::uint8_t>(frame[4]);
  const auto c = static_cast<codec>(kind & ~detail::frame_has_crc);
  const bool has_crc = (kind & detail::frame_has_crc) != 0;
  const std::uint64_t size = detail::get_u64(frame.data() + 5);
  if (size > lim.max_allocation)
    throw error(
        errc::allocation_limit,
        detail::error_text({"frame claims ", size, " bytes, more than the allocation limit of ",
                            lim.max_allocation}),
        5);
  const std::size_t header = detail::compress_header_size + (has_crc ? 4 : 0);
  if (frame.size() < header)
    throw error(errc::end_of_input, "a checksummed frame has a 17-byte header", frame.size());
  const std::span<const std::byte> payload = frame.subspan(header);
  std::vector<std::byte> out;
  switch (c) {
    case codec::none:
      if (payload.size() != size) detail::frame_damaged("stored frame has the wrong size", 5);
      out.assign(payload.begin(), payload.end());
      break;
    case codec::lz4:
#if defined(BALE_WITH_LZ4)
      detail::decompress_lz4(payload, size, out, header);
      break;
#else
      detail::codec_missing(c);
#endif
    case codec::zstd:
#if defined(BALE_WITH_ZSTD)
      if (has_crc) detail::frame_damaged("a zstd frame carries its own checksum", 4);
      detail::decompress_zstd(payload, size, out, header);
      break;
#else
      detail::codec_missing(c);
#endif
    default:
      throw error(errc::invalid_value, detail::error_text({"unknown codec ", kind}), 4);
  }
  if (has_crc &&
      detail::crc32c(out) != detail::get_u32(frame.data() + detail::compress_header_size))
    throw error(errc::checksum_mismatch, "compressed frame is damaged: the checksum does not match",
                detail::compress_header_size);
  return out;
}

/// decompress() that returns its error instead of throwing.
inline result<std::vector<std::byte>> try_decompress(std::span<const std::byte> frame,
                                                     const limits& lim = {}) noexcept {
  try {
    return decompress(frame, lim);
  } catch (const error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return error(errc::allocation_limit, "out of memory");
  }
}

BALE_CODECS_END

}  // namespace bale
