// SPDX-License-Identifier: BSL-1.0
// Pointer graphs read from any input, in every format and through schemas: plain reads (binary,
// compact, MessagePack, JSON), resolved reads against a schema given before the first zero byte,
// and framed messages (first byte 1 to 4). After every read that succeeds, every object and every
// observer's target is read (fuzz::touch): a dangling observer is a use-after-free under ASan, a
// cycle of owning pointers a leak. Nothing but bale::error escapes.
#include <bale/json/format.hpp>
#include <bale/msgpack/format.hpp>
#include <bale/schema/message.hpp>
#include <bale/schema/resolve.hpp>
#include <span>
#include <string>
#include <string_view>

#include "graph.hpp"
#include "message.hpp"

namespace {

const bale::limits lim{
    .max_depth = 64, .max_allocation = std::size_t{16} << 20, .max_objects = 4096};

template <class Read>
void try_read(Read&& read) {
  try {
    fuzz::graph g;
    read(g);
    volatile std::int64_t sum = fuzz::touch(g);
    (void)sum;
  } catch (const bale::error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes = fuzz::bytes_of(data, size);
  if (size > 0 && data[0] >= 1 && data[0] <= 4) {
    bale::schema_cache cache({.max_schemas = 4, .schema = {.max_size = 1 << 16, .max_depth = 64}});
    try_read([&](fuzz::graph& g) { bale::deserialize_framed(bytes, cache, g, lim); });
    try_read(
        [&](fuzz::graph& g) { bale::deserialize_framed<bale::compact>(bytes, cache, g, lim); });
    return 0;
  }
  try_read([&](fuzz::graph& g) { bale::deserialize(bytes, g, lim); });
  try_read([&](fuzz::graph& g) { bale::deserialize<bale::compact>(bytes, g, lim); });
  try_read([&](fuzz::graph& g) { bale::deserialize<bale::msgpack>(bytes, g, lim); });
  try_read([&](fuzz::graph& g) { bale::deserialize<bale::json>(bytes, g, lim); });
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t zero = input.find('\0');
  if (zero == std::string_view::npos) return 0;
  const std::string text(input.substr(0, zero));
  const auto payload = bytes.subspan(zero + 1);
  try_read([&](fuzz::graph& g) { bale::deserialize_as(payload, text, g, lim); });
  try_read([&](fuzz::graph& g) {
    bale::deserialize_as<fuzz::graph, bale::compact>(payload, text, g, lim);
  });
  return 0;
}
