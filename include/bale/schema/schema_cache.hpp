// SPDX-License-Identifier: BSL-1.0
#pragma once
// The writers' schemas a reader of framed messages knows, and the plans made from them.
//
// A schema is known by the SHA-256 digest of its text: no text sent by anyone can take the place
// of another's. Frames of format version 1 name a schema by its 64-bit FNV-1a fingerprint, which
// a patient attacker can collide; such a fingerprint is looked up only among texts that arrived
// in format 1 frames or were added by the program, and a fingerprint seen with two texts is
// refused from then on.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "bale/checksum/sha256.hpp"
#include "bale/core/error.hpp"
#include "bale/core/error_text.hpp"
#include "bale/schema/resolve.hpp"
#include "bale/schema/schema_of.hpp"
#include "bale/schema/tree.hpp"

namespace bale {

/// How much a schema_cache holds: schemas arrive from the input, so they are bounded too. Past
/// either bound, the schema used least recently is forgotten (with its plans) to make room.
struct schema_cache_limits {
  std::size_t max_schemas = 256;
  // The texts held and the plans made from them (a plan holds its two parsed schemas, about
  // thirty times its text), summed.
  std::size_t max_bytes = std::size_t{16} << 20;
  schema_limits schema{};  // of each text
};

/// The writers' schemas a reader knows and the plans made from them (a plan that failed is
/// remembered as its error, so that messages of that schema are refused at once). Not
/// thread-safe: one per reading thread, or a lock around it.
class schema_cache {
 public:
  explicit schema_cache(const schema_cache_limits& lim = {}) : limits_(lim) {}

  /// Remembers a writer's schema text (checked as any schema read from input is), by its digest
  /// and by its 64-bit fingerprint for frames of format version 1; returns the digest.
  sha256_digest add(std::string_view text) { return learn_from_frame(text, true); }
  /// Remembers the schema of T (an older type kept in a namespace, say).
  template <class T>
  sha256_digest add() {
    return add(schema_of<T>().text());
  }

  bool contains(const sha256_digest& digest) const { return schemas_.count(digest) != 0; }
  /// Whether a schema of this 64-bit fingerprint is known to frames of format version 1.
  bool contains(std::uint64_t fingerprint) const { return by_fingerprint_.count(fingerprint) != 0; }
  std::size_t size() const noexcept { return schemas_.size(); }
  /// The bytes held: schema texts and the memory of the plans made from them.
  std::size_t bytes() const noexcept { return bytes_ + plan_bytes_; }
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
  /// The text known by `digest`, or null.
  const std::string* text_of(const sha256_digest& digest) const {
    const auto found = schemas_.find(digest);
    return found == schemas_.end() ? nullptr : &found->second.text;
  }
  /// The digest of the text known by a format 1 fingerprint, or null.
  const sha256_digest* digest_of(std::uint64_t fingerprint) const {
    const auto found = by_fingerprint_.find(fingerprint);
    return found == by_fingerprint_.end() ? nullptr : &found->second;
  }

  /// Remembers a text that arrived in a frame: by its fingerprint too only for a frame of format
  /// version 1, which names it so (add() does both).
  sha256_digest learn_from_frame(std::string_view text, bool by_fingerprint) {
    const std::uint64_t fingerprint = detail::fnv1a64(text);
    if (by_fingerprint) refuse_if_forged(fingerprint);
    const sha256_digest digest = sha256(text);
    if (const auto known = schemas_.find(digest); known != schemas_.end()) {
      known->second.used = ++clock_;
    } else {
      if (text.size() > limits_.max_bytes || limits_.max_schemas == 0)
        throw error(errc::element_limit,
                    detail::error_text({"a schema of ", text.size(), " bytes, over the cache's ",
                                        limits_.max_bytes}));
      (void)parse_schema(text, limits_.schema);
      while (!schemas_.empty() &&
             (schemas_.size() >= limits_.max_schemas || bytes() + text.size() > limits_.max_bytes))
        forget(least_recently_used());
      schemas_.emplace(digest, known_schema{std::string(text), fingerprint, ++clock_});
      bytes_ += text.size();
    }
    if (by_fingerprint) index_by_fingerprint(fingerprint, digest);
    return digest;
  }

