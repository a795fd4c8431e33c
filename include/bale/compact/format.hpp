// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::compact: the smallest encoding bale makes without a general-purpose compressor. Varints
// for integers and lengths, zigzag for signed integers, raw floats; otherwise laid out like binary.
// docs/format/compact.md has it byte for byte.

#include <cstdint>
#include <string_view>

#include "bale/compact/codec.hpp"
#include "bale/core/format.hpp"
#include "bale/fwd.hpp"
#include "bale/packed/reader.hpp"
#include "bale/packed/writer.hpp"

namespace bale {

struct compact {
  static constexpr std::string_view name = "compact";
  template <class Sink>
  using writer = detail::packed_writer<detail::compact_codec, Sink>;
  using reader = detail::packed_reader<detail::compact_codec>;
  /// The format's number in file headers.
  static constexpr std::uint8_t id = 2;
};
static_assert(format<compact>);  // its writer and reader keep the archive contract

}  // namespace bale
