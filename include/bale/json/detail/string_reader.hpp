// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading JSON strings and member names: escapes undone, UTF-8 checked, lone surrogates refused,
// text without escapes passed on as views of the input; and stepping over a value of any kind as
// strictly as reading it would.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bale/core/error.hpp"
#include "bale/core/skip_memo.hpp"
#include "bale/json/detail/number_reader.hpp"
#include "bale/json/detail/text.hpp"

namespace bale::detail {

class json_string_reader : public json_number_reader {
 public:
  using json_number_reader::json_number_reader;

 protected:
  // Walks a string's body from just after its opening quote to just after its closing quote,
  // checking escapes and UTF-8; calls on_piece(data, n) with the unescaped text in pieces (raw
  // runs point into the input). With views_only, an escape is an error.
  template <class OnPiece>
  void read_string_into(OnPiece&& on_piece) {
    skip_space();
    const std::size_t at = offset();
    expect('"', "a string");
    walk_string(at, on_piece, false);
  }
  void scan_string_raw(std::size_t at, bool views_only) {
    walk_string(
        at, [](const char*, std::size_t) {}, views_only);
  }
  template <class OnPiece>
  void walk_string(std::size_t at, OnPiece&& on_piece, bool views_only) {
    // Raw text not yet passed on: plain bytes and checked UTF-8 sequences go out as one piece at
    // the next escape or the closing quote, so a string without escapes is a single piece.
    const char* run = pos_;
    for (;;) {
      pos_ += json_plain_run(pos_, end_);
      if (pos_ >= end_) fail_at(errc::end_of_input, "string is not closed", at);
      const auto c = static_cast<unsigned char>(*pos_);
      if (c == '"') {
        if (pos_ != run) on_piece(run, static_cast<std::size_t>(pos_ - run));
        ++pos_;
        return;
      }
      if (c >= 0x80) {
        const std::size_t length = utf8_sequence(pos_, end_);
        if (length == 0) fail("invalid UTF-8 in a string");
        pos_ += length;
        continue;
      }
      if (c < 0x20) fail("control character in a string (escape it)");
      // A backslash.
      if (views_only) fail("a string with escapes cannot be viewed in place");
      if (pos_ != run) on_piece(run, static_cast<std::size_t>(pos_ - run));
      char decoded[4];
      on_piece(decoded, unescape(decoded));
      run = pos_;
    }
  }
  // At a backslash: consumes the escape, writes its UTF-8, returns the length.
  std::size_t unescape(char* out) {
    const std::size_t at = offset();
    ++pos_;
    if (pos_ >= end_) fail_at(errc::end_of_input, "escape is cut off", at);
    const char c = *pos_++;
    switch (c) {
      case '"':
        out[0] = '"';
        return 1;
      case '\\':
        out[0] = '\\';
        return 1;
      case '/':
        out[0] = '/';
        return 1;
      case 'b':
        out[0] = '\b';
        return 1;
      case 'f':
        out[0] = '\f';
        return 1;
      case 'n':
        out[0] = '\n';
        return 1;
      case 'r':
        out[0] = '\r';
        return 1;
      case 't':
        out[0] = '\t';
        return 1;
      case 'u': {
        std::uint32_t cp = hex4(at);
        if (cp >= 0xDC00 && cp <= 0xDFFF) fail_at(errc::invalid_value, "lone low surrogate", at);
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (end_ - pos_ < 2 || pos_[0] != '\\' || pos_[1] != 'u')
            fail_at(errc::invalid_value, "high surrogate without a low surrogate", at);
          const std::size_t low_at = offset();
          pos_ += 2;
          const std::uint32_t low = hex4(low_at);
          if (low < 0xDC00 || low > 0xDFFF)
            fail_at(errc::invalid_value, "a high surrogate followed by no low surrogate", low_at);
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        return utf8_encode(cp, out);
      }
      default:
        fail_at(errc::invalid_value, error_text({"unknown escape \\", describe(c)}), at);
    }
  }
  // The four hex digits of a \u escape at `at`: a character that is not one is invalid_value,
  // input that ends before the fourth is end_of_input.
  std::uint32_t hex4(std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      if (pos_ >= end_) fail_at(errc::end_of_input, "\\u escape is cut off", at);
      const char h = *pos_++;
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= static_cast<std::uint32_t>(h - 'A' + 10);
      else
        fail_at(errc::invalid_value, "bad hex digit in a \\u escape", at);
    }
    return v;
  }

  // A member name: a view into the input when it has no escapes, else unescaped into key_.
  std::string_view read_key() {
    const std::size_t at = offset();
    expect('"', "a member name (a string)");
    const char* start = pos_;
    bool escaped = false;
    const char* raw_end = start;  // end of the raw pieces before the first escape
    // Names without escapes (nearly all) are views; key_ is filled only once an escape appears.
    walk_string(
        at,
        [&](const char* data, std::size_t n) {
          const bool decoded = data < begin_ || data >= end_;
          if (!escaped && !decoded) {
            raw_end = data + n;
            return;
          }
          if (!escaped) {
            key_.assign(start, static_cast<std::size_t>(raw_end - start));
            escaped = true;
          }
          key_.append(data, n);
        },
        false);
    if (!escaped) return {start, static_cast<std::size_t>(pos_ - 1 - start)};
    return key_;
  }

  // Skips one value, checking it as strictly as reading it would.
  void skip_value() {
    skip_space();
    if (pos_ >= end_) fail(errc::end_of_input, "expected a value, input ends");
    switch (*pos_) {
      case '"': {
        const std::size_t at = offset();
        ++pos_;
        walk_string(
            at, [](const char*, std::size_t) {}, false);
        return;
      }
      case '[':
      case '{': {
        const char* const start = pos_;
        if (const char* end = skipped_.end_of(start)) {
          pos_ = end;
          return;
        }
        const char close = *pos_ == '[' ? ']' : '}';
        enter(*pos_, "a value");
        if (!close_if(close)) {
          do {
            skip_space();
            if (close == '}') {
              read_key();
              skip_space();
              expect(':', "':' after the member name");
            }
            skip_value();
            skip_space();
          } while (next_element(close));
        }
        leave();
        if (!skipped_.keep(context_, start, pos_))
          fail(errc::allocation_limit,
               error_text({"the allocation limit of ", context_.limits().max_allocation,
                           " bytes is reached"}));
        return;
      }
      case 't':
        if (literal("true")) return;
        break;
      case 'f':
        if (literal("false")) return;
        break;
      case 'n':
        if (literal("null")) return;
        break;
      default: {
        if (options_.allow_non_finite &&
            (literal("NaN") || literal("Infinity") || literal("-Infinity")))
          return;
        if (*pos_ != '-' && static_cast<unsigned>(*pos_ - '0') >= 10) break;
        bool integral;
        decimal_parts parts;
        pos_ = scan_number(integral, parts);
        return;
      }
    }
    fail_expected("a value");
  }

  std::string key_;                 // a member name whose escapes were undone (read_key)
  skip_memo<const char*> skipped_;  // ends of containers stepped over (core/skip_memo.hpp)
};

}  // namespace bale::detail
