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
#include <set>
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
#include "bale/schema/schema_of.hpp"
#include "bale/schema/tree.hpp"

namespace bale {

/// How much a schema_cache holds: schemas arrive from the input, so they are bounded too. Past
/// either bound, the schema used least recently is forgotten (with its plans) to make room.
struct schema_cache_limits {
  std::size_t max_schemas = 256;
  std::size_t max_bytes = std::size_t{16} << 20;  // the texts held, summed
  schema_limits schema{};                         // of each text
};

/// The writers' schemas a reader knows, by fingerprint, and the plans made from them (a plan that
/// failed is remembered as its error, so that messages of that schema are refused at once). A
/// fingerprint seen with two texts is a forgery or damage: it is refused from then on. Not
/// thread-safe: one per reading thread, or a lock around it.
class schema_cache {
 public:
  explicit schema_cache(const schema_cache_limits& lim = {}) : limits_(lim) {}

  /// Remembers a writer's schema text (checked as any schema read from input is); returns its
  /// fingerprint. A text already known is not stored twice.
  std::uint64_t add(std::string_view text) {
    const std::uint64_t fingerprint = detail::fnv1a64(text);
    refuse_if_forged(fingerprint);
    if (const auto known = schemas_.find(fingerprint); known != schemas_.end()) {
      if (known->second.text != text) {
        forget(fingerprint);
        forged_.insert(fingerprint);
        refuse_if_forged(fingerprint);
      }
      known->second.used = ++clock_;
      return fingerprint;
    }
    if (text.size() > limits_.max_bytes || limits_.max_schemas == 0)
      throw error(errc::element_limit,
                  detail::error_text({"a schema of ", text.size(), " bytes, over the cache's ",
                                      limits_.max_bytes}));
    (void)parse_schema(text, limits_.schema);
    while (schemas_.size() >= limits_.max_schemas || bytes_ + text.size() > limits_.max_bytes)
      forget(least_recently_used());
    schemas_.emplace(fingerprint, known_schema{std::string(text), ++clock_});
    bytes_ += text.size();
    return fingerprint;
  }
  /// Remembers the schema of T (an older type kept in a namespace, say).
  template <class T>
  std::uint64_t add() {
    return add(schema_of<T>().text());
  }

  bool contains(std::uint64_t fingerprint) const { return schemas_.count(fingerprint) != 0; }
  std::size_t size() const noexcept { return schemas_.size(); }
  /// The bytes of schema text held.
  std::size_t bytes() const noexcept { return bytes_; }
  /// How many plans the cache has made (or tried to make) since it was created.
  std::size_t plans_made() const noexcept { return plans_made_; }
  /// Whether `fingerprint` was seen with two texts (and is refused from then on).
  bool forged(std::uint64_t fingerprint) const { return forged_.count(fingerprint) != 0; }
  /// Throws errc::checksum_mismatch if `fingerprint` was seen with two texts.
  void refuse_if_forged(std::uint64_t fingerprint) const {
    if (forged(fingerprint))
      throw error(errc::checksum_mismatch,
                  detail::error_text({"two schemas with the fingerprint ", fingerprint,
                                      " were sent: messages of it are refused"}));
  }
  /// The text known for `fingerprint`, or null.
  const std::string* text_of(std::uint64_t fingerprint) const {
    const auto found = schemas_.find(fingerprint);
    return found == schemas_.end() ? nullptr : &found->second.text;
  }

  /// The plan for reading data of the schema `writer` as T, made on first use. Throws
  /// errc::wrong_type when the schema is unknown or does not resolve (then and every later time).
  template <class T>
  const detail::resolution& plan_for(std::uint64_t writer) {
    refuse_if_forged(writer);
    const std::uint64_t reader = schema_of<T>().fingerprint();
    const auto key = std::pair(writer, reader);
    if (const auto found = plans_.find(key); found != plans_.end()) return *found->second;
    if (const auto failed = failures_.find(key); failed != failures_.end())
      throw error(failed->second.code(), failed->second.detail());
    const auto known = schemas_.find(writer);
    if (known == schemas_.end())
      throw error(errc::wrong_type,
                  detail::error_text({"the message's schema (fingerprint ", writer,
                                      ") is not in the cache: add the writer's schema, or "
                                      "send one message with it"}));
    known->second.used = ++clock_;
    ++plans_made_;
    try {
      auto plan =
          std::make_unique<detail::resolution>(detail::resolution_for<T>(known->second.text));
      return *plans_.emplace(key, std::move(plan)).first->second;
    } catch (const error& e) {
      failures_.emplace(key, error(e.code(), e.detail()));
      throw;
    }
  }

 private:
  struct known_schema {
    std::string text;
    std::uint64_t used;  // when it last served a message (clock_)
  };
  std::uint64_t least_recently_used() const {
    auto oldest = schemas_.begin();
    for (auto s = schemas_.begin(); s != schemas_.end(); ++s)
      if (s->second.used < oldest->second.used) oldest = s;
    return oldest->first;
  }
  // Forgets a schema with its plans and remembered failures.
  void forget(std::uint64_t fingerprint) {
    if (const auto s = schemas_.find(fingerprint); s != schemas_.end()) {
      bytes_ -= s->second.text.size();
      schemas_.erase(s);
    }
    const auto first = std::pair(fingerprint, std::uint64_t{0});
    const auto last = std::pair(fingerprint, ~std::uint64_t{0});
    plans_.erase(plans_.lower_bound(first), plans_.upper_bound(last));
    failures_.erase(failures_.lower_bound(first), failures_.upper_bound(last));
  }

  schema_cache_limits limits_;
  std::map<std::uint64_t, known_schema> schemas_;
  std::size_t bytes_ = 0;
  std::uint64_t clock_ = 0;
  std::size_t plans_made_ = 0;
  std::set<std::uint64_t> forged_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::unique_ptr<detail::resolution>> plans_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, error> failures_;
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
  cache.refuse_if_forged(fingerprint);
  if (fingerprint == schema_of<T>().fingerprint()) {
    // A text of the reader's own fingerprint that is not its schema is a forgery.
    if (const std::string* known = cache.text_of(fingerprint);
        known != nullptr && *known != schema_of<T>().text())
      throw error(errc::checksum_mismatch,
                  detail::error_text({"the schema cache holds another text with this type's "
                                      "fingerprint ",
                                      fingerprint, ": messages of it are refused"}));
  } else {
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
