// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a format tag provides: a writer over a sink, and a reader over bytes.

#include <concepts>
#include <cstdint>
#include <span>
#include <string_view>

#include "bale/core/archive.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/sink.hpp"
#include "bale/core/write_context.hpp"

namespace bale {

/// A format tag such as bale::binary: a name, the number that file headers record, a writer over
/// any sink and a reader over bytes, each satisfying the archive contract (core/archive.hpp).
template <class F>
concept format = requires {
  { F::name } -> std::convertible_to<std::string_view>;
  { F::id } -> std::convertible_to<std::uint8_t>;
  typename F::template writer<detail::size_counter>;
  typename F::reader;
}
&&output_archive<typename F::template writer<detail::size_counter>>&& std::constructible_from<
    typename F::template writer<detail::size_counter>, detail::size_counter&,
    detail::write_context&>&& input_archive<typename F::reader>&&
    std::constructible_from<typename F::reader, std::span<const std::byte>, detail::read_context&>;

/// Whether a format's data holds no member names (binary, compact): it is read as the type or a
/// schema says, so a file's header alone tells a reader how to read it, and data of another
/// schema is read by a resolution plan.
template <class F>
inline constexpr bool packed_format = !F::reader::self_describing;

/// Whether Format writes a contiguous array of E (a vector, a span) as its element count (8 bytes,
/// little-endian) followed by the elements' memory, so that the array can be sent from and
/// received into that memory (bale::mpi). A format says so with
/// `template <class E> static constexpr bool array_is_memory`.
template <class F, class E>
inline constexpr bool array_is_memory = false;
template <class F, class E>
requires requires {
  F::template array_is_memory<E>;
}
inline constexpr bool array_is_memory<F, E> = F::template array_is_memory<E>;

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
