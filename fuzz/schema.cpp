// SPDX-License-Identifier: BSL-1.0
// bale::parse_schema, bale::decode_by_schema and bale::deserialize_as on any input: the bytes
// before the first zero are a schema's text, the rest a payload for it, decoded as binary and as
// compact, and resolved into fuzz::plain (and fuzz::stamped, as binary) where the schemas resolve.
// Nothing but bale::error escapes; an accepted text prints back to itself; a decoded value writes
// as JSON. An input whose first byte is 1 to 4 (no schema text starts so) is a framed message
// (bale/schema/message.hpp), read into fuzz::stamped and fuzz::plain with one cache.
#include <bale/schema/decode.hpp>
#include <bale/schema/message.hpp>
#include <bale/schema/resolve.hpp>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "message.hpp"

namespace {
void read_framed(std::span<const std::byte> bytes) {
  const bale::limits lim{.max_depth = 64, .max_allocation = std::size_t{16} << 20};
  bale::schema_cache cache({.max_schemas = 4, .schema = {.max_size = 1 << 16, .max_depth = 64}});
  try {
    (void)bale::deserialize_framed<fuzz::stamped>(bytes, cache, lim);
  } catch (const bale::error&) {
  }
  try {
    (void)bale::deserialize_framed<fuzz::plain, bale::compact>(bytes, cache, lim);
  } catch (const bale::error&) {
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 0 && data[0] >= 1 && data[0] <= 4) {
    read_framed(fuzz::bytes_of(data, size));
    return 0;
  }
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t zero = input.find('\0');
  const std::string text(input.substr(0, zero));
  const std::vector<std::byte> payload =
      zero == std::string_view::npos
          ? std::vector<std::byte>()
          : std::vector<std::byte>(fuzz::bytes_of(data + zero + 1, size - zero - 1).begin(),
                                   fuzz::bytes_of(data + zero + 1, size - zero - 1).end());
  bale::schema_tree tree;
  try {
    tree = bale::parse_schema(text, {.max_size = 1 << 16, .max_depth = 64});
  } catch (const bale::error&) {
    return 0;
  }
  if (bale::schema_text(tree) != text) std::abort();
  const bale::limits lim{.max_depth = 64, .max_allocation = std::size_t{16} << 20};
  try {
    (void)bale::to_json(bale::decode_by_schema<bale::binary>(tree, payload, lim));
  } catch (const bale::error&) {
  }
  try {
    (void)bale::to_json(bale::decode_by_schema<bale::compact>(tree, payload, lim));
  } catch (const bale::error&) {
  }
  try {
    (void)bale::deserialize_as<fuzz::plain>(payload, text, lim);
  } catch (const bale::error&) {
  }
  try {
    (void)bale::deserialize_as<fuzz::plain, bale::compact>(payload, text, lim);
  } catch (const bale::error&) {
  }
  try {
    (void)bale::deserialize_as<fuzz::stamped>(payload, text, lim);
  } catch (const bale::error&) {
  }
  return 0;
}
