// SPDX-License-Identifier: BSL-1.0
#pragma once
// The input archive of the byte formats (binary, compact). Every read is bounds-checked; a length
// is checked against the bytes left before anything is allocated and charged to the message's
// allocation budget; nesting is limited. A value of fixed encoded size is bounds-checked once, then
// read by an unchecked reader (Checked = false) over exactly its bytes.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "bale/core/archive_base.hpp"
#include "bale/core/enum_values.hpp"
#include "bale/core/error.hpp"
#include "bale/core/pointers.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/fwd.hpp"

namespace bale::detail {

template <class Codec, bool Checked = true, class Anchor = bale_global_namespace>
class packed_reader : public archive_base<packed_reader<Codec, Checked, Anchor>> {
 public:
  static constexpr bool is_loading = true;
  static constexpr bool is_saving = false;
  /// Names and structure are on the wire (true for text formats such as JSON).
  static constexpr bool self_describing = false;
  using codec = Codec;
  /// Whether a contiguous run of T moves as one memcpy in this format.
  template <class T>
  static constexpr bool bulk = Codec::template bulk<T>;

  packed_reader(std::span<const std::byte> input, read_context& context) noexcept
      : begin_(input.data()),
        pos_(input.data()),
        end_(input.data() + input.size()),
        context_(context) {}
  packed_reader(const std::byte* begin, const std::byte* pos, const std::byte* end,
                read_context& context) noexcept
      : begin_(begin), pos_(pos), end_(end), context_(context) {}

  template <class T>
  void process(T& value) {
    static_assert(!std::is_const_v<T>, "bale: cannot read into a const object");
    require_serializable<T>();
    constexpr wire_size size = wire_size_of<Codec, T>;
    if constexpr (Checked && size.fixed && size.min > 0 && composite_wire_shape<T> &&
                  !Codec::template bulk<T>) {
      // One bounds check for the whole value, then unchecked reads of its fields.
      const std::byte* start = take(size.min);
      packed_reader<Codec, false, Anchor> fixed(begin_, start, start + size.min, context_);
      serializer<T>::load(fixed, value);
    } else if constexpr (Codec::template bulk<T>) {
      std::memcpy(static_cast<void*>(&value), take(sizeof(T)), sizeof(T));
    } else {
      serializer<T>::load(*this, value);
    }
  }

