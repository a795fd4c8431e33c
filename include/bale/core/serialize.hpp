// SPDX-License-Identifier: BSL-1.0
#pragma once
// Writing: serialize, serialize_into, serialize_assign, serialize_to, serialized_size, and
// bale::writer (detail::write_counted for a caller that counted the size already). The binary
// formats count the size first, then allocate (or grow) once and write; into a buffer that can
// grow, a large node container is counted by its first elements only, and a buffer that already
// has room (a kept one) is written into straight away.

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "bale/core/archive_base.hpp"
#include "bale/core/buffer.hpp"
#include "bale/core/element_loops.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/sink.hpp"
#include "bale/core/write_context.hpp"
#include "bale/fwd.hpp"

namespace bale {

namespace detail {
/// One pass of an archive over the values: makes the sink (make_sink()) and the archive and
/// returns finish(archive, sink).
template <class Archive, class MakeSink, class Finish, class... Ts>
[[gnu::always_inline]] inline auto run_pass(write_context& context, MakeSink& make_sink,
                                            Finish& finish, const Ts&... values) {
  auto sink = make_sink();
  Archive ar(sink, context);
  ar(values...);
  return finish(ar, sink);
}
/// The pass as a function of its own with every call inlined: here a loop over elements keeps
/// the sink's cursor in registers. A sink reached through a reference would be loaded and stored
/// around every field, as a store through the output pointer may alias it. (Calls that must stay
/// calls are marked noinline: errors, and a pointer graph's objects.) In a large unit GCC's
/// flatten can still leave calls it met before their bodies were ready, so what runs once per
/// field (the codecs' write verbs, the save of scalars, strings and reflected types) is also
/// always_inline.
template <class Archive, class MakeSink, class Finish, class... Ts>
[[gnu::flatten, gnu::noinline]] auto run_pass_apart(write_context& context, MakeSink make_sink,
                                                    Finish finish, const Ts&... values) {
  return run_pass<Archive>(context, make_sink, finish, values...);
}
/// A message with a loop over elements is written by a pass apart; any other inline, where the
/// call would cost more than it saves.
template <class Archive, class MakeSink, class Finish, class... Ts>
[[gnu::always_inline]] inline auto write_pass(write_context& context, MakeSink make_sink,
                                              Finish finish, const Ts&... values) {
  if constexpr (loops_over_elements<Ts...>)
    return run_pass_apart<Archive>(context, make_sink, finish, values...);
  else
    return run_pass<Archive>(context, make_sink, finish, values...);
}

/// What a sizing pass learned.
struct counted_size {
  std::size_t size;
  std::size_t large_block_bytes;
  bool exact;
};

// The sizing pass: one instantiation for serialized_size and every write into a growable buffer.
struct make_size_counter {
  bool may_estimate;
  size_counter operator()() const noexcept { return size_counter(may_estimate); }
};
struct finish_sizing {
  template <class Archive>
  counted_size operator()(const Archive& ar, const size_counter& counter) const {
    // A pass that skipped elements may have missed an object's owner: the writing pass checks.
    if (counter.exact()) end_message(ar);
    return {counter.size(), counter.large_block_bytes(), counter.exact()};
  }
};
template <class Format, class... Ts>
[[gnu::always_inline]] inline counted_size count_size(write_context& context, bool may_estimate,
                                                      const Ts&... values) {
  using sizing_archive = typename Format::template writer<size_counter>;
  return write_pass<sizing_archive>(context, make_size_counter{may_estimate}, finish_sizing{},
                                    values...);
}

/// serialized_size, within a write that shares `context` with its writing pass.
template <class Format, class... Ts>
std::size_t serialized_size_in(write_context& context, const Ts&... values) {
  const std::size_t size = count_size<Format>(context, false, values...).size;
  context.restart_message();
  return size;
}
/// A save() that wrote other than the counted bytes the second time: an error.
[[noreturn, gnu::cold, gnu::noinline]] inline void fail_unfilled(std::size_t written,
                                                                 std::size_t size) {
  throw error(errc::invalid_value,
              error_text({"a save() wrote ", written, " bytes where the size counted ", size,
                          ": it must write the same bytes every time"}),
              written);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void fail_too_small(std::size_t size,
                                                                  std::size_t holds) {
  throw error(errc::buffer_too_small,
              error_text({"the encoding needs ", size, " bytes, the buffer holds ", holds}));
}

/// Whether a write into `buffer` from byte `start` on goes straight in, without a sizing pass:
/// the buffer has room past `start` (a kept buffer, reused for messages of like size), and the
/// format needs nothing from a sizing pass (MessagePack learns the counts of a pointer graph's
/// bodies there). The buffer still grows if the message is larger.
template <class Archive, class Buffer>
bool writes_without_sizing(const Buffer& buffer, std::size_t start) {
  if constexpr (Archive::self_describing || !requires { buffer.capacity(); })
    return false;
  else
    return buffer.capacity() > start;
}

/// Writes values into a growable buffer from byte `start` on (what was past it is replaced) and
/// returns the new size. A buffer without room is sized for first. That sizing pass is exact
/// unless it met a large node container (a list, a set, a map): those it measures by their first
/// elements, as walking every node twice costs more than growing the buffer. An exact size is
/// made room for once; an estimate is reserved, and the writing pass grows the buffer past it if
/// it must.
template <class Format, class Buffer, class... Ts>
std::size_t write_growable(Buffer& buffer, std::size_t start, write_context& context,
                           const Ts&... values) {
  using writing_archive = typename Format::template writer<growing_sink>;
  counted_size count{0, 0, false};  // no sizing pass: the writing pass is the message's only one
  if (!writes_without_sizing<writing_archive>(buffer, start)) {
    count = count_size<Format>(context, !writing_archive::self_describing, values...);
    if (count.exact)
      context.restart_message();
    else
      context.forget_message();
    // Resizing zero-fills what the writing pass then overwrites. That pass over memory is cheaper
    // done at once than a step at a time between small writes, but not worth making for bytes
    // that come in large blocks: when those are most of the message, the buffer is only
    // reserved, and the sink copies the blocks into its capacity (zero-filling only around them).
    const bool mostly_blocks = count.large_block_bytes > count.size / 2;
    if (count.exact && !(mostly_blocks && growing_sink::appends_to<Buffer>)) {
      buffer.resize(start + count.size);
    } else if constexpr (requires { buffer.reserve(start + count.size); }) {
      if (buffer.capacity() < start + count.size) buffer.reserve(start + count.size);
    }
  }
  return write_pass<writing_archive>(
      context, [&] { return growing_sink(buffer, start); },
      [&](const writing_archive& ar, growing_sink& sink) {
        if (!count.exact)
          end_message(ar);
        else if (sink.size() != start + count.size)
          fail_unfilled(sink.size() - start, count.size);
        sink.finish();
        return sink.size();
      },
      values...);
}
}  // namespace detail

/// The exact number of bytes serialize<Format>(values...) produces.
template <format Format = binary, class... Ts>
std::size_t serialized_size(const Ts&... values) {
  detail::write_context context;
  return detail::serialized_size_in<Format>(context, values...);
}

/// Appends the encoding of values to a byte buffer; returns the bytes appended.
template <format Format = binary, byte_buffer Buffer, class... Ts>
std::size_t serialize_into(Buffer& buffer, const Ts&... values) {
  detail::write_context context;
  if constexpr (!detail::sizes_first<Format>) {
    // Text: written once into the growing buffer; counting first would format every number twice.
    const std::size_t old_size = buffer.size();
    detail::growing_sink sink(buffer);
    typename Format::template writer<detail::growing_sink> ar(sink, context);
    try {
      ar(values...);
      detail::end_message(ar);
    } catch (...) {
      buffer.resize(old_size);
      throw;
    }
    sink.finish();
    return buffer.size() - old_size;
  }
  const std::size_t old_size = buffer.size();
  try {
    return detail::write_growable<Format>(buffer, old_size, context, values...) - old_size;
  } catch (...) {
    buffer.resize(old_size);
    throw;
  }
}

/// Writes values into `out` (any contiguous range of bytes: a span, an array, a C array, a
/// vector), which must hold serialized_size(values...) bytes; returns that size.
/// Throws bale::error (errc::buffer_too_small) if it does not; what it wrote into `out` before
/// finding that out is then unspecified.
template <format Format = binary, class Out, class... Ts>
requires byte_output<std::remove_reference_t<Out>> std::size_t serialize_to(Out&& output,
                                                                            const Ts&... values) {
  const std::span<std::byte> out = as_writable_byte_span(output);
  const auto too_small = [&](std::size_t size) { detail::fail_too_small(size, out.size()); };
  using archive = typename Format::template writer<detail::span_sink>;
  if constexpr (!detail::sizes_first<Format>) {
    // A format that writes into a growing buffer may store ahead of its text (JSON's writer
    // does): it writes into one of its own, then the bytes are copied.
    std::vector<std::byte> text;
    serialize_into<Format>(text, values...);
    if (text.size() > out.size()) too_small(text.size());
    if (!text.empty()) std::memcpy(out.data(), text.data(), text.size());
    return text.size();
  } else if constexpr (archive::self_describing) {
    // MessagePack learns the counts of a pointer graph's bodies in a sizing pass.
    detail::write_context context;
    const std::size_t size = detail::serialized_size_in<Format>(context, values...);
    if (size > out.size()) too_small(size);
    const std::size_t written = detail::write_pass<archive>(
        context, [&] { return detail::span_sink(out.data(), size); },
        [](const archive&, const detail::span_sink& sink) { return sink.size(); }, values...);
    if (written != size) detail::fail_unfilled(written, size);
    return size;
  } else {
    // Written in one pass, every put checked against the end of `out`. Only a buffer that turns
    // out too small costs a sizing pass, for the size the error names.
    detail::write_context context;
    try {
      return detail::write_pass<archive>(
          context,
          [&] {
            return detail::span_sink(out.data(), out.size(),
                                     detail::span_sink::overflow::buffer_too_small);
          },
          [](const archive& ar, const detail::span_sink& sink) {
            detail::end_message(ar);
            return sink.size();
          },
          values...);
    } catch (const error& e) {
      if (e.code() != errc::buffer_too_small) throw;
    }
    detail::fail_too_small(serialized_size<Format>(values...), out.size());
  }
}

namespace detail {
/// Writes values whose size the caller counted (serialized_size) into exactly `out`, with no
/// second sizing pass where the format's writing pass needs none (binary, compact).
template <format Format, class... Ts>
void write_counted(std::span<std::byte> out, const Ts&... values) {
  using archive = typename Format::template writer<span_sink>;
  if constexpr (!sizes_first<Format> || archive::self_describing) {
    (void)serialize_to<Format>(out, values...);
  } else {
    write_context context;
    const std::size_t written = write_pass<archive>(
        context, [&] { return span_sink(out.data(), out.size()); },
        [](const archive& ar, const span_sink& sink) {
          end_message(ar);
          return sink.size();
        },
        values...);
    if (written != out.size()) fail_unfilled(written, out.size());
  }
}
}  // namespace detail

/// Replaces a kept buffer's contents with the encoding of values, writing over its bytes in
/// place: only bytes past its present size are added (and zero-filled by the container), so a
/// buffer reused for messages of similar size costs no fill at all. Returns the new size. On an
/// exception the buffer is left empty.
///   std::vector<std::byte> buffer;  for (...) { bale::serialize_assign(buffer, message);
///   send(buffer); }
template <format Format = binary, byte_buffer Buffer, class... Ts>
std::size_t serialize_assign(Buffer& buffer, const Ts&... values) {
  detail::write_context context;
  try {
    if constexpr (!detail::sizes_first<Format>) {
      detail::growing_sink sink(buffer, std::size_t{0});
      typename Format::template writer<detail::growing_sink> ar(sink, context);
      ar(values...);
      detail::end_message(ar);
      sink.finish();
    } else {
      detail::write_growable<Format>(buffer, 0, context, values...);
    }
  } catch (...) {
    buffer.resize(0);
    throw;
  }
  return buffer.size();
}

/// The encoding of value as a new byte vector.
///   std::vector<std::byte> bytes = bale::serialize(value);
template <format Format = binary, class T>
std::vector<std::byte> serialize(const T& value) {
  std::vector<std::byte> bytes;
  serialize_into<Format>(bytes, value);
  return bytes;
}

/// serialize with limits other than the defaults: writing fails with errc::depth_exceeded where
/// a value nests deeper than lim.max_depth, as reading it would.
template <format Format = binary, class T>
std::vector<std::byte> serialize(const T& value, const limits& lim) {
  detail::write_context context(lim);
  std::vector<std::byte> bytes;
  if constexpr (!detail::sizes_first<Format>) {
    detail::growing_sink sink(bytes);
    typename Format::template writer<detail::growing_sink> ar(sink, context);
    ar(value);
    detail::end_message(ar);
    sink.finish();
  } else {
    detail::write_growable<Format>(bytes, 0, context, value);
  }
  return bytes;
}

/// Writes several values in a row to one buffer:
///   bale::writer w(buffer); w(a, b); w(c);
template <format Format = binary, byte_buffer Buffer = std::vector<std::byte>>
class writer {
 public:
  explicit writer(Buffer& buffer) noexcept : buffer_(buffer) {}

  /// Each value is a message of its own: pointers share objects within a value, not across.
  template <class... Ts>
  writer& operator()(const Ts&... values) {
    (serialize_into<Format>(buffer_, values), ...);
    return *this;
  }
  std::size_t size() const noexcept { return buffer_.size(); }
  Buffer& buffer() noexcept { return buffer_; }

 private:
  Buffer& buffer_;
};

template <byte_buffer Buffer>
writer(Buffer&) -> writer<binary, Buffer>;

}  // namespace bale
