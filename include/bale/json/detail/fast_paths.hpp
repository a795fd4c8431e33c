// SPDX-License-Identifier: BSL-1.0
#pragma once
// The JSON reader's fast paths for the shapes minified text (bale::to_json's default) gives most
// often. Each takes only the exact form it expects and otherwise reads nothing and says so; the
// general path then reads the same text and reports any error.
//   read_flat_object        an object of numbers and fixed arrays of numbers, members in order
//   read_minified_integers  the short integers of an array, 32 bytes of delimiters at a time

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>
#include <utility>

#include "bale/core/error.hpp"
#include "bale/json/detail/decimal_text.hpp"
#include "bale/json/detail/string_reader.hpp"
#include "bale/json/detail/text.hpp"

namespace bale::detail {

class json_fast_paths : public json_string_reader {
 public:
  using json_string_reader::json_string_reader;

 protected:
  // An object of numbers and arrays of numbers (json_flat_object) as minified text writes it:
  // every member in declaration order, no space, each byte of punctuation compared in place and
  // each number read straight into its member. Any other text (spaces, another order, a missing
  // or unknown member, an error) leaves pos_ where it was and returns false for read_object's
  // general path, which reads the members again from the start and reports any error; the values
  // already stored are those of the same text, so no member ends up different.
  template <class Names, class... Members>
  bool read_flat_object(Members&... members) {
    constexpr std::size_t nesting = (std::is_arithmetic_v<Members> && ...) ? 1 : 2;
    if (context_.depth() + nesting > context_.limits().max_depth) return false;
    const char* const start = pos_;
    auto punctuation = [&](char c) {
      if (pos_ == end_ || *pos_ != c) return false;
      ++pos_;
      return true;
    };
    auto member = [&]<std::size_t I, class M>(std::integral_constant<std::size_t, I>, M& value) {
      constexpr auto& prefix = json_member_prefix<Names, I>;
      if (static_cast<std::size_t>(end_ - pos_) < prefix.size() ||
          !same_bytes(pos_, prefix.data(), prefix.size()))
        return false;
      pos_ += prefix.size();
      // A number's usual text is read inline here, once per member, not in a call per number.
      // Anything but a number's first character (a space, a quote) gives up without throwing: an
      // error builds its line and column from the start of the text, and a fast path that threw on
      // every object of spaced-out text would cost the whole prefix per object.
      auto number = [&]<class N>(N& x) {
        if constexpr (std::is_floating_point_v<N>) {
          if (read_plain_float(x)) return true;
        } else if constexpr (std::is_integral_v<N> && !std::is_same_v<N, bool>) {
          if (read_plain_integer(x)) return true;
        }
        if (pos_ == end_ || (*pos_ != '-' && (*pos_ < '0' || *pos_ > '9'))) return false;
        read_number(x);
        return true;
      };
      if constexpr (std::is_arithmetic_v<M>) {
        if (!number(value)) return false;
      } else {
        if (!punctuation('[')) return false;
        auto* data = std::data(value);
        for (std::size_t i = 0; i < std::size(value); ++i) {
          if (i != 0 && !punctuation(',')) return false;
          if (!number(data[i])) return false;
        }
        if (!punctuation(']')) return false;
      }
      return true;
    };
    try {
      const bool all = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (member(std::integral_constant<std::size_t, I>{}, members) && ...);
      }
      (std::index_sequence_for<Members...>{});
      if (all && punctuation('}')) return true;
    } catch (const error&) {
      // The general path reads the same text and reports the error with the member's name.
    }
    pos_ = start;
    return false;
  }

  // The integers of an array in minified text, the commonest numbers of all, from pos_ (on one)
  // and at most `room` of them: each an optional '-', one to seven digits (no leading zero), then
  // ',' or ']'. Where the numbers end comes from 32 bytes at a time, so finding the next one does
  // not wait on the digits of this one. Stops before anything else (which the general reader then
  // takes, errors included) and after a number closed by ']'. pos_ is left on the delimiter after
  // the last number read; returns how many were read.
  template <class T>
  std::size_t read_minified_integers(T* out, std::size_t room) {
    std::size_t n = 0;
    const char* p = pos_;
    // 32 bytes of delimiters, and a word read at any number in them.
    while (end_ - p >= 40) {
      std::uint32_t delimiters = json_delimiter_bits(p);
      unsigned start = 0;
      for (; delimiters != 0; delimiters &= delimiters - 1) {
        const auto delimiter = static_cast<unsigned>(std::countr_zero(delimiters));
        const bool negative = p[start] == '-';
        const char* digits_at = p + start + negative;
        const unsigned digits = delimiter - start - negative;
        std::uint64_t word;
        std::memcpy(&word, digits_at, 8);
        if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
        if (digits - 1U >= 7U ||
            static_cast<unsigned>(std::countr_zero(non_digit_bytes(word))) < digits * 8 ||
            (digits > 1 && (word & 0xFF) == '0'))
          return n;
        const std::uint64_t magnitude = digits_value_below_8(word, digits);
        if (!store_integer<T, true>(negative, magnitude, out[n])) return n;
        pos_ = p + delimiter;
        if (++n == room || p[delimiter] == ']') return n;
        start = delimiter + 1;
      }
      if (start == 0) break;  // no number ends in these 32 bytes
      p += start;
    }
    return n;
  }
};

}  // namespace bale::detail
