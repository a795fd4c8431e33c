// SPDX-License-Identifier: BSL-1.0
#pragma once
// The output archive of the byte formats (binary, compact): values one after another, a length
// before every dynamic sequence, no names and no padding. A Codec says how scalars, lengths, flags
// and variant indices look; a Sink says where bytes go (or only counts them).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/pointers.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/core/write_context.hpp"
#include "bale/fwd.hpp"

namespace bale::detail {

template <class Codec, class Sink, class Anchor = bale_global_namespace>
class packed_writer : public archive_base<packed_writer<Codec, Sink, Anchor>> {
 public:
  static constexpr bool is_loading = false;
  static constexpr bool is_saving = true;
  /// Names and structure are on the wire (true for text formats such as JSON).
  static constexpr bool self_describing = false;
  using codec = Codec;
  /// Whether a contiguous run of T moves as one memcpy in this format.
  template <class T>
  static constexpr bool bulk = Codec::template bulk<T>;

  packed_writer(Sink& sink, write_context& context) noexcept : sink_(sink), context_(context) {}

  template <class T>
  [[gnu::always_inline]] inline void process(const T& value) {
    using U = std::remove_cv_t<T>;
    require_serializable<U>();
    constexpr wire_size size = wire_size_of<Codec, U>;
    if constexpr (Sink::counts_only && size.fixed)
      sink_.skip(size.min);  // sizing a fixed-size value needs no walk over it
    else
      serializer<U>::save(*this, value);
  }

  // ---- the vocabulary the adapters in bale/types speak ----

  template <class T>
  [[gnu::always_inline]] inline void write_scalar(T value) {
    Codec::write_scalar(sink_, value);
  }
  /// An enumerator as its underlying value: names are not on the wire.
  template <class E>
  [[gnu::always_inline]] inline void write_enum(E value) {
    Codec::write_scalar(sink_, static_cast<std::underlying_type_t<E>>(value));
  }
  /// A value that holds nothing (std::monostate) takes no bytes.
  void write_none() noexcept {}

  /// A dynamic number of elements; `write_elements()` writes them.
  template <class F>
  [[gnu::always_inline]] inline void write_sequence(std::size_t count, F&& write_elements) {
    const nesting guard(*this);
    Codec::write_length(sink_, count);
    write_elements();
  }
  /// A dynamic number of elements in contiguous memory.
  template <class T>
  [[gnu::always_inline]] inline void write_contiguous_sequence(const T* data, std::size_t count) {
    const nesting guard(*this);
    Codec::write_length(sink_, count);
    write_contiguous(data, count);
  }
  /// Key is the map's key type (a text format decides by it between an object and pairs).
  template <class Key, class F>
  [[gnu::always_inline]] inline void write_map(std::size_t count, F&& write_entries) {
    const nesting guard(*this);
    Codec::write_length(sink_, count);
    write_entries();
  }
  template <class K, class V>
  [[gnu::always_inline]] inline void write_map_entry(const K& key, const V& value) {
    process(key);
    process(value);
  }
  // Tuples and reflected objects are no level of their own here, as packed_reader counts them:
  // their nesting is fixed by their types, and any recursion passes through a counted verb.
  /// A fixed number of elements known to both sides (std::array, tuple, pair, ...).
  template <class F>
  [[gnu::always_inline]] inline void write_tuple(std::size_t, F&& write_elements) {
    write_elements();
  }
  /// Named members of a reflected type; Names::value holds the names (unused here).
  template <class Names, class... Members>
  [[gnu::always_inline]] inline void write_object(const Members&... members) {
    (process(members), ...);
  }
  template <class T>
  [[gnu::always_inline]] inline void write_field(std::string_view, const T& value) {
    process(value);
  }
  /// A versioned type's version, once per message (core/version.hpp).
  void write_version(std::uint32_t v) { process(v); }
  /// A user type that writes itself through ar(...).
  template <class F>
  [[gnu::always_inline]] inline void write_composite(F&& write_members) {
    const nesting guard(*this);
    write_members();
  }
  template <class F>
  [[gnu::always_inline]] inline void write_optional(bool present, F&& write_value) {
    Codec::write_flag(sink_, present);
    if (present) {
      const nesting guard(*this, level_kind::wraps_one);
      write_value();
    }
  }
  template <class F>
  [[gnu::always_inline]] inline void write_variant(std::size_t index, F&& write_value) {
    Codec::write_index(sink_, index);
    const nesting guard(*this, level_kind::wraps_one);
    write_value();
  }
  // Pointers (core/pointers.hpp). A shared pointer or an observer is a u32 tag: 0 null, 1 new,
  // n >= 2 the object numbered n - 2. A unique one is a state byte: 0 null, 1 new, 2 and a u32
  // number for its claim on an object observers met first. A registry's type follows a new
  // object's tag: u32 0 and the type's u32 id the first time in a message, else the type's index
  // plus one. The outermost pointer's bodies follow it, one after another, with no count.
  void write_null_pointer(pointer_role role) { write_pointer_tag(role, 0); }
  void write_object_reference(pointer_role role, std::uint32_t number, bool claim) {
    if (claim && role == pointer_role::unique) {
      write_scalar(std::uint8_t{2});
      write_scalar(number);
    } else {
      write_scalar(std::uint32_t{number + 2});
    }
  }
  template <class F>
  void write_new_object(pointer_role role, std::uint32_t, const object_type& type, bool outermost,
                        F&& write_bodies) {
    write_pointer_tag(role, 1);
    if (type.tagged && type.first) {
      write_scalar(std::uint32_t{0});
      write_scalar(type.id);
    } else if (type.tagged) {
      write_scalar(std::uint32_t{type.index + 1});
    }
    if (outermost) (void)write_bodies();
  }

  /// Elements in contiguous memory: one copy when the codec's wire layout is the memory layout.
  template <class T>
  [[gnu::always_inline]] inline void write_contiguous(const T* data, std::size_t count) {
    constexpr wire_size size = wire_size_of<Codec, T>;
    if constexpr (Codec::template bulk<T>) {
      sink_.put_block(data, count * sizeof(T));
    } else if constexpr (Sink::counts_only && size.fixed) {
      sink_.skip(count * size.min);
    } else if constexpr (requires { Codec::write_run(sink_, data, count); }) {
      Codec::write_run(sink_, data, count);  // the codec's own loop (compact integer arrays)
    } else {
      for (std::size_t i = 0; i < count; ++i) process(data[i]);
    }
  }
  template <class Ch, class Traits>
  [[gnu::always_inline]] inline void write_text(std::basic_string_view<Ch, Traits> text) {
    Codec::write_length(sink_, text.size());
    write_contiguous(text.data(), text.size());
  }

  [[noreturn, gnu::cold, gnu::noinline]] void fail(errc code, std::string detail) const {
    throw error(code, std::move(detail), static_cast<std::size_t>(sink_.size()));
  }
  write_context& context() const noexcept { return context_; }
  Sink& sink() noexcept { return sink_; }

 private:
  void write_pointer_tag(pointer_role role, std::uint8_t tag) {
    if (role == pointer_role::unique)
      write_scalar(tag);
    else
      write_scalar(std::uint32_t{tag});
  }
  using nesting = nesting_guard<packed_writer>;

  Sink& sink_;
  write_context& context_;
};

}  // namespace bale::detail
