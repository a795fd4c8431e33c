// SPDX-License-Identifier: BSL-1.0
#pragma once
// The JSON reader's position in its text and the reads that know no C++ type: space, punctuation,
// literals, brackets and their depth, the allocation budget, and errors that name the line and
// column as well as the byte offset.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "bale/core/error.hpp"
#include "bale/core/read_context.hpp"
#include "bale/json/options.hpp"

namespace bale::detail {

class json_cursor {
 public:
  json_cursor(std::span<const std::byte> input, read_context& context,
              const json_options& options) noexcept
      : begin_(reinterpret_cast<const char*>(input.data())),
        pos_(begin_),
        end_(begin_ + input.size()),
        context_(context),
        options_(options) {}

  std::size_t offset() const noexcept { return static_cast<std::size_t>(pos_ - begin_); }
  std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - pos_); }
  read_context& context() const noexcept { return context_; }

  [[noreturn]] void fail(std::string detail) const {
    fail_at(errc::invalid_value, detail, offset());
  }
  [[noreturn]] void fail(errc code, std::string detail) const {
    fail_at(code, std::move(detail), offset());
  }
  /// Errors name the line and column (1-based) as well as the byte offset.
  [[noreturn]] void fail_at(errc code, std::string detail, std::size_t at) const {
    std::size_t line = 1, column = 1;
    for (const char* p = begin_; p < begin_ + at && p < end_; ++p) {
      if (*p == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw error(code, error_text({"line ", line, ", column ", column, ": ", detail}), at);
  }

 protected:
  void skip_space() noexcept {
    if (pos_ < end_ && ' ' < static_cast<unsigned char>(*pos_)) [[likely]]
      return;  // minified text: no space between tokens
    skip_space_run();
  }
  [[gnu::noinline]] void skip_space_run() noexcept {
    while (pos_ < end_ && (*pos_ == ' ' || *pos_ == '\n' || *pos_ == '\t' || *pos_ == '\r')) ++pos_;
  }
  void expect(char c, const char* what) {
    if (pos_ >= end_ || *pos_ != c) [[unlikely]]
      fail_expected(what);
    ++pos_;
  }
  // The failure paths are out of line: the readers above stay small enough to inline.
  // "expected <what>, found <c>"; end_of_input when the input stops partway through a literal
  // (`[tru`): that text was cut short rather than wrong.
  [[noreturn, gnu::cold, gnu::noinline]] void fail_expected(const char* what) const {
    if (pos_ >= end_) fail(errc::end_of_input, error_text({"expected ", what, ", input ends"}));
    const std::string_view rest(pos_, remaining());
    for (const std::string_view word : {"true", "false", "null", "NaN", "Infinity", "-Infinity"})
      if (rest.size() < word.size() && word.starts_with(rest))
        fail(errc::end_of_input, error_text({"expected ", what, ", input ends inside ", word}));
    fail(error_text({"expected ", what, ", found ", describe(*pos_)}));
  }
  static std::string describe(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7F) return error_text({"'", std::string_view(&c, 1), "'"});
    return error_text({"byte ", u});
  }
  bool literal(std::string_view word) noexcept {
    if (static_cast<std::size_t>(end_ - pos_) >= word.size() &&
        std::string_view(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }
  // Past the opening bracket (and the space after it), one level deeper.
  void enter(char bracket, const char* what) {
    skip_space();
    expect(bracket, what);
    if (!context_.try_enter()) [[unlikely]]
      fail_depth();
    skip_space();
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_depth() {
    context_.leave();
    fail(errc::depth_exceeded, error_text({"nesting deeper than ", context_.limits().max_depth}));
  }
  void leave() noexcept { context_.leave(); }
  bool close_if(char bracket) noexcept {
    if (pos_ < end_ && *pos_ == bracket) {
      ++pos_;
      return true;
    }
    return false;
  }
  // After an element: ',' means another follows (and must: no trailing comma), the bracket ends.
  bool next_element(char bracket) {
    if (pos_ < end_) [[likely]] {
      if (*pos_ == ',') {
        ++pos_;
        skip_space();
        if (pos_ < end_ && (*pos_ == ']' || *pos_ == '}')) [[unlikely]]
          fail("trailing comma");
        return true;
      }
      if (*pos_ == bracket) {
        ++pos_;
        return false;
      }
    }
    fail_next(bracket);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_next(char bracket) const {
    const std::string_view close(&bracket, 1);
    if (pos_ >= end_) fail(errc::end_of_input, error_text({"expected ',' or '", close, "'"}));
    fail(error_text({"expected ',' or '", close, "', found ", describe(*pos_)}));
  }
  void charge(std::size_t count, std::size_t size) {
    if (!context_.try_charge(count, size)) [[unlikely]]
      fail_allocation();
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_allocation() const {
    fail(errc::allocation_limit,
         error_text(
             {"the allocation limit of ", context_.limits().max_allocation, " bytes is reached"}));
  }

  const char* begin_;
  const char* pos_;
  const char* end_;
  read_context& context_;
  json_options options_;
};

}  // namespace bale::detail