  /// The plan for reading data of the schema `writer` as T, made on first use. Throws
  /// errc::wrong_type when the schema is unknown or does not resolve (then and every later time).
  template <class T>
  const detail::resolution& plan_for(const sha256_digest& writer) {
    const auto key = std::pair(writer, schema_of<T>().fingerprint());
    if (const auto found = plans_.find(key); found != plans_.end()) return *found->second;
    if (const auto failed = failures_.find(key); failed != failures_.end())
      throw error(failed->second.code(), failed->second.detail());
    const auto known = schemas_.find(writer);
    if (known == schemas_.end())
      throw error(errc::wrong_type,
                  "the message's schema is not in the cache: add the writer's schema, or send "
                  "one message with it");
    known->second.used = ++clock_;
    ++plans_made_;
    std::unique_ptr<detail::resolution> plan;
    try {
      plan = std::make_unique<detail::resolution>(detail::resolution_for<T>(known->second.text));
    } catch (const error& e) {
      failures_.emplace(key, error(e.code(), e.detail()));
      throw;
    }
    // The plan counts in the bound: older schemas and their plans make room for it, and one
    // that cannot fit beside its own text is refused (and made again on the next message).
    const std::size_t cost = plan->memory_bytes();
    while (bytes() + cost > limits_.max_bytes && schemas_.size() > 1)
      forget(least_recently_used(writer));
    if (bytes() + cost > limits_.max_bytes)
      throw error(errc::element_limit,
                  detail::error_text({"the plan for a schema of ", known->second.text.size(),
                                      " bytes takes ", cost, " bytes, over the cache's ",
                                      limits_.max_bytes}));
    known->second.plan_bytes += cost;
    plan_bytes_ += cost;
    return *plans_.emplace(key, std::move(plan)).first->second;
  }

 private:
  struct known_schema {
    std::string text;
    std::uint64_t fingerprint;
    std::uint64_t used;          // when it last served a message (clock_)
    std::size_t plan_bytes = 0;  // the memory of the plans made from it
  };
  using plan_key = std::pair<sha256_digest, std::uint64_t>;  // writer's digest, reader's type

  // A fingerprint named by two texts is damage or a forgery: forgotten and refused for good.
  void index_by_fingerprint(std::uint64_t fingerprint, const sha256_digest& digest) {
    const auto [at, added] = by_fingerprint_.emplace(fingerprint, digest);
    if (added || at->second == digest) return;
    const sha256_digest first_text = at->second;  // forget() erases `at`
    forget(first_text);
    forget(digest);
    forged_.insert(fingerprint);
    refuse_if_forged(fingerprint);
  }
  // The schema used least recently but `keep` (when it is not the only one).
  sha256_digest least_recently_used(const sha256_digest* keep = nullptr) const {
    auto oldest = schemas_.end();
    for (auto s = schemas_.begin(); s != schemas_.end(); ++s)
      if ((keep == nullptr || s->first != *keep) &&
          (oldest == schemas_.end() || s->second.used < oldest->second.used))
        oldest = s;
    return oldest == schemas_.end() ? schemas_.begin()->first : oldest->first;
  }
  sha256_digest least_recently_used(const sha256_digest& keep) const {
    return least_recently_used(&keep);
  }
  // Forgets a schema with its plans and remembered failures.
  void forget(const sha256_digest& digest) {
    if (const auto s = schemas_.find(digest); s != schemas_.end()) {
      bytes_ -= s->second.text.size();
      plan_bytes_ -= s->second.plan_bytes;
      if (const auto f = by_fingerprint_.find(s->second.fingerprint);
          f != by_fingerprint_.end() && f->second == digest)
        by_fingerprint_.erase(f);
      schemas_.erase(s);
    }
    const auto first = plan_key(digest, std::uint64_t{0});
    const auto last = plan_key(digest, ~std::uint64_t{0});
    plans_.erase(plans_.lower_bound(first), plans_.upper_bound(last));
    failures_.erase(failures_.lower_bound(first), failures_.upper_bound(last));
  }

  schema_cache_limits limits_;
  std::map<sha256_digest, known_schema> schemas_;
  std::map<std::uint64_t, sha256_digest> by_fingerprint_;  // format 1 frames' names
  std::size_t bytes_ = 0;                                  // texts
  std::size_t plan_bytes_ = 0;                             // plans
  std::uint64_t clock_ = 0;
  std::size_t plans_made_ = 0;
  std::set<std::uint64_t> forged_;
  std::map<plan_key, std::unique_ptr<detail::resolution>> plans_;
  std::map<plan_key, error> failures_;
};

}  // namespace bale
