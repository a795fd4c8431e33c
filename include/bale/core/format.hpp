#pragma once
// What a format tag provides: a writer over a sink, and a reader over bytes.

#include <concepts>
#include <span>
#include <string_view>

#include "bale/core/read_context.hpp"
#include "bale/core/sink.hpp"

namespace bale {

/// A format tag such as bale::binary.
template <class F>
concept format = requires {
  typename F::template writer<detail::size_counter>;
  { F::name } -> std::convertible_to<std::string_view>;
}
&&std::constructible_from<typename F::reader, std::span<const std::byte>, detail::read_context&>;

namespace detail {
/// Whether serialize_into computes the exact size before writing (binary formats), or writes once
/// into a growing buffer (a format that says `static constexpr bool sizes_first = false`).
template <class F>
inline constexpr bool sizes_first = true;
template <class F>
requires requires {
  F::sizes_first;
}
inline constexpr bool sizes_first<F> = F::sizes_first;
}  // namespace detail

}  // namespace bale
