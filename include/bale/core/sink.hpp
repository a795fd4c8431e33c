// SPDX-License-Identifier: BSL-1.0
#pragma once
// Where an output archive puts bytes: put(data, n) copies, put_block(data, n) copies a run that
// may be large (an array's payload), reserve(n) (n <= 16) returns room that the caller fills in
// place (for small encodings such as varints), and ensure(n) returns room for up to n bytes of
// which the caller then keeps advance(k) (for runs whose size varies), or null where the sink
// cannot lend that much at once. The same archive code runs twice over a value: once with a
// size_counter to learn its size, then with a span_sink over memory of exactly that size or a
// growing_sink over a buffer made (or reserved) that large, so the writing pass never
// reallocates; both check their bounds, as a type's save() may write differently the second
// time. (Into a buffer that can grow, the size of a large node container is estimated: the
// growing_sink grows past a short estimate.) A buffer that has room already (a kept one, the
// caller's fixed one) is written in one pass, every put checked against its end.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "bale/core/error.hpp"

namespace bale::detail {

/// A put_block() at least this large is copied into a growing buffer's capacity directly rather
/// than over bytes the buffer zero-filled first.
inline constexpr std::size_t large_block = 16384;

/// Copies a run whose length is known only at run time. Short runs (names, small arrays) are
/// copied here with overlapping word moves: a call to memcpy costs more than the copy.
[[gnu::always_inline]] inline void copy_run(std::byte* to, const void* from,
                                            std::size_t n) noexcept {
  const auto* source = static_cast<const std::byte*>(from);
  if (n > 16) {
    std::memcpy(to, source, n);
  } else if (n >= 8) {
    std::uint64_t head, tail;
    std::memcpy(&head, source, 8);
    std::memcpy(&tail, source + n - 8, 8);
    std::memcpy(to, &head, 8);
    std::memcpy(to + n - 8, &tail, 8);
  } else if (n >= 4) {
    std::uint32_t head, tail;
    std::memcpy(&head, source, 4);
    std::memcpy(&tail, source + n - 4, 4);
    std::memcpy(to, &head, 4);
    std::memcpy(to + n - 4, &tail, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) to[i] = source[i];
  }
}

class size_counter {
 public:
  static constexpr bool counts_only = true;
  size_counter() noexcept = default;
  /// A counter that may estimate (may_estimate()): for a write into a buffer that can grow.
  explicit size_counter(bool may_estimate) noexcept : may_estimate_(may_estimate) {}

  void put(const void*, std::size_t n) noexcept { size_ += n; }
  void put_block(const void*, std::size_t n) noexcept {
    size_ += n;
    if (n >= large_block) large_blocks_ += n;
  }
  void skip(std::size_t n) noexcept { size_ += n; }
  std::byte* reserve(std::size_t n) noexcept {
    size_ += n;
    return scratch_;
  }
  std::size_t size() const noexcept { return size_; }
  /// The bytes counted in put_block()s of at least large_block bytes.
  std::size_t large_block_bytes() const noexcept { return large_blocks_; }

  /// Whether a run of elements that costs a walk over scattered nodes may be measured by its
  /// first elements (estimate_rest) rather than walked: sizing is then a hint for a buffer that
  /// grows, not the exact size.
  bool may_estimate() const noexcept { return may_estimate_; }
  /// `sampled` elements of `count` took `bytes`: the others are counted as their average.
  void estimate_rest(std::size_t bytes, std::size_t sampled, std::size_t count) noexcept {
    exact_ = false;
    if (sampled == 0 || sampled >= count) return;
    const std::size_t each = bytes / sampled + 1;
    const std::size_t rest = count - sampled;
    size_ += rest < estimate_cap / each ? rest * each : estimate_cap;
  }
  /// False once estimate_rest was called.
  bool exact() const noexcept { return exact_; }
  /// The most one estimate adds: a hint for a reservation, which past this grows by doubling.
  static constexpr std::size_t estimate_cap = std::size_t{1} << 28;

