// SPDX-License-Identifier: BSL-1.0
#pragma once
// Messages that name the schema they were written with, for readers built from another version
// of the type (a service and its clients, a checkpoint read by a newer build):
//
//   auto first = bale::serialize_framed(value, {.with_schema = true});  // the schema travels
//   auto next = bale::serialize_framed(value);                          // its digest only
//   bale::schema_cache cache;             // kept by the reader across messages
//   auto v = bale::deserialize_framed<T>(first, cache);  // learns the writer's schema
//   auto w = bale::deserialize_framed<T>(next, cache);   // found by its digest
//
// A frame is one byte (3: the schema's digest only, 4: its text follows), the SHA-256 digest of
// the schema's text (32 bytes), for 4 the text's size (u32, little-endian) and the text, then the
// value as serialize<Format> writes it. Frames of format version 1 (1 and 2: the 64-bit
// fingerprint in place of the digest) still read. A message of the reader's own schema reads at
// deserialize's speed; another schema is resolved by the rules of schema/resolution.hpp, with a
// plan made once per writer schema and reader type and kept in the cache. docs/schema.md shows
// the whole of it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bale/core/buffer.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/little_endian.hpp"
#include "bale/core/serialize.hpp"
#include "bale/schema/resolve.hpp"
#include "bale/schema/schema_cache.hpp"
#include "bale/schema/schema_of.hpp"

namespace bale {

/// What a frame holds besides the value.
struct frame_options {
  bool with_schema = false;  // the schema text, not only its fingerprint
};

namespace detail {
// The kinds of frame: format version 1 names a schema by its 64-bit fingerprint, 2 by its digest.
inline constexpr std::byte frame_fingerprint{1}, frame_schema{2}, frame_digest{3},
    frame_digest_schema{4};

// What a frame's head says: the schema (and whether a format 1 frame named it by fingerprint),
// and where the value starts.
struct frame_head {
  sha256_digest digest{};
  std::uint64_t fingerprint = 0;
  bool by_fingerprint = false;
  std::size_t value_start = 0;
};
}  // namespace detail

/// `value` as serialize<Format> writes it, after a frame that names its schema.
template <format Format = binary, class T>
std::vector<std::byte> serialize_framed(const T& value, const frame_options& options = {}) {
  const type_schema& schema = schema_of<T>();
  const std::size_t head = 1 + schema.digest().size();
  std::vector<std::byte> out(head + (options.with_schema ? 4 + schema.text().size() : 0));
  out[0] = options.with_schema ? detail::frame_digest_schema : detail::frame_digest;
  std::memcpy(out.data() + 1, schema.digest().data(), schema.digest().size());
  if (options.with_schema) {
    detail::put_u32(out.data() + head, static_cast<std::uint32_t>(schema.text().size()));
    if (!schema.text().empty())
      std::memcpy(out.data() + head + 4, schema.text().data(), schema.text().size());
  }
  serialize_into<Format>(out, value);
  return out;
}

namespace detail {
// The text a frame carries (after its name, `at` bytes in), checked against that name and learnt
// by the cache; returns where the value starts.
inline std::size_t learn_frame_schema(std::span<const std::byte> bytes, std::size_t at,
                                      const frame_head& head, schema_cache& cache) {
  if (bytes.size() < at + 4)
    throw error(errc::end_of_input, "the frame ends inside its schema's size", bytes.size());
  const std::uint32_t size = get_u32(bytes.data() + at);
  if (size > bytes.size() - at - 4)
    throw error(errc::length_too_large,
                detail::error_text({"a schema of ", size, " bytes in a frame of ", bytes.size()}),
                at);
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + at + 4), size);
  const bool matches =
      head.by_fingerprint ? fnv1a64(text) == head.fingerprint : sha256(text) == head.digest;
  if (!matches)
    throw error(errc::checksum_mismatch, "the frame's schema does not match its name", 1);
  try {
    (void)cache.learn_from_frame(text, head.by_fingerprint);
  } catch (const error& e) {
    throw error(e.code(), "the frame's schema: " + e.detail(), e.offset_in_whole(at + 4));
  }
  return at + 4 + size;
}