  std::size_t offset() const noexcept { return static_cast<std::size_t>(pos_ - begin_); }
  std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - pos_); }
  read_context& context() const noexcept { return context_; }
  const std::byte* position() const noexcept { return pos_; }

  /// Consumes n bytes and returns where they start.
  const std::byte* take(std::size_t n) {
    if constexpr (Checked) {
      if (n > remaining()) [[unlikely]]
        fail_short(n);
    }
    const std::byte* start = pos_;
    pos_ += n;
    return start;
  }

  // Out of line and cold: the message is built only on failure, and the hot readers stay small
  // enough to inline.
  [[noreturn, gnu::cold, gnu::noinline]] void fail_short(std::size_t n) const {
    fail(errc::end_of_input, error_text({"need ", n, " bytes, ", remaining(), " left"}));
  }
  [[noreturn]] void fail(errc code, std::string detail) const {
    fail_at(code, std::move(detail), offset());
  }
  [[noreturn]] void fail_at(errc code, std::string detail, std::size_t at) const {
    throw error(code, std::move(detail), at);
  }

  // ---- the vocabulary the adapters in bale/types speak ----

  template <class T>
  void read_scalar(T& value) {
    Codec::read_scalar(*this, value);
  }
  template <class E>
  void read_enum(E& value) {
    std::underlying_type_t<E> raw;
    Codec::read_scalar(*this, raw);
    value = detail::enum_from_underlying<E>(*this, raw);
  }
  void read_none() noexcept {}

  /// Reads a length, then calls on_count(n) once and on_element(ar) n times.
  template <class Element, class OnCount, class OnElement>
  void read_sequence(OnCount&& on_count, OnElement&& on_element) {
    const nesting guard(*this);
    const std::size_t count = read_count<Element>(true);
    // Elements that may take no bytes: only as many as bytes are left are paid for.
    on_count(wire_size_of<Codec, Element>.min > 0 ? count : std::min(count, remaining()));
    read_elements<Element>(count, on_element);
  }
  /// Maps are sequences of entries; Entry is std::pair<Key, Value>.
  template <class Entry, class OnCount, class OnEntry>
  void read_map(OnCount&& on_count, OnEntry&& on_entry) {
    read_sequence<Entry>(on_count, on_entry);
  }
  template <class K, class V>
  void read_map_entry(K& key, V& value) {
    process(key);
    process(value);
  }
  /// A dynamic sequence of T that the caller stores contiguously: on_bytes(src, n) copies n
  /// elements from the wire. Only for codecs whose wire layout of T is its memory layout.
  template <class T, class OnBytes>
  void read_contiguous_sequence(OnBytes&& on_bytes) {
    static_assert(Codec::template bulk<T>);
    const std::size_t count = read_count<T>(true);
    on_bytes(take(count * sizeof(T)), count);
  }
  // Tuples and reflected objects are no level of their own: their nesting is fixed by their
  // types, and any recursion passes through a counted verb (a container, an optional, a variant,
  // a hand-described type), so the stack stays bounded by max_depth.
  template <class F>
  void read_tuple(std::size_t, F&& read_elements) {
    read_elements();
  }
  template <class Names, class... Members>
  void read_object(Members&... members) {
    std::size_t index = 0;
    within_member<Names>(index, [&] { ((process(members), ++index), ...); });
  }
  template <class T>
  void read_field(std::string_view name, T& value) {
    within_field(name, [&] { process(value); });
  }
  std::uint32_t read_version() {
    std::uint32_t v = 0;
    process(v);
    return v;
  }
  template <class F>
  void read_composite(F&& read_members) {
    const nesting guard(*this);
    read_members();
  }
  /// Calls on_present() if the flag says a value follows.
  template <class F>
  void read_optional(F&& on_present) {
    if (Codec::read_flag(*this)) {
      const nesting guard(*this, level_kind::wraps_one);
      on_present();
    }
  }
  /// A pointer in the form packed_writer writes it.
  template <class Handler>
  void read_pointer(pointer_role role, Handler& handler) {
    const std::size_t at = offset();
    if (role == pointer_role::unique) {
      std::uint8_t state = 0;
      read_scalar(state);
      if (state == 0) return;
      if (state == 2) {
        std::uint32_t number = 0;
        read_scalar(number);
        return handler.reference(number, at);
      }
      if (state != 1)
        fail_at(errc::invalid_value,
                error_text({"a unique pointer's state is ", state,
                            ": 0 null, 1 new, 2 owner of an observed object"}),
                at);
    } else {
      std::uint32_t tag = 0;
      read_scalar(tag);
      if (tag == 0) return;
      if (tag >= 2) return handler.reference(tag - 2U, at);
    }
    object_type_read type;
    if (handler.typed()) {
      type.at = offset();
      read_scalar(type.tag);
      if (type.tag == 0) read_scalar(type.id);
    }
    handler.fresh(type, std::nullopt, at, [&] { handler.read_all_bodies(*this); });
  }

  /// Reads an index below `count` and calls on_index(index).
  template <class F>
  void read_variant(std::size_t count, F&& on_index) {
    const std::size_t at = offset();
    const std::uint64_t index = Codec::read_index(*this);
    if (index >= count)
      fail_at(errc::invalid_value,
              error_text({"variant index ", index, " but only ", count, " alternatives"}), at);
    const nesting guard(*this, level_kind::wraps_one);
    on_index(static_cast<std::size_t>(index));
  }
  /// A fixed number of elements into contiguous memory.
  template <class T>
  void read_contiguous(T* data, std::size_t count) {
    constexpr wire_size size = wire_size_of<Codec, T>;
    if constexpr (Codec::template bulk<T>) {
      if (count != 0)
        std::memcpy(static_cast<void*>(data), take(count * sizeof(T)), count * sizeof(T));
    } else if constexpr (Checked && size.fixed && size.min > 0 && composite_wire_shape<T>) {
      // Records of a fixed size: one bounds check for the run, then unchecked reads of their
      // fields, through a reader whose position stays in a register.
      if (count > remaining() / size.min) [[unlikely]]
        fail_short(count * size.min);
      const std::byte* start = take(count * size.min);
      packed_reader<Codec, false, Anchor> fixed(begin_, start, start + count * size.min, context_);
      for_each_index(count, [&](std::size_t i) { serializer<T>::load(fixed, data[i]); });
    } else {
      std::size_t done = 0;
      if constexpr (requires(const std::byte* at) { Codec::read_run(at, end_, data, count); }) {
        // The codec's fast path takes what it can; the checked path below reports any error.
        done = Codec::read_run(pos_, end_, data, count);
      }
      read_elements<T>(
          count, [&](auto& ar, std::size_t i) { ar.process(data[i]); }, done);
    }
  }
  /// A dynamic sequence into contiguous memory: the count comes first, so target.resize(n) is
  /// called once.
  template <class T, class Target>
  void read_sequence_into(Target&& target) {
    const nesting guard(*this);
    const std::size_t count = read_count<T>(true);
    if constexpr (wire_size_of<Codec, T>.min == 0)
      read_growing<T>(target, count);
    else
      read_contiguous(target.resize(count), count);
  }
  template <class Ch, class Traits, class Alloc>
  void read_text(std::basic_string<Ch, Traits, Alloc>& text) {
    if constexpr (Codec::template bulk<Ch>) {
      const std::size_t count = read_count<Ch>(true);
      const std::byte* src = take(count * sizeof(Ch));
      text.resize(count);
      if (count != 0) std::memcpy(text.data(), src, count * sizeof(Ch));
    } else {
      // The count is checked against the input and charged before resize() allocates.
      read_sequence<Ch>([&](std::size_t n) { text.resize(n); },
                        [&](auto& ar, std::size_t i) { ar.process(text[i]); });
    }
  }
  /// A view into the input: no copy, no allocation.
  template <class T>
  std::span<const T> read_view() {
    const std::size_t at = offset();
    const std::span<const std::byte> bytes = read_element_bytes<T>();
    const std::size_t count = bytes.size() / sizeof(T);
    if (reinterpret_cast<std::uintptr_t>(bytes.data()) % alignof(T) != 0)
      fail_at(errc::misaligned,
              error_text({"a view of ", count, " elements of alignment ", alignof(T),
                          " needs aligned input"}),
              at);
    return {reinterpret_cast<const T*>(bytes.data()), count};
  }
  /// The bytes of a sequence of elements of `size` bytes each (size > 0) as the input holds them:
  /// the length, then count * size bytes. For a reader that knows their layout from elsewhere (a
  /// schema); nothing is allocated.
  std::span<const std::byte> read_sized_elements(std::size_t size) {
    const std::size_t at = offset();
    const std::uint64_t count = Codec::read_length(*this);
    if (count > remaining() / size) [[unlikely]]
      fail_length(count, size, at);
    const auto bytes = static_cast<std::size_t>(count) * size;
    return {take(bytes), bytes};
  }
  /// The bytes of a sequence of Ts in the input, aligned or not (a reader that copies them, or
  /// views them as unaligned memory): the length, then count * sizeof(T) bytes.
  template <class T>
  std::span<const std::byte> read_element_bytes() {
    static_assert(Codec::template bulk<T>,
                  "bale: zero-copy views need elements whose wire layout is their memory layout");
    const std::size_t count = read_count<T>(false);
    return {take(count * sizeof(T)), count * sizeof(T)};
  }

 private:
  using nesting = nesting_guard<packed_reader>;

  // Reads a length and proves, before anything is allocated, that the input can hold it. Always
  // inlined, with its messages built out of line: every string and short vector pays for it.
  template <class Element>
  [[gnu::always_inline]] std::size_t read_count(bool allocates) {
    const std::size_t at = offset();
    const std::uint64_t count = Codec::read_length(*this);
    constexpr std::size_t min_size = wire_size_of<Codec, Element>.min;
    if constexpr (min_size > 0) {
      if (count > remaining() / min_size) [[unlikely]]
        fail_length(count, min_size, at);
    } else {
      // Elements may take no bytes: each either consumes input or counts as an empty element.
      if (count > remaining() + context_.empty_elements_left()) [[unlikely]]
        fail_length(count, 0, at);
    }
    if (allocates && !context_.try_charge(static_cast<std::size_t>(count), sizeof(Element)))
        [[unlikely]]
      fail_length_allocation(count, at);
    return static_cast<std::size_t>(count);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_length(std::uint64_t count, std::size_t min_size,
                                                          std::size_t at) const {
    if (min_size > 0)
      fail_at(errc::length_too_large,
              error_text({"length ", count, " with at least ", min_size,
                          " bytes per element exceeds the ", remaining(), " bytes left"}),
              at);
    fail_at(errc::length_too_large,
            error_text({"length ", count, " exceeds the ", remaining(),
                        " bytes left and the empty-element limit"}),
            at);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_length_allocation(std::uint64_t count,
                                                                     std::size_t at) const {
    fail_at(errc::allocation_limit,
            error_text({"length ", count, " would pass the allocation limit of ",
                        context_.limits().max_allocation, " bytes"}),
            at);
  }

  // Elements that may take no bytes on the wire: the count is not paid for by the input, so the
  // room grows (doubling) as elements arrive rather than being sized to the count up front.
  template <class T, class Target>
  void read_growing(Target& target, std::size_t count) {
    constexpr std::size_t first_room = 64;
    std::size_t room = std::min(count, first_room);
    T* data = target.resize(room);
    read_elements<T>(count, [&](packed_reader& ar, std::size_t i) {
      if (i == room) [[unlikely]] {
        room = std::min(count, 2 * room);
        data = target.resize(room);
      }
      ar.process(data[i]);
    });
  }

  template <class Element, class OnElement>
  void read_elements(std::size_t count, OnElement&& on_element, std::size_t first = 0) {
    for_each_index(
        count,
        [&](std::size_t i) {
          if constexpr (wire_size_of<Codec, Element>.min == 0) {
            const std::byte* before = pos_;
            call_element(on_element, i);
            if (pos_ == before && !context_.try_count_empty(sizeof(Element))) fail_empty_elements();
          } else {
            call_element(on_element, i);
          }
        },
        first);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_empty_elements() const {
    fail(errc::element_limit,
         error_text({"more elements that take no bytes than the limits allow (",
                     context_.limits().max_empty_elements, " elements, ",
                     context_.limits().max_empty_bytes, " bytes)"}));
  }

  template <class OnElement>
  void call_element(OnElement& on_element, std::size_t i) {
    if constexpr (std::is_invocable_v<OnElement&, packed_reader&, std::size_t>)
      on_element(*this, i);
    else
      on_element(*this);
  }

  const std::byte* begin_;
  const std::byte* pos_;
  const std::byte* end_;
  read_context& context_;
};

}  // namespace bale::detail
