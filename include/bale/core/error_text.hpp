// SPDX-License-Identifier: BSL-1.0
#pragma once
// Error messages built from parts: detail::error_text({"need ", n, " bytes, ", left, " left"}).
//
// Every translation unit that reads anything compiles each failure site of the readers it uses.
// A chain of std::to_string and operator+ inlines several std::string members per site (in C++20
// libstdc++ compiles them in every unit); one call with a list of parts is a few instructions per
// site and one small function per unit.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace bale::detail {

/// Writes the decimal digits of n so that they end at `end`; returns where they start.
inline char* write_decimal(std::uint64_t n, char* end) noexcept {
  do {
    *--end = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n != 0);
  return end;
}

/// One piece of an error message: a text, or an integer written in decimal.
class message_part {
 public:
  message_part(std::string_view text) noexcept : text_(text) {}
  message_part(const char* text) noexcept : text_(text) {}
  message_part(const std::string& text) noexcept : text_(text) {}
  // A char or bool would print as a number: say which text is meant.
  message_part(char) = delete;
  message_part(bool) = delete;
  template <std::unsigned_integral N>
  message_part(N n) noexcept : number_(true) {
    first_ = static_cast<unsigned char>(write_decimal(n, digits_ + sizeof digits_) - digits_);
  }
  template <std::signed_integral N>
  message_part(N n) noexcept : number_(true) {
    // -(n + 1) cannot overflow, where -n would for the most negative value.
    const std::uint64_t magnitude =
        n < 0 ? static_cast<std::uint64_t>(-(n + 1)) + 1 : static_cast<std::uint64_t>(n);
    char* first = write_decimal(magnitude, digits_ + sizeof digits_);
    if (n < 0) *--first = '-';
    first_ = static_cast<unsigned char>(first - digits_);
  }

  std::string_view text() const noexcept {
    if (!number_) return text_;
    return {digits_ + first_, sizeof digits_ - first_};
  }

 private:
  std::string_view text_;
  char digits_[21];
  unsigned char first_ = 0;
  bool number_ = false;
};

/// The parts joined into one string.
[[gnu::cold]] inline std::string error_text(std::initializer_list<message_part> parts) {
  std::size_t size = 0;
  for (const message_part& part : parts) size += part.text().size();
  std::string text;
  text.reserve(size);
  for (const message_part& part : parts) text.append(part.text().data(), part.text().size());
  return text;
}

}  // namespace bale::detail
