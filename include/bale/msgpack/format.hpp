// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::msgpack: MessagePack (https://msgpack.org), for data shared with other languages. Reflected
// types are maps of member names, integers take their smallest form, byte sequences are bin;
// docs/format/msgpack.md has it byte for byte.
//
//   std::vector<std::byte> bytes = bale::serialize<bale::msgpack>(value);
//   auto back = bale::deserialize<my_type, bale::msgpack>(bytes);

#include <cstdint>
#include <string_view>

#include "bale/core/format.hpp"
#include "bale/core/sink.hpp"
#include "bale/fwd.hpp"
#include "bale/msgpack/reader.hpp"
#include "bale/msgpack/writer.hpp"

namespace bale {

struct msgpack {
  static constexpr std::string_view name = "msgpack";
  template <class Sink>
  using writer = detail::msgpack_writer<Sink>;
  using reader = detail::msgpack_reader<>;
  /// The format's number in file headers.
  static constexpr std::uint8_t id = 4;
};

static_assert(format<msgpack>);  // its writer and reader keep the archive contract

}  // namespace bale
