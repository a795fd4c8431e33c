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

}  // namespace bale