 private:
  std::size_t size_ = 0;
  std::size_t large_blocks_ = 0;
  bool may_estimate_ = false;
  bool exact_ = true;
  std::byte scratch_[16]{};  // reserve() hands this out: what is written there is not kept
};

class span_sink {
 public:
  static constexpr bool counts_only = false;
  /// What running out of room means: a save() that wrote more than the sizing pass counted, or
  /// a caller's buffer too small for a message written without a sizing pass.
  enum class overflow : bool { miscounted, buffer_too_small };
  span_sink(std::byte* out, std::size_t size, overflow meaning = overflow::miscounted) noexcept
      : out_(out), start_(out), end_(out + size), overflow_(meaning) {}
  void put(const void* data, std::size_t n) {
    check_room(n);
    // n may be 0 with data == nullptr (an empty vector); memcpy must not see that.
    if (n != 0) std::memcpy(out_, data, n);
    out_ += n;
  }
  [[gnu::always_inline]] void put_block(const void* data, std::size_t n) {
    check_room(n);
    copy_run(out_, data, n);
    out_ += n;
  }
  /// Room for n bytes (n <= 16) that the caller writes in place.
  std::byte* reserve(std::size_t n) {
    check_room(n);
    std::byte* at = out_;
    out_ += n;
    return at;
  }
  /// Room for up to n bytes, of which the caller keeps advance(k); null when fewer are left (the
  /// caller then writes piece by piece, each checked).
  std::byte* ensure(std::size_t n) noexcept {
    return n <= static_cast<std::size_t>(end_ - out_) ? out_ : nullptr;
  }
  void advance(std::size_t n) noexcept { out_ += n; }
  std::size_t size() const noexcept { return static_cast<std::size_t>(out_ - start_); }
  /// The most one ensure() lends: the bytes left.
  std::size_t room() const noexcept { return static_cast<std::size_t>(end_ - out_); }

 private:
  // The sizing pass made room for exactly what it counted. A type whose save() writes more the
  // second time would write past it: that is an error, never a write out of bounds.
  void check_room(std::size_t n) const {
    if (n > static_cast<std::size_t>(end_ - out_)) [[unlikely]]
      fail_overflow(n);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_overflow(std::size_t n) const {
    if (overflow_ == overflow::buffer_too_small)
      throw error(errc::buffer_too_small,
                  error_text({"the buffer holds ", end_ - start_, " bytes"}), size());
    throw error(
        errc::invalid_value,
        error_text({"a save() wrote more bytes than when the size was counted (", size() + n, " > ",
                    end_ - start_, "): it must write the same bytes every time"}),
        size());
  }

  std::byte* out_;
  std::byte* start_;
  std::byte* end_;
  overflow overflow_;
};

/// Appends to a growable byte container: for formats whose size is not worth computing first
/// (text), and for the writing pass of the others into a buffer that can grow. finish() trims the
/// container to what was written. One class for every container: what depends on the container
/// (growing it, trimming it) goes through functions chosen when the sink is made, so a writer is
/// compiled once however many kinds of buffer a program writes into.
class growing_sink {
 public:
  static constexpr bool counts_only = false;
  template <class Buffer>
  explicit growing_sink(Buffer& buffer) : growing_sink(buffer, buffer.size()) {}
  /// Writes over the buffer's bytes from byte `start` on, growing it only past its present size.
  template <class Buffer>
  growing_sink(Buffer& buffer, std::size_t start)
      : buffer_(&buffer),
        grow_(&grow_buffer<Buffer>),
        resize_(&resize_buffer<Buffer>),
        append_(appender<Buffer>()),
        data_(reinterpret_cast<std::byte*>(buffer.data())),
        size_(start),
        capacity_(buffer.size()),
        reserved_(capacity_of(buffer)) {}

  void put(const void* data, std::size_t n) {
    if (n > capacity_ - size_) [[unlikely]]
      grow(n);
    if (n != 0) std::memcpy(data_ + size_, data, n);
    size_ += n;
  }
  /// A run of bytes that may be large (an array's payload): past the room the buffer has, a
  /// large one is copied into its capacity directly, not over bytes zero-filled first.
  [[gnu::always_inline]] void put_block(const void* data, std::size_t n) {
    if (n > capacity_ - size_) [[unlikely]] {
      if (n >= large_block && append_) return append(data, n);
      grow(n);
    }
    copy_run(data_ + size_, data, n);
    size_ += n;
  }
  void put(char c) {
    if (capacity_ == size_) [[unlikely]]
      grow(1);
    data_[size_++] = static_cast<std::byte>(c);
  }
  std::byte* reserve(std::size_t n) {
    std::byte* where = ensure(n);
    size_ += n;
    return where;
  }
  std::byte* ensure(std::size_t n) {
    if (n > capacity_ - size_) [[unlikely]]
      grow(n);
    return data_ + size_;
  }
  void advance(std::size_t n) noexcept { size_ += n; }
  std::size_t size() const noexcept { return size_; }
  /// The most one ensure() lends without moving the buffer: its capacity left (none when it is
  /// full; ensure() then grows it). A codec writing a run of unknown length asks no more.
  std::size_t room() const noexcept { return reserved_ - size_; }
  void finish() { resize_(buffer_, size_); }

