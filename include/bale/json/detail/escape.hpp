// SPDX-License-Identifier: BSL-1.0
#pragma once
// Escaping a string for JSON: the escapes RFC 8259 requires (quote, backslash, control bytes),
// UTF-8 checked and copied through, plain bytes moved eight at a time.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "bale/core/error.hpp"
#include "bale/json/detail/text.hpp"

namespace bale::detail {

/// Room json_write_escaped needs past six bytes a byte: it stores a whole word while one byte is
/// left.
inline constexpr std::size_t json_escape_slack = 8;

/// The escape of a byte that needs one (c < 0x20, '"' or '\\') at out; returns its end.
inline char* json_escape_byte(unsigned char c, char* out) noexcept {
  out[0] = '\\';
  switch (c) {
    case '"':
    case '\\':
      out[1] = static_cast<char>(c);
      return out + 2;
    case '\b':
      out[1] = 'b';
      return out + 2;
    case '\f':
      out[1] = 'f';
      return out + 2;
    case '\n':
      out[1] = 'n';
      return out + 2;
    case '\r':
      out[1] = 'r';
      return out + 2;
    case '\t':
      out[1] = 't';
      return out + 2;
    default: {
      const char hex[] = "0123456789abcdef";
      const char escape[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      std::memcpy(out, escape, 6);
      return out + 6;
    }
  }
}

/// The escaped text of `text` at out, which has room for six bytes a byte and json_escape_slack
/// more; returns its end. For the error on invalid UTF-8: `index` is where text starts in the
/// whole string, `offset` where out lies in the output.
inline char* json_write_escaped(std::string_view text, std::size_t index, char* out,
                                std::size_t offset) {
  const char* p = text.data();
  const char* const end = p + text.size();
  char* const first = out;
  // A tail of fewer than eight bytes is read as the text's last word shifted down, with plain
  // bytes shifted in above it (little-endian order; otherwise it goes a byte at a time).
  const bool tail_as_word = std::endian::native == std::endian::little && text.size() >= 8;
  while (p < end) {
    const auto left = static_cast<std::size_t>(end - p);
    if (left >= 8 || tail_as_word) {
      // Eight bytes stored whole, then checked; only the plain ones before the first that needs
      // attention are kept.
      std::uint64_t word;
      std::size_t step = 8;
      if (left >= 8) {
        std::memcpy(&word, p, 8);
      } else {
        std::memcpy(&word, end - 8, 8);
        const int shift = static_cast<int>(8 - left) * 8;
        word = (word >> shift) | ((json_ones * 'a') << (64 - shift));
        step = left;
      }
      std::memcpy(out, &word, 8);
      if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
      const std::uint64_t special = json_special_bytes(word);
      if (special == 0) {
        out += step;
        p += step;
        continue;
      }
      const auto plain = static_cast<std::size_t>(std::countr_zero(special)) / 8;
      out += plain;
      p += plain;
    } else if (json_plain_byte(static_cast<unsigned char>(*p))) {
      *out++ = *p++;
      continue;
    }
    const auto c = static_cast<unsigned char>(*p);
    if (c < 0x80) {
      out = json_escape_byte(c, out);
      ++p;
      continue;
    }
    // Two overlapping pairs copy any length from 2 to 4.
    const std::size_t length = utf8_sequence(p, end);
    if (length == 0)
      throw error(errc::invalid_value,
                  error_text({"string is not valid UTF-8 at its byte ",
                              index + static_cast<std::size_t>(p - text.data())}),
                  offset + static_cast<std::size_t>(out - first));
    std::memcpy(out, p, 2);
    std::memcpy(out + length - 2, p + length - 2, 2);
    out += length;
    p += length;
  }
  return out;
}

}  // namespace bale::detail
