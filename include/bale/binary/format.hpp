// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::binary: the format tag. Fixed-width little-endian scalars, u64 lengths, no padding, no
// names, no type information; docs/format/binary.md has it byte for byte.

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "bale/binary/codec.hpp"
#include "bale/core/format.hpp"
#include "bale/fwd.hpp"
#include "bale/packed/reader.hpp"
#include "bale/packed/writer.hpp"

namespace bale {

struct binary {
  static constexpr std::string_view name = "binary";
  template <class Sink>
  using writer = detail::packed_writer<detail::binary_codec, Sink>;
  using reader = detail::packed_reader<detail::binary_codec>;
  /// The format's number in file headers.
  static constexpr std::uint8_t id = 1;
  /// A vector or span of E is its u64 length and then its elements' memory (bool's excepted:
  /// std::vector<bool> has no memory of bools).
  template <class E>
  static constexpr bool array_is_memory = !std::is_same_v<E, bool> && detail::binary_codec::bulk<E>;
};
static_assert(format<binary>);  // its writer and reader keep the archive contract

}  // namespace bale
