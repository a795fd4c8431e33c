// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading: deserialize (throws bale::error), try_deserialize (returns bale::result), bale::reader.

#include <cstddef>
#include <exception>
#include <new>
#include <span>
#include <string>

#include "bale/core/archive_base.hpp"
#include "bale/core/buffer.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/read_context.hpp"
#include "bale/fwd.hpp"

namespace bale {

namespace detail {

/// Bytes left after the value: an error, with what the message's parts know that may explain it.
template <class Reader>
[[noreturn, gnu::cold, gnu::noinline]] void fail_trailing_bytes(const Reader& ar) {
  ar.fail_at(
      errc::trailing_bytes,
      error_text({ar.remaining(), " bytes left after the value"}) + ar.context().error_hint(),
      ar.offset());
}

/// Ends a read: the message's observers point at objects it owns, and no byte is left.
template <class Reader>
void require_consumed(const Reader& ar) {
  end_message(ar);
  if (ar.remaining() != 0) fail_trailing_bytes(ar);
}

// Runs a read; turns every exception into a bale::error (user exceptions become invalid_value,
// keeping their message).
template <class Reader, class F>
result<void> capture_errors(Reader& ar, F&& read) noexcept {
  try {
    read();
    return {};
  } catch (const error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return error(errc::allocation_limit, "out of memory", ar.offset());
  } catch (const std::exception& e) {
    return error(errc::invalid_value, e.what(), ar.offset());
  } catch (...) {
    return error(errc::invalid_value, "unknown exception", ar.offset());
  }
}

/// deserialize with a context the caller set up (files forbid views into their buffers).
template <class Format, class T>
void deserialize_in(read_context& context, std::span<const std::byte> bytes, T& value) {
  typename Format::reader ar(bytes, context);
  ar(value);
  require_consumed(ar);
}

}  // namespace detail

/// Reads the whole of `bytes` into an existing object. Throws bale::error on bad input; an
/// exception thrown by a type's own load() passes through unchanged.
template <format Format = binary, byte_input Bytes, class T>
void deserialize(const Bytes& bytes, T& value, const limits& lim = {}) {
  detail::read_context context(lim);
  detail::deserialize_in<Format>(context, as_byte_span(bytes), value);
}

/// Reads a T from the whole of `bytes`:  auto v = bale::deserialize<std::vector<int>>(bytes);
template <class T, format Format = binary, byte_input Bytes>
T deserialize(const Bytes& bytes, const limits& lim = {}) {
  T value = T();
  deserialize<Format>(bytes, value, lim);
  return value;
}

/// Like deserialize, but never throws on bad input: the error comes back in the result.
template <class T, format Format = binary, byte_input Bytes>
result<T> try_deserialize(const Bytes& bytes, const limits& lim = {}) noexcept {
  detail::read_context context(lim);
  typename Format::reader ar(as_byte_span(bytes), context);
  T value = T();
  result<void> outcome = detail::capture_errors(ar, [&] {
    ar(value);
    detail::require_consumed(ar);
  });
  if (!outcome) return outcome.error();
  return result<T>(std::move(value));
}

/// try_deserialize into an existing object.
template <format Format = binary, byte_input Bytes, class T>
result<void> try_deserialize(const Bytes& bytes, T& value, const limits& lim = {}) noexcept {
  detail::read_context context(lim);
  typename Format::reader ar(as_byte_span(bytes), context);
  return detail::capture_errors(ar, [&] {
    ar(value);
    detail::require_consumed(ar);
  });
}

/// deserialize into a temporary wrapper that refers to the value:
///   bale::deserialize(bytes, bale::with(scene, shapes));
template <format Format = binary, byte_input Bytes, class Wrapper>
requires(detail::refers_to_value<Wrapper>) void deserialize(const Bytes& bytes, Wrapper&& wrapper,
                                                            const limits& lim = {}) {
  deserialize<Format>(bytes, wrapper, lim);
}
template <format Format = binary, byte_input Bytes, class Wrapper>
requires(detail::refers_to_value<Wrapper>) result<void> try_deserialize(const Bytes& bytes,
                                                                        Wrapper&& wrapper,
                                                                        const limits& lim = {})
noexcept {
  return try_deserialize<Format>(bytes, wrapper, lim);
}

namespace detail {
template <class>
inline constexpr bool type_goes_first = false;
}

// deserialize<bale::compact, T>(bytes) and try_deserialize<bale::compact, T>(bytes) name the format
// first: these catch it with one message that says the order, where the compiler would list why
// each real overload does not apply. They return what the right order returns, so that the
// caller's use of the value adds no second error.
template <format Format, class T, class... Arguments>
requires(!format<T>) T deserialize(const Arguments&...) {
  static_assert(detail::type_goes_first<T>,
                "bale::deserialize<T, Format>(bytes): the type first, then the format");
  throw;
}
template <format Format, class T, class... Arguments>
requires(!format<T>) result<T> try_deserialize(const Arguments&...) {
  static_assert(detail::type_goes_first<T>,
                "bale::try_deserialize<T, Format>(bytes): the type first, then the format");
  throw;
}

/// Reads several values in a row from one buffer:
///   bale::reader r(bytes); r(a, b); if (r.remaining() == 0) ...
template <format Format = binary>
class reader {
 public:
  template <byte_input Bytes>
  explicit reader(const Bytes& bytes, const limits& lim = {})
      : context_(lim), archive_(as_byte_span(bytes), context_) {}
  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;

  /// Each value is a message of its own, as bale::writer writes it: pointers share objects
  /// within a value, not across values.
  template <class... Ts>
  reader& operator()(Ts&... values) {
    ((context_.restart_message(), archive_(values), detail::end_message(archive_)), ...);
    return *this;
  }
  std::size_t remaining() const noexcept { return archive_.remaining(); }
  std::size_t offset() const noexcept { return archive_.offset(); }

 private:
  detail::read_context context_;
  typename Format::reader archive_;
};

}  // namespace bale
