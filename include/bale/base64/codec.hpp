// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::base64: RFC 4648 base64, standard and URL-safe alphabets, with or without padding.
// Decoding is strict: a character outside the alphabet, padding in the wrong place or of the wrong
// length, and non-zero unused bits in the last character are errors (bale::error with the offset).
// Table codecs encode 6 bytes and decode 4 characters per step. The vector kernels (AVX-512 VBMI,
// AVX2) live in bale/base64/base64.hpp, which installs them when the program starts: this header
// is what JSON includes, without <immintrin.h> (which costs a translation unit more to compile than
// the rest of JSON), and JSON's byte arrays use the kernels once any translation unit of the
// program includes bale/base64/base64.hpp.
//
//   std::string text = bale::base64::encode(bytes);                  // "aGVsbG8="
//   std::vector<std::byte> back = bale::base64::decode(text);
//   bale::base64::encode(bytes, {bale::base64::alphabet::url, false});  // "aGVsbG8"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bale/core/arithmetic.hpp"
#include "bale/core/error.hpp"

namespace bale::base64 {

enum class alphabet : std::uint8_t {
  standard,  // A-Z a-z 0-9 + /
  url,       // A-Z a-z 0-9 - _
};

struct options {
  base64::alphabet alphabet = alphabet::standard;
  /// Write '=' to a multiple of four characters; when reading, require it (or forbid it).
  bool padding = true;
  /// Use the vector kernels where the CPU has them (AVX-512 VBMI or AVX2, chosen at run time) and
  /// the program includes bale/base64/base64.hpp. false keeps to the portable codec: the same
  /// output and the same errors.
  bool vectorized = true;
};

namespace detail {

inline constexpr const char* alphabet_chars(alphabet a) noexcept {
  return a == alphabet::standard
             ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
             : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
}

// Two characters for every 12-bit value: one table load per half of a 3-byte group.
struct encode_table {
  std::array<std::uint16_t, 4096> pairs{};
  constexpr explicit encode_table(alphabet a) {
    const char* chars = alphabet_chars(a);
    for (unsigned v = 0; v < 4096; ++v) {
      const auto first = static_cast<std::uint8_t>(chars[v >> 6]);
      const auto second = static_cast<std::uint8_t>(chars[v & 63]);
      // Stored so that a little-endian or big-endian memcpy both put `first` first.
      const std::uint8_t bytes[2] = {first, second};
      std::uint16_t pair = 0;
      if (std::endian::native == std::endian::little)
        pair = static_cast<std::uint16_t>(bytes[0] | bytes[1] << 8);
      else
        pair = static_cast<std::uint16_t>(bytes[0] << 8 | bytes[1]);
      pairs[v] = pair;
    }
  }
};
inline constexpr encode_table standard_encode{alphabet::standard};
inline constexpr encode_table url_encode{alphabet::url};

// For each character and its position in a group of four, its 6 bits already shifted into place
// in a 24-bit group; characters outside the alphabet have bit 31 set, so one test finds any.
inline constexpr std::uint32_t invalid_char = 0x80000000U;
struct decode_table {
  std::array<std::array<std::uint32_t, 256>, 4> shifted{};
  constexpr explicit decode_table(alphabet a) {
    for (auto& t : shifted) t.fill(invalid_char);
    const char* chars = alphabet_chars(a);
    for (std::uint32_t v = 0; v < 64; ++v) {
      const auto c = static_cast<std::uint8_t>(chars[v]);
      for (unsigned position = 0; position < 4; ++position)
        shifted[position][c] = v << (18 - 6 * position);
    }
  }
};
inline constexpr decode_table standard_decode{alphabet::standard};
inline constexpr decode_table url_decode{alphabet::url};

// Each character below 128 with its value, -128 where it is not in the alphabet (the AVX-512
// decoder's tables).
inline constexpr auto ascii_values(alphabet a) {
  std::array<std::int8_t, 128> values{};
  values.fill(-128);
  const char* chars = alphabet_chars(a);
  for (std::int8_t v = 0; v < 64; ++v) values[static_cast<std::uint8_t>(chars[v])] = v;
  return values;
}
inline constexpr auto standard_values = ascii_values(alphabet::standard);
inline constexpr auto url_values = ascii_values(alphabet::url);

[[noreturn]] inline void fail(std::string detail, std::size_t at) {
  throw error(errc::invalid_value, "base64: " + std::move(detail), at);
}

inline void encode_portable(const std::uint8_t* in, std::size_t groups, char* out,
                            const encode_table& table) noexcept {
  std::size_t g = 0;
  if constexpr (std::endian::native == std::endian::little) {
    // Two groups per step: one 8-byte load (6 bytes used; g + 2 < groups keeps the other two in
    // the input), four 12-bit lookups, one 8-byte store.
    for (; g + 2 < groups; g += 2, in += 6, out += 8) {
      std::uint64_t word;
      std::memcpy(&word, in, 8);
      word = bale::detail::byteswap(word);
      const std::uint64_t chars = std::uint64_t{table.pairs[word >> 52 & 0xFFF]} |
                                  std::uint64_t{table.pairs[word >> 40 & 0xFFF]} << 16 |
                                  std::uint64_t{table.pairs[word >> 28 & 0xFFF]} << 32 |
                                  std::uint64_t{table.pairs[word >> 16 & 0xFFF]} << 48;
      std::memcpy(out, &chars, 8);
    }
  }
  for (; g < groups; ++g, in += 3, out += 4) {
    const std::uint32_t v = std::uint32_t{in[0]} << 16 | std::uint32_t{in[1]} << 8 | in[2];
    std::memcpy(out, &table.pairs[v >> 12], 2);
    std::memcpy(out + 2, &table.pairs[v & 0xFFF], 2);
  }
}

// Decodes whole groups of four characters; returns how many groups were valid (the caller reports
// the first bad character of the group that stopped it).
inline std::size_t decode_portable(const char* in, std::size_t groups, std::uint8_t* out,
                                   const decode_table& table) noexcept {
  const auto& t = table.shifted;
  for (std::size_t g = 0; g < groups; ++g, in += 4, out += 3) {
    const std::uint32_t v =
        t[0][static_cast<std::uint8_t>(in[0])] | t[1][static_cast<std::uint8_t>(in[1])] |
        t[2][static_cast<std::uint8_t>(in[2])] | t[3][static_cast<std::uint8_t>(in[3])];
    if (v & invalid_char) return g;
    out[0] = static_cast<std::uint8_t>(v >> 16);
    out[1] = static_cast<std::uint8_t>(v >> 8);
    out[2] = static_cast<std::uint8_t>(v);
  }
  return groups;
}

/// The codecs' kernels, narrowest first.
enum class kernel : std::uint8_t { portable, avx2, avx512 };

/// The vector kernels and the widest this CPU runs, installed by bale/base64/base64.hpp.
struct vector_kernels {
  kernel widest;
  std::size_t (*encode_avx2)(const std::uint8_t* in, std::size_t n, char* out, bool url,
                             bool around_caches) noexcept;
  std::size_t (*decode_avx2)(const char* in, std::size_t n, std::uint8_t* out) noexcept;
  std::size_t (*encode_avx512)(const std::uint8_t* in, std::size_t n, char* out, const char* chars,
                               bool around_caches) noexcept;
  std::size_t (*decode_avx512)(const char* in, std::size_t n, std::uint8_t* out,
                               const std::int8_t* values, bool around_caches) noexcept;
};
inline const vector_kernels* installed_kernels = nullptr;

/// The widest kernel installed that this CPU runs.
inline kernel best_kernel() noexcept {
  return installed_kernels != nullptr ? installed_kernels->widest : kernel::portable;
}

inline kernel kernel_for(const options& opt) noexcept {
  return opt.vectorized ? best_kernel() : kernel::portable;
}

}  // namespace detail

/// Characters encode() writes for n bytes.
constexpr std::size_t encoded_size(std::size_t n, const options& opt = {}) noexcept {
  return opt.padding ? (n + 2) / 3 * 4 : n / 3 * 4 + (n % 3 == 0 ? 0 : n % 3 + 1);
}

namespace detail {

// From 8 MB of raw bytes on (an encode's input, a decode's output) the vector kernels write
// around the caches with non-temporal stores (the AVX2 decoder excepted): the lines of an output
// that large are not read from memory first only to be overwritten, which is most of a large
// job's time, and it would only evict what the caller keeps in the caches.
inline constexpr std::size_t around_caches_from = std::size_t{8} << 20;

// How many groups of the portable codec bring `out` to a 64-byte boundary, where the AVX-512
// kernels store whole lines, when each group writes `step` bytes (4 characters encoding, 3 bytes
// decoding: 3 * 43 = 129 is 1 modulo 64, so any output gets there); 0 if it never can.
inline std::size_t groups_to_line(const void* out, std::size_t step) noexcept {
  const std::size_t gap = (64 - reinterpret_cast<std::uintptr_t>(out) % 64) % 64;
  if (step == 3) return gap * 43 % 64;
  return gap % step == 0 ? gap / step : 0;
}

/// encode_to with the given kernel: at most best_kernel().
inline void encode_with(kernel use, std::span<const std::byte> bytes, char* out,
                        const options& opt) noexcept {
  const auto* in = reinterpret_cast<const std::uint8_t*>(bytes.data());
  const std::size_t n = bytes.size();
  const char* chars = alphabet_chars(opt.alphabet);
  const bool around_caches = n >= around_caches_from;
  const auto& table = opt.alphabet == alphabet::standard ? standard_encode : url_encode;
  std::size_t done = 0;
  if (use == kernel::avx512) {
    if (around_caches) {
      const std::size_t groups = std::min(groups_to_line(out, 4), n / 3);
      encode_portable(in, groups, out, table);
      done = groups * 3;
    }
    done += installed_kernels->encode_avx512(in + done, n - done, out + done / 3 * 4, chars,
                                             around_caches);
  } else if (use == kernel::avx2) {
    done = installed_kernels->encode_avx2(in, n, out, opt.alphabet == alphabet::url, around_caches);
  }
  const std::size_t groups = (n - done) / 3;
  encode_portable(in + done, groups, out + done / 3 * 4, table);
  done += groups * 3;
  char* tail = out + done / 3 * 4;
  if (const std::size_t left = n - done; left != 0) {
    const std::uint32_t v =
        std::uint32_t{in[done]} << 16 | (left == 2 ? std::uint32_t{in[done + 1]} << 8 : 0U);
    tail[0] = chars[v >> 18];
    tail[1] = chars[v >> 12 & 63];
    if (left == 2) tail[2] = chars[v >> 6 & 63];
    if (opt.padding) {
      if (left == 1) tail[2] = '=';
      tail[3] = '=';
    }
  }
}

}  // namespace detail

/// Writes encoded_size(bytes.size()) characters to out.
inline void encode_to(std::span<const std::byte> bytes, char* out, const options& opt = {}) {
  detail::encode_with(detail::kernel_for(opt), bytes, out, opt);
}

/// The base64 text of `bytes`.
inline std::string encode(std::span<const std::byte> bytes, const options& opt = {}) {
  std::string out(encoded_size(bytes.size(), opt), '\0');
  encode_to(bytes, out.data(), opt);
  return out;
}

/// Bytes decode() produces for `text`, after checking its length and padding; throws bale::error.
inline std::size_t decoded_size(std::string_view text, const options& opt = {}) {
  std::size_t n = text.size();
  if (opt.padding) {
    if (n % 4 != 0) detail::fail("length is not a multiple of 4", n);
    std::size_t pad = 0;
    while (pad < 2 && n > pad && text[n - 1 - pad] == '=') ++pad;
    return n / 4 * 3 - pad;
  }
  if (n % 4 == 1) detail::fail("length leaves one character over", n);
  return n / 4 * 3 + (n % 4 == 0 ? 0 : n % 4 - 1);
}

namespace detail {

/// decode_to with the given kernel: at most best_kernel().
inline std::size_t decode_with(kernel use, std::string_view text, std::byte* out_bytes,
                               const options& opt) {
  const std::size_t size = decoded_size(text, opt);
  auto* out = reinterpret_cast<std::uint8_t*>(out_bytes);
  const std::size_t whole_groups = size / 3;  // groups of four characters with no padding
  const char* in = text.data();
  const auto& table = opt.alphabet == alphabet::standard ? standard_decode : url_decode;
  std::size_t groups_done = 0;
  if (use == kernel::avx512) {
    const bool around_caches = size >= around_caches_from;
    if (around_caches)  // a bad group stops this short, and then the kernel at once
      groups_done = decode_portable(in, std::min(groups_to_line(out, 3), whole_groups), out, table);
    groups_done +=
        installed_kernels->decode_avx512(
            in + groups_done * 4, (whole_groups - groups_done) * 4, out + groups_done * 3,
            (opt.alphabet == alphabet::standard ? standard_values : url_values).data(),
            around_caches) /
        4;
  } else if (use == kernel::avx2 && opt.alphabet == alphabet::standard) {
    groups_done = installed_kernels->decode_avx2(in, whole_groups * 4, out) / 4;
  }
  const std::size_t rest = whole_groups - groups_done;
  const std::size_t valid =
      decode_portable(in + groups_done * 4, rest, out + groups_done * 3, table);
  const auto& t = table.shifted;
  auto bad_char_in_group = [&](std::size_t group) {
    for (std::size_t k = 0; k < 4; ++k) {
      const auto c = static_cast<std::uint8_t>(in[group * 4 + k]);
      if (t[0][c] & invalid_char)
        fail(c == '=' ? "padding before the end"
                      : bale::detail::error_text({"character ", c, " is not in the alphabet"}),
             group * 4 + k);
    }
  };
  if (valid != rest) bad_char_in_group(groups_done + valid);
  // The last, partial group: 2 or 3 characters carrying 1 or 2 bytes, then any padding.
  const std::size_t left = size - whole_groups * 3;
  if (left != 0) {
    const std::size_t at = whole_groups * 4;
    std::uint32_t v = 0;
    for (std::size_t k = 0; k <= left; ++k) {
      const std::uint32_t bits = t[k][static_cast<std::uint8_t>(in[at + k])];
      if (bits & invalid_char) bad_char_in_group(whole_groups);
      v |= bits;
    }
    // The bits past the last byte must be zero: one text per byte string.
    if ((left == 1 ? v & 0xFFFF : v & 0xFF) != 0)
      fail("non-zero bits after the last byte", at + left);
    out[whole_groups * 3] = static_cast<std::uint8_t>(v >> 16);
    if (left == 2) out[whole_groups * 3 + 1] = static_cast<std::uint8_t>(v >> 8);
  }
  return size;
}

}  // namespace detail

/// Decodes `text` into out, which holds decoded_size(text) bytes; returns that size.
inline std::size_t decode_to(std::string_view text, std::byte* out_bytes, const options& opt = {}) {
  return detail::decode_with(detail::kernel_for(opt), text, out_bytes, opt);
}

/// The bytes `text` encodes; throws bale::error (errc::invalid_value) on malformed input.
inline std::vector<std::byte> decode(std::string_view text, const options& opt = {}) {
  std::vector<std::byte> out(decoded_size(text, opt));
  decode_to(text, out.data(), opt);
  return out;
}

}  // namespace bale::base64