  /// Whether a large block goes into the buffer's capacity without a zero-fill first (the buffer
  /// can insert a range, as the standard containers can).
  template <class Buffer>
  static constexpr bool appends_to = requires(Buffer& b, const typename Buffer::value_type* p) {
    b.insert(b.end(), p, p);
    b.capacity();
  };

 private:
  /// How far a buffer with spare capacity is resized at a time.
  static constexpr std::size_t step = 16384;

  [[gnu::noinline]] void grow(std::size_t n) {
    data_ = grow_(buffer_, size_, n, capacity_, reserved_);
  }
  [[gnu::noinline]] void append(const void* data, std::size_t n) {
    data_ = append_(buffer_, size_, data, n, reserved_);
    size_ += n;
    capacity_ = size_;
  }
  template <class Buffer>
  static std::size_t capacity_of(const Buffer& buffer) {
    if constexpr (requires { buffer.capacity(); })
      return buffer.capacity();
    else
      return buffer.size();
  }

  // Resizing a standard container zero-fills what it adds. Room is therefore made a step at a
  // time within the buffer's capacity: the zero-fill brings those lines into the cache just
  // before the writes that overwrite them, where filling all of a large capacity at once costs
  // a pass over cold memory. Out of capacity, the buffer is reserved at least twice as large.
  // The buffer's data and size are kept here, not asked of the buffer on every put.
  template <class Buffer>
  static std::byte* grow_buffer(void* to, std::size_t size, std::size_t n, std::size_t& room,
                                std::size_t& reserved) {
    Buffer& buffer = *static_cast<Buffer*>(to);
    if constexpr (requires {
                    buffer.capacity();
                    buffer.reserve(n);
                  }) {
      const std::size_t needed = size + n;
      if (needed > buffer.capacity())
        buffer.reserve(needed > 2 * buffer.capacity() ? needed : 2 * buffer.capacity());
      const std::size_t capacity = buffer.capacity();
      std::size_t target = needed > size + step ? needed : size + step;
      if (target > capacity || capacity - target < step) target = capacity;  // no last sliver
      buffer.resize(target);
    } else {
      std::size_t capacity = room * 2;
      if (capacity < size + n) capacity = size + n;
      if (capacity < 256) capacity = 256;
      buffer.resize(capacity);
    }
    room = buffer.size();
    reserved = capacity_of(buffer);
    return reinterpret_cast<std::byte*>(buffer.data());
  }
  template <class Buffer>
  static void resize_buffer(void* buffer, std::size_t size) {
    static_cast<Buffer*>(buffer)->resize(size);
  }
  // A large block is not zero-filled first: the container copies it into its capacity itself,
  // one pass over the memory instead of two.
  using append_function = std::byte* (*)(void* buffer, std::size_t size, const void* data,
                                         std::size_t n, std::size_t& reserved);
  template <class Buffer>
  static std::byte* append_buffer(void* to, std::size_t size, const void* data, std::size_t n,
                                  std::size_t& reserved) {
    Buffer& buffer = *static_cast<Buffer*>(to);
    using byte = typename Buffer::value_type;
    const auto* first = static_cast<const byte*>(data);
    buffer.resize(size);  // only drops zero-filled room not written, never reallocates
    buffer.insert(buffer.end(), first, first + n);
    reserved = buffer.capacity();
    return reinterpret_cast<std::byte*>(buffer.data());
  }
  template <class Buffer>
  static constexpr append_function appender() {
    if constexpr (appends_to<Buffer>)
      return &append_buffer<Buffer>;
    else
      return nullptr;
  }

  void* buffer_;
  std::byte* (*grow_)(void* buffer, std::size_t size, std::size_t n, std::size_t& room,
                      std::size_t& reserved);
  void (*resize_)(void* buffer, std::size_t size);
  append_function append_;
  std::byte* data_;
  std::size_t size_;
  std::size_t capacity_;
  std::size_t reserved_;  // the buffer's capacity: room it can be resized into without moving
};

}  // namespace bale::detail
