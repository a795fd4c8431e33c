// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::binary: the format tag. Fixed-width little-endian scalars, u64 lengths, no padding, no
// names, no type information; docs/format/binary.md has it byte for byte.

#include <cstdint>
#include <string_view>

#include "bale/binary/codec.hpp"
#include "bale/core/format.hpp"
#include "bale/core/packed_reader.hpp"
#include "bale/core/packed_writer.hpp"
#include "bale/fwd.hpp"

namespace bale {

struct binary {
  static constexpr std::string_view name = "binary";
  template <class Sink>
  using writer = detail::packed_writer<detail::binary_codec, Sink>;
  using reader = detail::packed_reader<detail::binary_codec>;
  /// The format's number in file headers.
  static constexpr std::uint8_t id = 1;
};
static_assert(format<binary>);  // its writer and reader keep the archive contract

}  // namespace bale