// Reads a frame's head, learning a schema it carries.
inline frame_head read_frame_head(std::span<const std::byte> bytes, schema_cache& cache) {
  if (bytes.empty()) throw error(errc::end_of_input, "an empty frame", 0);
  const std::byte kind = bytes[0];
  frame_head head;
  head.by_fingerprint = kind == frame_fingerprint || kind == frame_schema;
  if (!head.by_fingerprint && kind != frame_digest && kind != frame_digest_schema)
    throw error(errc::invalid_value, "not a frame: its first byte is not 1, 2, 3 or 4", 0);
  const std::size_t name_end = head.by_fingerprint ? 9 : 1 + head.digest.size();
  if (bytes.size() < name_end)
    throw error(errc::end_of_input,
                detail::error_text({"this kind of frame starts with ", name_end, " bytes"}),
                bytes.size());
  if (head.by_fingerprint)
    head.fingerprint = get_u64(bytes.data() + 1);
  else
    std::memcpy(head.digest.data(), bytes.data() + 1, head.digest.size());
  const bool with_text = kind == frame_schema || kind == frame_digest_schema;
  head.value_start = with_text ? learn_frame_schema(bytes, name_end, head, cache) : name_end;
  return head;
}

// The plan for a frame's value read as T: none when the frame names T's own schema.
template <class T>
const resolution* frame_plan(const frame_head& head, schema_cache& cache) {
  const type_schema& own = schema_of<T>();
  if (!head.by_fingerprint)
    return head.digest == own.digest() ? nullptr : &cache.plan_for<T>(head.digest);
  cache.refuse_if_forged(head.fingerprint);
  const sha256_digest* known = cache.digest_of(head.fingerprint);
  if (head.fingerprint == own.fingerprint()) {
    // A text of the reader's own fingerprint that is not its schema is a forgery.
    if (known != nullptr && *known != own.digest())
      throw error(errc::checksum_mismatch,
                  detail::error_text({"the schema cache holds another text with this type's "
                                      "fingerprint ",
                                      head.fingerprint, ": messages of it are refused"}));
    return nullptr;
  }
  if (known == nullptr)
    throw error(errc::wrong_type,
                detail::error_text({"the message's schema (fingerprint ", head.fingerprint,
                                    ") is not in the cache: add the writer's schema, or send "
                                    "one message with it"}));
  return &cache.plan_for<T>(*known);
}
}  // namespace detail

/// Reads a framed message into `value`: directly when it has T's schema, resolved through the
/// cache's plan when another. Errors carry offsets in the whole frame.
template <format Format = binary, byte_input Bytes, class T>
void deserialize_framed(const Bytes& input, schema_cache& cache, T& value, const limits& lim = {}) {
  const std::span<const std::byte> bytes = as_byte_span(input);
  const detail::frame_head head = detail::read_frame_head(bytes, cache);
  const std::size_t start = head.value_start;
  const detail::resolution* plan = detail::frame_plan<T>(head, cache);
  if (plan != nullptr)
    detail::require_followable(*plan, Format::reader::self_describing, Format::name);
  try {
    detail::read_context context(lim);
    detail::deserialize_planned<Format>(context, bytes.subspan(start), plan, value);
  } catch (const error& e) {
    error shifted(e.code(), e.detail(), e.offset_in_whole(start));
    if (!e.path().empty()) shifted.prepend_field(e.path());
    throw shifted;
  }
}

template <class T, format Format = binary, byte_input Bytes>
T deserialize_framed(const Bytes& bytes, schema_cache& cache, const limits& lim = {}) {
  T value = T();
  deserialize_framed<Format>(bytes, cache, value, lim);
  return value;
}

}  // namespace bale
