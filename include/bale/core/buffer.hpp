// SPDX-License-Identifier: BSL-1.0
#pragma once
// The byte containers the entry points read from and write to.

#include <cstddef>
#include <span>
#include <type_traits>

#include "bale/core/ranges.hpp"

namespace bale {

/// One-byte element types: char, signed/unsigned char, char8_t, std::byte.
template <class T>
concept byte_type = std::is_same_v<T, char> || std::is_same_v<T, unsigned char> ||
    std::is_same_v<T, signed char> || std::is_same_v<T, char8_t> || std::is_same_v<T, std::byte>;

/// What bytes can be read from: span, string_view, vector, string, array of a byte type.
template <class R>
concept byte_input =
    detail::contiguous_sized_range<R> && byte_type<std::remove_cv_t<detail::range_value_of<R>>>;

/// What bytes can be appended to: std::vector<std::byte|char|unsigned char>, std::string, ...
template <class B>
concept byte_buffer = requires(B& buffer, std::size_t n) {
  buffer.resize(n);
  { buffer.size() } -> std::convertible_to<std::size_t>;
  { buffer.data() } -> std::convertible_to<const void*>;
}
&&byte_type<typename B::value_type>;

/// What bytes can be written into in place: span, array, C array, vector, string of a byte type.
template <class R>
concept byte_output = detail::contiguous_sized_range<R> && byte_type<detail::range_value_of<R>> &&
    !std::is_const_v<std::remove_reference_t<detail::range_reference_of<R>>>;

template <byte_output R>
std::span<std::byte> as_writable_byte_span(R& bytes) noexcept {
  return {reinterpret_cast<std::byte*>(std::ranges::data(bytes)), std::ranges::size(bytes)};
}

template <byte_input R>
std::span<const std::byte> as_byte_span(const R& bytes) noexcept {
  return {reinterpret_cast<const std::byte*>(std::ranges::data(bytes)), std::ranges::size(bytes)};
}

}  // namespace bale
