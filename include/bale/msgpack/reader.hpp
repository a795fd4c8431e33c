// SPDX-License-Identifier: BSL-1.0
#pragma once
// The MessagePack input archive. Reads what msgpack_writer writes and what other MessagePack
// writers write for the same values: any integer form whose value fits, float32 or float64 where
// the value is exact, members of a map in any order. Every read is bounds-checked, every count is
// checked against the bytes left (each value takes at least one) and charged to the allocation
// budget before anything is allocated, and nesting is limited.
// The steps of one value are always inlined: in a program that serializes many types GCC
// otherwise stops inlining them, and each number then costs a chain of calls.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bale/core/archive_base.hpp"
#include "bale/core/arithmetic.hpp"
#include "bale/core/error.hpp"
#include "bale/core/member_rules.hpp"
#include "bale/core/named_pointers.hpp"
#include "bale/core/named_values.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/shaped_sequence.hpp"
#include "bale/fwd.hpp"
#include "bale/msgpack/detail/cursor.hpp"
#include "bale/msgpack/wire.hpp"

namespace bale::detail {

template <class Anchor = bale_global_namespace>
class msgpack_reader : public archive_base<msgpack_reader<Anchor>>,
                       public named_pointer_reader<msgpack_reader<Anchor>>,
                       public msgpack_cursor {
 public:
  static constexpr bool is_loading = true;
  static constexpr bool is_saving = false;
  static constexpr bool self_describing = true;
  template <class T>
  static constexpr bool bulk = msgpack_wire::byte_like<T>;

  msgpack_reader(std::span<const std::byte> input, read_context& context) noexcept
      : msgpack_cursor(input, context) {}

  template <class T>
  void process(T& value) {
    static_assert(!std::is_const_v<T>, "bale: cannot read into a const object");
    if constexpr (is_named_value<std::remove_const_t<T>>) {
      read_field(value.name, value.value);
    } else {
      require_serializable<T>();
      as_value([&] { serializer<T>::load(*this, value); });
    }
  }

  // ---- the vocabulary ----

  template <class T>
  void read_scalar(T& value) {
    as_value([&] { value = read_number<T>(); });
  }
  template <class E>
  void read_enum(E& value) {
    read_named_enum(*this, value);
  }
  void read_none() { read_named_none(*this); }
  template <class Ch, class Traits, class Alloc>
  void read_text(std::basic_string<Ch, Traits, Alloc>& text) {
    as_value([&] {
      if constexpr (sizeof(Ch) == 1) {
        const std::size_t count = read_header(msgpack_wire::container::str, 1);
        text.assign(reinterpret_cast<const Ch*>(take(count)), count);
      } else {
        const std::size_t count = read_header(msgpack_wire::container::array, sizeof(Ch));
        text.resize(count);
        for_each_index(count, [&](std::size_t i) { text[i] = read_number<Ch>(); });
      }
    });
  }
  /// A view into the input: a string's bytes, or bin for other byte-like elements.
  template <class T>
  std::span<const T> read_view() {
    static_assert(msgpack_wire::byte_like<T> || sizeof(T) == 1,
                  "bale: MessagePack gives views of strings and bin only");
    std::span<const T> view;
    as_value([&] {
      const auto kind = std::is_same_v<T, char> || std::is_same_v<T, char8_t>
                            ? msgpack_wire::container::str
                            : msgpack_wire::container::bin;
      const std::size_t count = read_header(kind, 0);
      view = {reinterpret_cast<const T*>(take(count)), count};
    });
    return view;
  }
  template <class Element, class OnCount, class OnElement>
  void read_sequence(OnCount&& on_count, OnElement&& on_element) {
    as_value([&] {
      const nesting_guard guard(*this);
      const std::size_t count = read_header(msgpack_wire::container::array, sizeof(Element));
      on_count(count);
      read_elements(count, on_element);
    });
  }
  template <class T, class Target>
  void read_sequence_into(Target&& target) {
    as_value([&] {
      const nesting_guard guard(*this);
      if constexpr (msgpack_wire::byte_like<T>) {
        const std::size_t count = read_header(msgpack_wire::container::bin, sizeof(T));
        copy_bytes(target.resize(count), count);
      } else {
        const std::size_t count = read_header(msgpack_wire::container::array, sizeof(T));
        read_contiguous(target.resize(count), count);
      }
    });
  }
  /// An array's elements: nested arrays of numbers, each as long as its extent says, or one flat
  /// array (as other elements, bytes, and arrays before nesting, are written).
  template <class T, class Target>
  void read_shaped_sequence_into(Target&& target, sequence_shape shape) {
    if constexpr (std::is_arithmetic_v<T> && !msgpack_wire::byte_like<T>) {
      if (shape.size() >= 2 && nested_array_ahead()) {
        as_value([&] { read_nested_arrays<T>(target, shape); });
        return;
      }
    }
    read_sequence_into<T>(target);
  }
  template <class T, class OnBytes>
  void read_contiguous_sequence(OnBytes&& on_bytes) {
    static_assert(msgpack_wire::byte_like<T>);
    as_value([&] {
      const std::size_t count = read_header(msgpack_wire::container::bin, sizeof(T));
      on_bytes(take(count), count);
    });
  }
  /// Numbers (not enums, which may travel as names) are read straight into place: the same checks
  /// as process() would make, without a call chain per element that large programs may not inline.
  template <class T>
  void read_contiguous(T* data, std::size_t count) {
    if constexpr (std::is_arithmetic_v<T>) {
      if (level_ == nullptr) {
        for_each_index(count, [&](std::size_t i) { data[i] = read_number<T>(); });
        return;
      }
    }
    for_each_index(count, [&](std::size_t i) { process(data[i]); });
  }
  template <class F>
  void read_tuple(std::size_t count, F&& read_elements) {
    as_value([&] {
      const nesting_guard guard(*this);
      expect_count(msgpack_wire::container::array, count);
      read_elements();
    });
  }
  template <class Entry, class OnCount, class OnEntry>
  void read_map(OnCount&& on_count, OnEntry&& on_entry) {
    as_value([&] {
      const nesting_guard guard(*this);
      const std::size_t count = read_header(msgpack_wire::container::map, sizeof(Entry), 2);
      on_count(count);
      read_elements(count, on_entry);
    });
  }
  template <class K, class V>
  void read_map_entry(K& key, V& value) {
    process(key);
    process(value);
  }
  /// A map of member names (any order, each once, all present), or an array of every member in
  /// declaration order (as msgpack-cxx's MSGPACK_DEFINE writes).
  template <class Names, class... Members>
  void read_object(Members&... members) {
    as_value([&] {
      const nesting_guard guard(*this);
      if (peek_array()) {
        expect_count(msgpack_wire::container::array, sizeof...(Members));
        std::size_t index = 0;
        (within_field(Names::value[index++], [&] { process(members); }), ...);
        return;
      }
      read_members<Names>(members...);
    });
  }
  /// A hand-described type: a map when it names its values (read_field finds them by name), an
  /// array otherwise (its reads take the values in turn, no more than the array holds).
  template <class F>
  void read_composite(F&& read_members) {
    as_value([&] {
      const nesting_guard guard(*this);
      if (peek_array()) {
        level positional{.values = read_header(msgpack_wire::container::array, 0)};
        with_level(positional, read_members);
        if (positional.values != 0)
          fail(errc::invalid_value, error_text({positional.values, " values left unread"}));
      } else {
        read_named_composite(read_members);
      }
    });
  }
  /// A versioned type's version: its map's "bale_version" entry, or its array's first value.
  std::uint32_t read_version() {
    std::uint32_t v = 0;
    read_field(version_key, v);
    return v;
  }
  template <class T>
  void read_field(std::string_view name, T& value) {
    if (level_ == nullptr || level_->members == nullptr) {
      as_value([&] { within_field(name, [&] { process(value); }); });
      return;
    }
    msgpack_member* const found = level_->find(name);
    if (found == nullptr) {
      if (auto refused = rules().settle_missing(name, false, value))
        fail(errc::invalid_value, std::move(*refused));
      return;
    }
    if (found->used) fail(errc::invalid_value, error_text({"field \"", name, "\" read twice"}));
    found->used = true;
    const std::byte* const at = found->value_at;
    const std::byte* resume = position();
    level* outer = level_;
    seek(at);
    level_ = nullptr;
    within_field(name, [&] { process(value); });
    level_ = outer;
    seek(resume);
  }
  template <class F>
  void read_optional(F&& on_present) {
    as_value([&] {
      if (take_nil()) return;
      const nesting_guard guard(*this, level_kind::wraps_one);
      on_present();
    });
  }
  template <class F>
  void read_variant(std::size_t count, F&& on_index) {
    as_value([&] {
      const nesting_guard guard(*this, level_kind::wraps_one);
      expect_count(msgpack_wire::container::array, 2);
      const std::size_t at = offset();
      const auto index = read_number<std::uint64_t>();
      if (index >= count)
        fail_at(errc::invalid_value,
                error_text({"variant index ", index, " but only ", count, " alternatives"}), at);
      on_index(static_cast<std::size_t>(index));
    });
  }

 private:
  // A hand-described type being read: an array's values left, or a map's members by name.
  struct level {
    std::size_t values = 0;
    std::vector<msgpack_member>* members = nullptr;
    std::size_t first = 0;
    // The map's entry of that name, or null if the map has none.
    msgpack_member* find(std::string_view name) {
      for (std::size_t k = first; k < members->size(); ++k)
        if ((*members)[k].name == name) return &(*members)[k];
      return nullptr;
    }
  };

  template <class F>
  void with_level(level& l, F& read_members) {
    level* outer = level_;
    level_ = &l;
    read_members();
    level_ = outer;
  }

  // Every verb reads one value; inside an array-shaped composite it is one of the array's values.
  template <class F>
  [[gnu::always_inline]] void as_value(F&& read) {
    if (level_ == nullptr) [[likely]] {
      read();
      return;
    }
    level* outer = level_;
    if (outer->members != nullptr)
      fail(errc::invalid_value, "expected a named member, not a value");
    if (outer->values == 0) fail(errc::invalid_value, "more values read than the array holds");
    --outer->values;
    level_ = nullptr;
    read();
    level_ = outer;
  }

  // Whether the value here is a non-empty array whose first element is an array.
  bool nested_array_ahead() {
    if (!peek_array()) return false;
    const std::byte* const at = position();
    const bool nested = read_header(msgpack_wire::container::array, 0) != 0 && peek_array();
    seek(at);
    return nested;
  }
  // Every element takes a byte of the input at least, and the budget is charged for all of them
  // before the array is sized.
  template <class T, class Target>
  void read_nested_arrays(Target& target, sequence_shape shape) {
    const std::size_t count = element_count_of(shape);
    if (count > remaining())
      fail(errc::length_too_large,
           error_text({"an array of ", count, " numbers in the ", remaining(), " bytes left"}));
    if (!context().try_charge(count, sizeof(T)))
      fail(errc::allocation_limit,
           error_text({"an array of ", count, " numbers would pass the allocation limit of ",
                       context().limits().max_allocation, " bytes"}));
    T* const data = target.resize(count);
    std::size_t filled = 0;
    read_array_level(shape, 0, data, filled);
  }
  // One array of level k and the arrays inside it; its length must be shape[k].
  template <class T>
  void read_array_level(sequence_shape shape, std::size_t k, T* data, std::size_t& filled) {
    const nesting_guard guard(*this);
    const std::size_t at = offset();
    const std::size_t length = read_header(msgpack_wire::container::array, 0);
    if (length != shape[k])
      fail_at(errc::invalid_value,
              error_text({"an array of ", length, " elements where the array needs ", shape[k],
                          " (its arrays nest one level per index, in the order of its layout)"}),
              at);
    if (k + 1 == shape.size()) {
      // Not through read_contiguous: a second caller would cost its inlining into
      // read_sequence_into, the path of every vector of numbers.
      T* const row = data + filled;
      for_each_index(length, [&](std::size_t i) { row[i] = read_number<T>(); });
      filled += length;
      return;
    }
    for_each_index(length, [&](std::size_t) { read_array_level(shape, k + 1, data, filled); });
  }

  template <class OnElement>
  void read_elements(std::size_t count, OnElement& on_element) {
    for_each_index(count, [&](std::size_t i) {
      if constexpr (std::is_invocable_v<OnElement&, msgpack_reader&, std::size_t>)
        on_element(*this, i);
      else
        on_element(*this);
    });
  }

  template <class T>
  [[gnu::always_inline]] T read_number() {
    if constexpr (std::is_same_v<T, bool>)
      return read_bool();
    else if constexpr (std::is_floating_point_v<T>)
      return read_float<T>();
    else
      return read_integer<T>();
  }

  template <class Names, class... Members>
  void read_members(Members&... members) {
    constexpr std::size_t count = sizeof...(Members);
    const std::size_t entries = read_header(msgpack_wire::container::map, 0, 2);
    bool seen[count + 1] = {};
    std::size_t expected = 0;  // members usually come in declaration order
    for (std::size_t entry = 0; entry < entries; ++entry) {
      const std::size_t at = offset();
      const std::string_view key = read_key();
      const std::size_t index = member_named<Names>(key, expected);
      if (index == count) {
        if (!rules().skips_unknown()) fail_at(errc::invalid_value, rules().unknown_text(key), at);
        skip_value();
        continue;
      }
      if (seen[index])
        fail_at(errc::invalid_value, error_text({"duplicate member \"", key, "\""}), at);
      seen[index] = true;
      expected = index + 1;
      std::size_t k = 0;
      ((k++ == index ? within_field(Names::value[index], [&] { process(members); }) : void()), ...);
    }
    if (std::find(seen, seen + count, false) == seen + count) return;
    if (auto refused = rules().template settle_missing_members<Names>(seen, members...))
      fail(errc::invalid_value, std::move(*refused));
  }
  // What becomes of members the data and the type do not share (core/member_rules.hpp).
  member_rules rules() const noexcept { return member_rules::in(context()); }

  template <class F>
  void read_named_composite(F& read_members) {
    const std::size_t entries = read_header(msgpack_wire::container::map, 0, 2);
    level named{.members = &members_, .first = members_.size()};
    skipped_.enter_composite();
    index_members(entries);  // names and where their values start; pos_ ends after the map
    const std::byte* after = position();
    with_level(named, read_members);
    for (std::size_t k = named.first; k < members_.size(); ++k)
      if (!members_[k].used && !rules().skips_unknown())
        fail_at(errc::invalid_value, rules().unknown_text(members_[k].name),
                offset_of(members_[k].value_at));
    members_.resize(named.first);
    skipped_.leave_composite();
    seek(after);
  }

  level* level_ = nullptr;
};

}  // namespace bale::detail
