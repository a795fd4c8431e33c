// SPDX-License-Identifier: BSL-1.0
#pragma once
// Messages that name the schema they were written with, for readers built from another version
// of the type (a service and its clients, a checkpoint read by a newer build):
//
//   auto first = bale::serialize_framed(value, {.with_schema = true});  // the schema travels
//   auto next = bale::serialize_framed(value);                          // its fingerprint only
//   bale::schema_cache cache;             // kept by the reader across messages
//   auto v = bale::deserialize_framed<T>(first, cache);  // learns the writer's schema
//   auto w = bale::deserialize_framed<T>(next, cache);   // found by its fingerprint
//
// A frame is one byte (1: the fingerprint only, 2: the schema text follows), the schema's
// fingerprint (u64, little-endian), for 2 the text's size (u32) and the text, then the value as
// serialize<Format> writes it. A message of the reader's own schema reads at deserialize's speed;
// another schema is resolved by the rules of schema/resolution.hpp, with a plan made once per
// writer schema and reader type and kept in the cache. docs/schema.md shows the whole of it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
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
#include "bale/schema.hpp"
#include "bale/schema/resolve.hpp"
#include "bale/schema/tree.hpp"

namespace bale {

/// How much a schema_cache holds: schemas arrive from the input, so they are bounded too.
struct schema_cache_limits {
  std::size_t max_schemas = 256;
  schema_limits schema{};  // of each text
};

/// The writers' schemas a reader knows, by fingerprint, and the plans made from them. Not
/// thread-safe: one per reading thread, or a lock around it.
class schema_cache {
 public:
  explicit schema_cache(const schema_cache_limits& lim = {}) : limits_(lim) {}

  /// Remembers a writer's schema text (checked as any schema read from input is); returns its
  /// fingerprint. A text already known is not stored twice.
  std::uint64_t add(std::string_view text) {
    const std::uint64_t fingerprint = detail::fnv1a64(text);
    if (const auto known = texts_.find(fingerprint); known != texts_.end()) {
      if (known->second != text)
        throw error(errc::invalid_value,
                    detail::error_text({"two schemas with the fingerprint ", fingerprint, ": ",
                                        known->second, " and ", text}));
      return fingerprint;
    }
    if (texts_.size() >= limits_.max_schemas)
      throw error(errc::element_limit, detail::error_text({"the schema cache holds its limit of ",
                                                           limits_.max_schemas, " schemas"}));
    (void)parse_schema(text, limits_.schema);
    texts_.emplace(fingerprint, std::string(text));
    return fingerprint;
  }
  /// Remembers the schema of T (an older type kept in a namespace, say).
  template <class T>
  std::uint64_t add() {
    return add(schema_of<T>().text());
  }

  bool contains(std::uint64_t fingerprint) const { return texts_.count(fingerprint) != 0; }
  std::size_t size() const noexcept { return texts_.size(); }

  /// The plan for reading data of the schema `writer` as T, made on first use. Throws
  /// errc::wrong_type when the schema is unknown or does not resolve.
  template <class T>
  const detail::resolution& plan_for(std::uint64_t writer) {
    const std::uint64_t reader = schema_of<T>().fingerprint();
    const auto key = std::pair(writer, reader);
    if (const auto found = plans_.find(key); found != plans_.end()) return *found->second;
    const auto text = texts_.find(writer);
    if (text == texts_.end())
      throw error(errc::wrong_type,
                  detail::error_text({"the message's schema (fingerprint ", writer,
                                      ") is not in the cache: add the writer's schema, or "
                                      "send one message with it"}));
    auto plan = std::make_unique<detail::resolution>(detail::resolution_for<T>(text->second));
    return *plans_.emplace(key, std::move(plan)).first->second;
  }

 private:
  schema_cache_limits limits_;
  std::map<std::uint64_t, std::string> texts_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::unique_ptr<detail::resolution>> plans_;
};

/// What a frame holds besides the value.
struct frame_options {
  bool with_schema = false;  // the schema text, not only its fingerprint
};

namespace detail {
inline constexpr std::byte frame_fingerprint{1}, frame_schema{2};
inline constexpr std::size_t frame_head = 9;  // the kind byte and the fingerprint
}  // namespace detail

/// `value` as serialize<Format> writes it, after a frame that names its schema.
template <format Format = binary, class T>
std::vector<std::byte> serialize_framed(const T& value, const frame_options& options = {}) {
  const type_schema& schema = schema_of<T>();
  std::vector<std::byte> out(detail::frame_head +
                             (options.with_schema ? 4 + schema.text().size() : 0));
  out[0] = options.with_schema ? detail::frame_schema : detail::frame_fingerprint;
  detail::put_u64(out.data() + 1, schema.fingerprint());
  if (options.with_schema) {
    detail::put_u32(out.data() + detail::frame_head,
                    static_cast<std::uint32_t>(schema.text().size()));
    if (!schema.text().empty())
      std::memcpy(out.data() + detail::frame_head + 4, schema.text().data(), schema.text().size());
  }
  serialize_into<Format>(out, value);
  return out;
}

namespace detail {
// Reads a frame's head, learning a schema it carries; returns the fingerprint and where the
// value starts.
inline std::pair<std::uint64_t, std::size_t> read_frame_head(std::span<const std::byte> bytes,
                                                             schema_cache& cache) {
  if (bytes.size() < frame_head)
    throw error(errc::end_of_input, "a frame is at least 9 bytes", bytes.size());
  if (bytes[0] != frame_fingerprint && bytes[0] != frame_schema)
    throw error(errc::invalid_value, "not a frame: its first byte is neither 1 nor 2", 0);
  const std::uint64_t fingerprint = get_u64(bytes.data() + 1);
  if (bytes[0] == frame_fingerprint) return {fingerprint, frame_head};
  if (bytes.size() < frame_head + 4)
    throw error(errc::end_of_input, "the frame ends inside its schema's size", bytes.size());
  const std::uint32_t size = get_u32(bytes.data() + frame_head);
  if (size > bytes.size() - frame_head - 4)
    throw error(errc::length_too_large,
                detail::error_text({"a schema of ", size, " bytes in a frame of ", bytes.size()}),
                frame_head);
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + frame_head + 4), size);
  if (fnv1a64(text) != fingerprint)
    throw error(errc::checksum_mismatch, "the frame's schema does not match its fingerprint", 1);
  try {
    (void)cache.add(text);
  } catch (const error& e) {
    throw error(e.code(), "the frame's schema: " + e.detail(), e.offset_in_whole(frame_head + 4));
  }
  return {fingerprint, frame_head + 4 + size};
}
}  // namespace detail

/// Reads a framed message into `value`: directly when it has T's schema, resolved through the
/// cache's plan when another. Errors carry offsets in the whole frame.
template <format Format = binary, byte_input Bytes, class T>
void deserialize_framed(const Bytes& input, schema_cache& cache, T& value, const limits& lim = {}) {
  const std::span<const std::byte> bytes = as_byte_span(input);
  const auto [fingerprint, start] = detail::read_frame_head(bytes, cache);
  const detail::resolution* plan = nullptr;
  if (fingerprint != schema_of<T>().fingerprint()) {
    plan = &cache.plan_for<T>(fingerprint);
    detail::require_followable(*plan, Format::reader::self_describing, Format::name);
  }
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
  T value{};
  deserialize_framed<Format>(bytes, cache, value, lim);
  return value;
}

}  // namespace bale
