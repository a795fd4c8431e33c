// SPDX-License-Identifier: BSL-1.0
#pragma once
// The schema block of a version-2 .bale file: u32 size n, the n bytes of the writer's schema text
// (bale::schema_of), then zeros up to a multiple of 16 bytes, between the header and the payload.
// The padding keeps the payload as aligned in memory as the buffer it is read into, which views
// of arrays (load_file_owned) need. The header's fingerprint is the
// FNV-1a 64 of that text, so a reader compares one integer and reads the text only to explain a
// difference (or, later, to resolve one).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "bale/core/little_endian.hpp"
#include "bale/schema/schema_of.hpp"

namespace bale::detail {

/// Bytes the block adds before its text, and the multiple its size is padded to.
inline constexpr std::size_t schema_block_prefix = 4;
inline constexpr std::size_t schema_block_alignment = 16;

constexpr std::size_t schema_block_size(std::size_t text_size) noexcept {
  return (schema_block_prefix + text_size + schema_block_alignment - 1) / schema_block_alignment *
         schema_block_alignment;
}

template <class Sink>
void write_schema_block(Sink& sink, std::string_view text) {
  std::byte size[schema_block_prefix];
  put_u32(size, static_cast<std::uint32_t>(text.size()));
  sink.put(size, schema_block_prefix);
  sink.put(text.data(), text.size());
  const std::byte zeros[schema_block_alignment]{};
  sink.put(zeros, schema_block_size(text.size()) - schema_block_prefix - text.size());
}

/// The block at the start of `stored`: its text, or `ok` false when it runs past the stored
/// bytes or its padding is not zeros.
struct schema_block {
  std::string_view text;
  std::size_t size = 0;  // prefix, text and padding
  bool ok = false;
};
inline schema_block parse_schema_block(std::span<const std::byte> stored) {
  if (stored.size() < schema_block_prefix) return {};
  const std::uint32_t n = get_u32(stored.data());
  if (n > stored.size() - schema_block_prefix) return {};
  const std::size_t size = schema_block_size(n);
  if (size > stored.size()) return {};
  for (std::size_t i = schema_block_prefix + n; i < size; ++i)
    if (stored[i] != std::byte{0}) return {};
  return {std::string_view(reinterpret_cast<const char*>(stored.data() + schema_block_prefix), n),
          size, true};
}

}  // namespace bale::detail
