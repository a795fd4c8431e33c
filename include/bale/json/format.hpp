// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::json: the format tag, and to_json / from_json / try_from_json.
//
//   std::string text = bale::to_json(value);                      // {"id":7,"name":"bale"}
//   std::string pretty = bale::to_json(value, {.pretty = true});
//   auto back = bale::from_json<my_type>(text);
//   auto same = bale::deserialize<my_type, bale::json>(text);      // the generic entry points too

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>

#include "bale/core/buffer.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/serialize.hpp"
#include "bale/core/sink.hpp"
#include "bale/json/options.hpp"
#include "bale/json/reader.hpp"
#include "bale/json/writer.hpp"

namespace bale {

namespace detail {

/// A byte buffer for text being written: grows geometrically without zero-filling; its memory is
/// kept for the next use unless it grew past `kept_capacity`.
class scratch_text {
 public:
  using value_type = char;
  static constexpr std::size_t kept_capacity = std::size_t{4} << 20;
  bool in_use = false;
  struct use {
    explicit use(scratch_text& s) noexcept : scratch(s) {
      scratch.in_use = true;
      scratch.size_ = 0;
    }
    ~use() {
      scratch.in_use = false;
      if (scratch.capacity_ > kept_capacity) scratch = scratch_text();
    }
    use(const use&) = delete;
    use& operator=(const use&) = delete;
    scratch_text& scratch;
  };

  char* data() noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }
  void resize(std::size_t n) {
    if (n > capacity_) {
      const std::size_t capacity = n > 2 * capacity_ ? n : 2 * capacity_;
      auto grown = std::unique_ptr<char[]>(new char[capacity]);
      if (size_ != 0) std::memcpy(grown.get(), data_.get(), size_);
      data_ = std::move(grown);
      capacity_ = capacity;
    }
    size_ = n;
  }

 private:
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace detail

struct json {
  static constexpr std::string_view name = "json";
  template <class Sink>
  using writer = detail::json_writer<Sink>;
  using reader = detail::json_reader<>;
  /// Written once into a growing buffer, not sized first.
  static constexpr bool sizes_first = false;
  /// The format's number in file headers.
  static constexpr std::uint8_t id = 3;
};
static_assert(format<json>);  // its writer and reader keep the archive contract

/// Appends the JSON text of value to a byte buffer (std::string, std::vector<char>, ...).
template <byte_buffer Buffer, class T>
void to_json_into(Buffer& buffer, const T& value, const json_options& options = {}) {
  const std::size_t old_size = buffer.size();
  detail::growing_sink sink(buffer);
  detail::write_context context;
  detail::json_writer<detail::growing_sink> ar(sink, context, options);
  try {
    ar(value);
    detail::end_message(ar);
  } catch (...) {
    buffer.resize(old_size);
    throw;
  }
  sink.finish();
}

/// The JSON text of value. Throws bale::error for what JSON cannot hold (a NaN, invalid UTF-8).
template <class T>
std::string to_json(const T& value, const json_options& options = {}) {
  // - A text expected to be large (as large as direct_size, judged by this thread's last text of
  //   this type) is written straight into the string returned, reserved as large as that text
  //   and a sixteenth more: repeated writes of like values allocate once and copy nothing.
  // - Any other is written into this thread's scratch buffer, which grows without zero-filling
  //   and is kept between calls, then copied into a string of the exact size: one allocation,
  //   where writing in place would grow the string more than once for the room the writer asks
  //   ahead of its text. The copy costs little until the text outgrows the caches.
  // A nested call (a serializer calling to_json) writes in place too.
  constexpr std::size_t direct_size = std::size_t{1} << 20;
  thread_local std::size_t expected_size = 0;
  thread_local detail::scratch_text scratch;
  std::string text;
  if (expected_size >= direct_size || scratch.in_use) {
    try {
      text.reserve(expected_size);
    } catch (const std::bad_alloc&) {
      // Only a guess from an earlier text: the string grows as it needs instead.
    }
    to_json_into(text, value, options);
    if (text.size() < text.capacity() / 2) text.shrink_to_fit();  // a stale guess
  } else {
    const detail::scratch_text::use guard(scratch);
    to_json_into(scratch, value, options);
    text.assign(scratch.data(), scratch.size());
  }
  expected_size = text.size() + text.size() / 16;
  return text;
}

/// Reads the whole of `text` into value; throws bale::error on malformed or mismatched input.
template <class T>
void from_json(std::string_view text, T& value, const json_options& options = {},
               const limits& lim = {}) {
  detail::read_context context(lim);
  detail::json_reader<> ar(as_byte_span(text), context, options);
  ar(value);
  detail::require_consumed(ar);
}

template <class T>
T from_json(std::string_view text, const json_options& options = {}, const limits& lim = {}) {
  T value = T();
  from_json(text, value, options, lim);
  return value;
}

/// Like from_json, but the error comes back in the result.
template <class T>
result<T> try_from_json(std::string_view text, const json_options& options = {},
                        const limits& lim = {}) noexcept {
  detail::read_context context(lim);
  detail::json_reader<> ar(as_byte_span(text), context, options);
  T value = T();
  result<void> outcome = detail::capture_errors(ar, [&] {
    ar(value);
    detail::require_consumed(ar);
  });
  if (!outcome) return outcome.error();
  return result<T>(std::move(value));
}

}  // namespace bale
