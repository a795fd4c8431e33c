// SPDX-License-Identifier: BSL-1.0
#pragma once
// The MessagePack output archive. Every value is one MessagePack object: integers in their
// smallest form, reflected types as maps of member names, byte sequences as bin, variants as
// [index, value], an empty optional as nil. docs/format/msgpack.md has it byte for byte.
// The steps of one value are always inlined: in a program that serializes many types GCC
// otherwise stops inlining them, and each number then costs a chain of calls.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "bale/core/archive_base.hpp"
#include "bale/core/arithmetic.hpp"
#include "bale/core/error.hpp"
#include "bale/core/named_pointers.hpp"
#include "bale/core/named_values.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/shaped_sequence.hpp"
#include "bale/core/write_context.hpp"
#include "bale/fwd.hpp"
#include "bale/msgpack/detail/deferred_counts.hpp"
#include "bale/msgpack/wire.hpp"

namespace bale::detail {

template <class Sink, class Anchor = bale_global_namespace>
class msgpack_writer : public archive_base<msgpack_writer<Sink, Anchor>>,
                       public named_pointer_writer<msgpack_writer<Sink, Anchor>> {
 public:
  static constexpr bool is_loading = false;
  static constexpr bool is_saving = true;
  static constexpr bool self_describing = true;
  template <class T>
  static constexpr bool bulk = msgpack_wire::byte_like<T>;

  msgpack_writer(Sink& sink, write_context& context) noexcept : sink_(sink), context_(context) {}

  template <class T>
  void process(const T& value) {
    using U = std::remove_cv_t<T>;
    if constexpr (is_named_value<U>) {
      write_field(value.name, value.value);
    } else {
      require_serializable<U>();
      as_value(false, [&] { serializer<U>::save(*this, value); });
    }
  }

  // ---- the vocabulary ----

  template <class T>
  void write_scalar(T value) {
    as_value(false, [&] { put_scalar(value); });
  }
  template <class E>
  void write_enum(E value) {
    write_named_enum(*this, value);
  }
  void write_none() { write_named_none(*this); }
  template <class Ch, class Traits>
  void write_text(std::basic_string_view<Ch, Traits> text) {
    as_value(false, [&] {
      if constexpr (sizeof(Ch) == 1) {
        put_header(msgpack_wire::container::str, text.size());
        sink_.put(text.data(), text.size());
      } else {
        put_header(msgpack_wire::container::array, text.size());
        for (const Ch unit : text) put_scalar(unit);
      }
    });
  }
  template <class F>
  void write_sequence(std::size_t count, F&& write_elements) {
    as_value(false, [&] {
      const nesting_guard guard(*this);
      put_header(msgpack_wire::container::array, count);
      write_elements();
    });
  }
  /// A sequence whose length is known once write_elements() has written it and returned it (the
  /// bodies of a pointer graph): the sizing pass records it, the writing pass puts it first.
  template <class F>
  void write_deferred_sequence(F&& write_elements) {
    as_value(false, [&] {
      const nesting_guard guard(*this);
      auto& counts = context_.parts().get<msgpack_deferred_counts>();
      if constexpr (Sink::counts_only) {
        const std::uint32_t count = write_elements();
        counts.record(count);
        put_header(msgpack_wire::container::array, count);
      } else {
        std::uint32_t count = 0;
        if (!counts.next(count))
          fail(errc::invalid_value, "a pointer graph in MessagePack is sized before it is written");
        put_header(msgpack_wire::container::array, count);
        if (write_elements() != count)
          fail(errc::invalid_value,
               "a save() reached other objects than when the size was counted");
      }
    });
  }
  template <class T>
  void write_contiguous_sequence(const T* data, std::size_t count) {
    as_value(false, [&] {
      const nesting_guard guard(*this);
      if constexpr (msgpack_wire::byte_like<T>) {
        put_header(msgpack_wire::container::bin, count);
        sink_.put_block(data, count);
      } else {
        put_header(msgpack_wire::container::array, count);
        write_elements(data, count);
      }
    });
  }
  /// An array's elements of any rank: numbers as arrays of arrays, one level per index; other
  /// elements (and bytes, which are bin) as one array.
  template <class T>
  void write_shaped_contiguous_sequence(const T* data, std::size_t count, sequence_shape shape) {
    if constexpr (nested_numbers<T>) {
      if (nests(shape, count)) {
        write_nested_arrays<T>(shape, [&](auto&& write_run) { write_run(data, count); });
        return;
      }
    }
    write_contiguous_sequence(data, count);
  }
  template <class T, class F>
  void write_shaped_sequence(std::size_t count, sequence_shape shape, F&& write_elements) {
    if constexpr (nested_numbers<T>) {
      if (nests(shape, count)) {
        write_nested_arrays<T>(shape, write_elements);
        return;
      }
    }
    write_sequence(count, [&] {
      write_elements([&](const T* run, std::size_t n) { write_contiguous(run, n); });
    });
  }
  /// Values whose count both sides know (inside write_tuple): each is its own object.
  template <class T>
  void write_contiguous(const T* data, std::size_t count) {
    write_elements(data, count);
  }
  template <class F>
  void write_tuple(std::size_t count, F&& write_elements) {
    write_sequence(count, write_elements);
  }
  template <class Key, class F>
  void write_map(std::size_t count, F&& write_entries) {
    as_value(false, [&] {
      const nesting_guard guard(*this);
      put_header(msgpack_wire::container::map, count);
      write_entries();
    });
  }
  template <class K, class V>
  void write_map_entry(const K& key, const V& value) {
    process(key);
    process(value);
  }
  template <class Names, class... Members>
  void write_object(const Members&... members) {
    as_value(false, [&] {
      const nesting_guard guard(*this);
      put_header(msgpack_wire::container::map, sizeof...(Members));
      std::size_t index = 0;
      ((put_name(Names::value[index++]), process(members)), ...);
    });
  }
  /// A hand-described type: its values are counted first (a pass that writes nothing), since the
  /// header holds the count. All named: a map; none named: an array.
  template <class F>
  void write_composite(F&& write_members) {
    as_value(false, [&] {
      const nesting_guard guard(*this);
      level census{.counting = true};
      with_level(census, write_members);
      if (census.named != 0 && census.named + census.versions != census.values)
        fail(errc::invalid_value, "a type writes named and unnamed values together");
      census.counting = false;
      census.map = census.named != 0;
      const std::size_t counted = census.values;
      census.values = 0;
      put_header(census.map ? msgpack_wire::container::map : msgpack_wire::container::array,
                 counted);
      with_level(census, write_members);
      if (census.values != counted)
        fail(errc::invalid_value,
             error_text({"a type's save wrote ", counted, " values, then ", census.values}));
    });
  }
  /// A versioned type's version, once per message: named ("bale_version") in a map, the first
  /// value of an array.
  void write_version(std::uint32_t v) {
    if (level_ == nullptr) fail(errc::invalid_value, "a version outside a type's members");
    ++level_->values;
    ++level_->versions;
    if (level_->counting) return;
    if (level_->map) put_name(version_key);
    put_scalar(std::uint64_t{v});
  }
  template <class T>
  void write_field(std::string_view name, const T& value) {
    as_value(true, [&] {
      put_name(name);
      process(value);
    });
  }
  template <class F>
  void write_optional(bool present, F&& write_value) {
    as_value(false, [&] {
      if (!present) {
        if (inside_optional_)
          fail(errc::invalid_value, "an empty optional inside an optional has no MessagePack form");
        put_byte(msgpack_wire::nil);
        return;
      }
      inside_optional_ = true;
      const nesting_guard guard(*this, level_kind::wraps_one);
      write_value();
      inside_optional_ = false;
    });
  }
  template <class F>
  void write_variant(std::size_t index, F&& write_value) {
    as_value(false, [&] {
      put_header(msgpack_wire::container::array, 2);
      put_scalar(std::uint64_t{index});
      const nesting_guard guard(*this, level_kind::wraps_one);
      write_value();
    });
  }

  [[noreturn]] void fail(errc code, std::string detail) const {
    throw error(code, std::move(detail), static_cast<std::size_t>(sink_.size()));
  }
  write_context& context() const noexcept { return context_; }

 private:
  // The values written directly by a hand-described type's save, counted so that its header can
  // hold their number; values nested inside them are not counted.
  struct level {
    bool counting = false;
    std::size_t values = 0;
    std::size_t named = 0;
    std::size_t versions = 0;  // named in a map, not in an array
    bool map = false;
  };

  template <class F>
  void with_level(level& l, F& write_members) {
    level* outer = level_;
    level_ = &l;
    write_members();
    level_ = outer;
  }

  // Every verb is one value: counted where a composite counts, written unless only counting, and
  // anything nested inside it belongs to no composite of its own.
  template <class F>
  [[gnu::always_inline]] void as_value(bool named, F&& write) {
    const bool nested_optional = inside_optional_;
    if (level_ == nullptr) [[likely]] {
      if (named) fail(errc::invalid_value, "a named value outside a type's members");
      write();
      return;
    }
    level* outer = level_;
    ++outer->values;
    if (named) ++outer->named;
    if (outer->counting) return;
    level_ = nullptr;
    inside_optional_ = false;
    write();
    inside_optional_ = nested_optional;
    level_ = outer;
  }

  // Elements an array nests: numbers, which are never arrays themselves; bytes are one bin.
  template <class T>
  static constexpr bool nested_numbers = std::is_arithmetic_v<T> && !msgpack_wire::byte_like<T>;
  // A header per index; write_elements(write_run) hands its numbers to write_run a run at a
  // time, and each inner array's header goes before its first element. Every level is one of
  // nesting.
  template <class T, class F>
  void write_nested_arrays(sequence_shape shape, F&& write_elements) {
    as_value(false, [&] {
      const nesting_guard guard(*this);
      // The inner levels hold numbers only: checked here as the reader counts them.
      if (context_.depth() + (shape.size() - 1) > context_.max_depth())
        fail(errc::depth_exceeded, error_text({"nesting deeper than ", context_.max_depth()}));
      nested_lists lists(shape);
      for (std::size_t k = 0; k < shape.size(); ++k)
        put_header(msgpack_wire::container::array, shape[k]);
      write_elements([&](const T* run, std::size_t n) { write_in_arrays(lists, run, n); });
      if (!lists.done())
        fail(errc::invalid_value, "an array wrote fewer elements than its extents hold");
    });
  }
  template <class T>
  void write_in_arrays(nested_lists& lists, const T* data, std::size_t count) {
    while (count != 0) {
      if (lists.done())
        fail(errc::invalid_value, "an array wrote more elements than its extents hold");
      const std::size_t run = std::min<std::uint64_t>(count, lists.left_in_row());
      for (std::size_t i = 0; i < run; ++i) put_scalar(data[i]);
      data += run;
      count -= run;
      const std::size_t ended = lists.advance(run);
      if (!lists.done())
        for (std::size_t k = lists.levels() - ended; k < lists.levels(); ++k)
          put_header(msgpack_wire::container::array, lists.extent(k));
    }
  }

  // Numbers (not enums, which may travel as names) go straight to put_scalar: the same bytes as
  // process() would give, without a call chain per element that large programs may not inline.
  template <class T>
  void write_elements(const T* data, std::size_t count) {
    if constexpr (std::is_arithmetic_v<T>) {
      if (level_ == nullptr) {
        for (std::size_t i = 0; i < count; ++i) put_scalar(data[i]);
        return;
      }
    }
    for (std::size_t i = 0; i < count; ++i) process(data[i]);
  }

  [[gnu::always_inline]] void put_byte(std::uint8_t byte) { sink_.put(&byte, 1); }
  template <class U>
  [[gnu::always_inline]] void put_big_endian(std::uint8_t type, U value) {
    unsigned char out[1 + sizeof(U)];
    out[0] = type;
    for (std::size_t i = 0; i < sizeof(U); ++i)
      out[1 + i] = static_cast<unsigned char>(value >> (8 * (sizeof(U) - 1 - i)));
    sink_.put(out, sizeof out);
  }

  template <class T>
  [[gnu::always_inline]] void put_scalar(T value) {
    inside_optional_ = false;
    if constexpr (std::is_same_v<T, bool>) {
      put_byte(value ? msgpack_wire::true_ : msgpack_wire::false_);
    } else if constexpr (std::is_same_v<T, float>) {
      put_big_endian(msgpack_wire::float32, std::bit_cast<std::uint32_t>(value));
    } else if constexpr (std::is_same_v<T, double>) {
      put_big_endian(msgpack_wire::float64, std::bit_cast<std::uint64_t>(value));
    } else if constexpr (std::is_signed_v<T>) {
      put_signed(static_cast<std::int64_t>(value));
    } else {
      put_unsigned(static_cast<std::uint64_t>(value));
    }
  }
  [[gnu::always_inline]] void put_unsigned(std::uint64_t v) {
    if (v <= msgpack_wire::positive_fixint_max)
      put_byte(static_cast<std::uint8_t>(v));
    else if (v <= 0xff)
      put_big_endian(msgpack_wire::uint8, static_cast<std::uint8_t>(v));
    else if (v <= 0xffff)
      put_big_endian(msgpack_wire::uint16, static_cast<std::uint16_t>(v));
    else if (v <= 0xffffffffU)
      put_big_endian(msgpack_wire::uint32, static_cast<std::uint32_t>(v));
    else
      put_big_endian(msgpack_wire::uint64, v);
  }
  // Non-negative values take the unsigned forms, as the specification's smallest encoding asks.
  [[gnu::always_inline]] void put_signed(std::int64_t v) {
    if (v >= 0)
      put_unsigned(static_cast<std::uint64_t>(v));
    else if (v >= -32)
      put_byte(static_cast<std::uint8_t>(v));
    else if (v >= INT8_MIN)
      put_big_endian(msgpack_wire::int8, static_cast<std::uint8_t>(v));
    else if (v >= INT16_MIN)
      put_big_endian(msgpack_wire::int16, static_cast<std::uint16_t>(v));
    else if (v >= INT32_MIN)
      put_big_endian(msgpack_wire::int32, static_cast<std::uint32_t>(v));
    else
      put_big_endian(msgpack_wire::int64, static_cast<std::uint64_t>(v));
  }

  void put_header(msgpack_wire::container kind, std::size_t count) {
    using msgpack_wire::container;
    inside_optional_ = false;
    if (count > msgpack_wire::max_count)
      fail(errc::invalid_value, error_text({count, " elements are more than MessagePack holds"}));
    const std::uint8_t small = kind == container::str     ? msgpack_wire::fixstr
                               : kind == container::array ? msgpack_wire::fixarray
                                                          : msgpack_wire::fixmap;
    const std::size_t small_max = kind == container::str ? 31 : 15;
    if (kind != container::bin && count <= small_max) {
      put_byte(static_cast<std::uint8_t>(small | count));
      return;
    }
    if ((kind == container::str || kind == container::bin) && count <= 0xff) {
      put_big_endian(kind == container::str ? msgpack_wire::str8 : msgpack_wire::bin8,
                     static_cast<std::uint8_t>(count));
      return;
    }
    static constexpr std::uint8_t forms16[] = {msgpack_wire::str16, msgpack_wire::bin16,
                                               msgpack_wire::array16, msgpack_wire::map16};
    const auto k = static_cast<std::size_t>(kind);
    if (count <= 0xffff)
      put_big_endian(forms16[k], static_cast<std::uint16_t>(count));
    else
      put_big_endian(static_cast<std::uint8_t>(forms16[k] + 1), static_cast<std::uint32_t>(count));
  }
  void put_name(std::string_view name) {
    put_header(msgpack_wire::container::str, name.size());
    sink_.put(name.data(), name.size());
  }

  Sink& sink_;
  write_context& context_;
  level* level_ = nullptr;
  bool inside_optional_ = false;  // the next value is an optional's: nil there would be ambiguous
};

}  // namespace bale::detail
