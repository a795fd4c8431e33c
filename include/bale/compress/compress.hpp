#pragma once
// Whole-buffer compression with LZ4 or zstd, in a small bale frame:
//   "balz" | codec (1 byte) | original size (u64, little-endian) | the codec's compressed bytes
// The original size is checked against limits::max_allocation before anything is allocated, so a
// tiny frame that claims a huge size (a decompression bomb) is refused at once.
//
// Link bale::lz4 and/or bale::zstd (CMake) to compile the codecs in; the core never needs them.
//   auto packed = bale::compress(bytes, bale::codec::zstd, 3);
//   auto bytes2 = bale::decompress(packed);

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"

#if defined(BALE_WITH_LZ4)
#include <lz4.h>
#include <lz4hc.h>
#endif
#if defined(BALE_WITH_ZSTD)
#include <zstd.h>
#endif

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

/// Whether this build has the codec compiled in.
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

namespace detail {

inline constexpr std::array<char, 4> compress_magic{'b', 'a', 'l', 'z'};
inline constexpr std::size_t compress_header_size = 4 + 1 + 8;

inline void put_u64(std::byte* out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}
inline std::uint64_t get_u64(const std::byte* in) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= static_cast<std::uint64_t>(in[i]) << (8 * i);
  return value;
}

[[noreturn]] inline void codec_missing(codec c) {
  throw error(errc::invalid_value,
              "this build of bale has no " + std::string(to_string(c)) +
                  " (link bale::" + std::string(to_string(c)) + ")",
              4);
}

}  // namespace detail

/// Compresses a whole buffer. `level`: 0 is each codec's default (LZ4 fast; zstd 3); LZ4 levels
/// above 0 use LZ4HC.
inline std::vector<std::byte> compress(std::span<const std::byte> input, codec c, int level = 0) {
  (void)level;  // unused when no codec that has levels is compiled in
  std::vector<std::byte> out(detail::compress_header_size);
  std::memcpy(out.data(), detail::compress_magic.data(), 4);
  out[4] = static_cast<std::byte>(c);
  detail::put_u64(out.data() + 5, input.size());
  const std::size_t header = detail::compress_header_size;
  switch (c) {
    case codec::none:
      out.resize(header + input.size());
      if (!input.empty()) std::memcpy(out.data() + header, input.data(), input.size());
      return out;
    case codec::lz4: {
#if defined(BALE_WITH_LZ4)
      if (input.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE))
        throw error(errc::invalid_value, "LZ4 compresses at most 2 GB at a time", 0);
      const int bound = LZ4_compressBound(static_cast<int>(input.size()));
      out.resize(header + static_cast<std::size_t>(bound));
      const auto* src = reinterpret_cast<const char*>(input.data());
      auto* dst = reinterpret_cast<char*>(out.data() + header);
      const int written =
          level > 0 ? LZ4_compress_HC(src, dst, static_cast<int>(input.size()), bound, level)
                    : LZ4_compress_default(src, dst, static_cast<int>(input.size()), bound);
      if (written <= 0 && !input.empty())
        throw error(errc::invalid_value, "LZ4 compression failed", 0);
      out.resize(header + static_cast<std::size_t>(written));
      return out;
#else
      detail::codec_missing(c);
#endif
    }
    case codec::zstd: {
#if defined(BALE_WITH_ZSTD)
      const std::size_t bound = ZSTD_compressBound(input.size());
      out.resize(header + bound);
      const std::size_t written = ZSTD_compress(out.data() + header, bound, input.data(),
                                                input.size(), level == 0 ? 3 : level);
      if (ZSTD_isError(written))
        throw error(errc::invalid_value, std::string("zstd: ") + ZSTD_getErrorName(written), 0);
      out.resize(header + written);
      return out;
#else
      detail::codec_missing(c);
#endif
    }
  }
  throw error(errc::invalid_value, "unknown codec", 4);
}

/// Reverses compress(). Throws bale::error on a damaged frame or one whose original size passes
/// limits::max_allocation.
inline std::vector<std::byte> decompress(std::span<const std::byte> frame, const limits& lim = {}) {
  if (frame.size() < detail::compress_header_size)
    throw error(errc::end_of_input, "a compressed frame has a 13-byte header", 0);
  if (std::memcmp(frame.data(), detail::compress_magic.data(), 4) != 0)
    throw error(errc::invalid_value, "not a bale compressed frame (magic)", 0);
  const auto c = static_cast<codec>(frame[4]);
  const std::uint64_t size = detail::get_u64(frame.data() + 5);
  if (size > lim.max_allocation)
    throw error(errc::allocation_limit,
                "frame claims " + std::to_string(size) +
                    " bytes, more than the allocation limit of " +
                    std::to_string(lim.max_allocation),
                5);
  const std::span<const std::byte> payload = frame.subspan(detail::compress_header_size);
  std::vector<std::byte> out;
  switch (c) {
    case codec::none:
      if (payload.size() != size)
        throw error(errc::invalid_value, "stored frame has the wrong size", 5);
      out.assign(payload.begin(), payload.end());
      return out;
    case codec::lz4: {
#if defined(BALE_WITH_LZ4)
      if (size > static_cast<std::uint64_t>(LZ4_MAX_INPUT_SIZE) ||
          payload.size() > static_cast<std::size_t>(INT32_MAX))
        throw error(errc::invalid_value, "LZ4 frame too large", 5);
      out.resize(static_cast<std::size_t>(size));
      const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(payload.data()),
                                        reinterpret_cast<char*>(out.data()),
                                        static_cast<int>(payload.size()), static_cast<int>(size));
      if (n < 0 || static_cast<std::uint64_t>(n) != size)
        throw error(errc::invalid_value, "LZ4 data is damaged", detail::compress_header_size);
      return out;
#else
      detail::codec_missing(c);
#endif
    }
    case codec::zstd: {
#if defined(BALE_WITH_ZSTD)
      out.resize(static_cast<std::size_t>(size));
      const std::size_t n = ZSTD_decompress(out.data(), out.size(), payload.data(), payload.size());
      if (ZSTD_isError(n))
        throw error(errc::invalid_value,
                    std::string("zstd data is damaged: ") + ZSTD_getErrorName(n),
                    detail::compress_header_size);
      if (n != size)
        throw error(errc::invalid_value, "zstd data has the wrong size",
                    detail::compress_header_size);
      return out;
#else
      detail::codec_missing(c);
#endif
    }
  }
  throw error(errc::invalid_value, "unknown codec " + std::to_string(static_cast<int>(c)), 4);
}

/// decompress() that returns its error instead of throwing.
inline result<std::vector<std::byte>> try_decompress(std::span<const std::byte> frame,
                                                     const limits& lim = {}) noexcept {
  try {
    return decompress(frame, lim);
  } catch (const error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return error(errc::allocation_limit, "out of memory", 0);
  }
}

}  // namespace bale
