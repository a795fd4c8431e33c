// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading data written with another schema: an input archive that stands between a byte format's
// reader and the reader's types, following a resolution plan (schema/resolution.hpp). Every part
// whose schemas are equal is handed to the format's reader whole, so it reads at full speed (an
// unchanged vector of structs is still one memcpy); only the parts that differ go value by value:
// members matched by name, skipped or left at their defaults, numbers widened, optionals
// wrapped or unwrapped, enums mapped by name.
//
//   bale::deserialize_as<T>(bytes, writer_schema_text)   // bale/core/deserialize.hpp's cousin
//
// The archive speaks the contract (core/archive.hpp) to the types, so any type reads through it
// as through any format; it never offers bulk moves itself.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "bale/core/archive_base.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/enum_values.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/member_rules.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/shaped_sequence.hpp"
#include "bale/core/version.hpp"
#include "bale/schema/copy_program.hpp"
#include "bale/schema/decode.hpp"
#include "bale/schema/resolution.hpp"
#include "bale/schema/schema_of.hpp"

namespace bale::detail {

// A stand-in for an element when the format's reader checks a count: as large as the element for
// the allocation budget, but with no minimum wire size, since the writer's element may be smaller
// than the reader's.
template <class Shape>
inline constexpr bool is_same_as_shape = false;
template <class U>
inline constexpr bool is_same_as_shape<schema::same_as<U>> = true;

template <std::size_t Size>
struct charged_as {
  charged_as() = delete;  // not an aggregate: nothing reflects it, no wire shape
  std::byte bytes[Size];
};

template <class Inner>
class resolving_reader : public archive_base<resolving_reader<Inner>> {
 public:
  static constexpr bool is_loading = true;
  static constexpr bool is_saving = false;
  static constexpr bool self_describing = false;
  template <class T>
  static constexpr bool bulk = false;  // equal parts move in bulk through the inner reader

  resolving_reader(Inner& inner, const resolution& plan) : inner_(inner), plan_(plan) {}

  template <class T>
  void process(T& value) {
    if constexpr (is_wrapper<std::remove_const_t<T>>()) {
      // Its schema is its value's, which its load reads through ar(value): that takes the step.
      serializer<std::remove_const_t<T>>::load(*this, value);
      return;
    }
    static_assert(!std::is_const_v<T>, "bale: cannot read into a const object");
    const std::uint32_t s = take_step();
    const resolution_step& step = plan_[s];
    if (step.equal) {
      inner_(value);
      return;
    }
    if (step.wrap == resolution_step::wrapping::writer_optional) {
      bool present = false;
      inner_.read_optional([&] {
        present = true;
        const cursor_guard next(*this, s, step.children.data(), 1);
        process(value);
      });
      if (!present) reset(value);
      return;
    }
    const cursor_guard inside(*this, s, step.children.data(), step.children.size());
    if constexpr (is_reflected<T>())
      read_record(value, step);
    else
      serializer<T>::load(*this, value);
  }

  std::size_t offset() const noexcept { return inner_.offset(); }
  std::size_t remaining() const noexcept { return inner_.remaining(); }
  read_context& context() const noexcept { return inner_.context(); }
  [[noreturn]] void fail(errc code, std::string detail) const {
    inner_.fail(code, std::move(detail));
  }
  [[noreturn]] void fail_at(errc code, std::string detail, std::size_t at) const {
    inner_.fail_at(code, std::move(detail), at);
  }

  template <class T>
  void read_scalar(T& value) {
    const schema_node& w = plan_.writer()[current().writer];
    const schema_node& n = w.kind == schema_kind::duration ? plan_.writer()[w.children[0]] : w;
    const std::int64_t raw = read_widened<T>(n.scalar, value);
    if (n.kind != schema_kind::enumeration || current().enum_values.empty()) return;
    const auto& values = current().enum_values;
    const auto found =
        std::lower_bound(values.begin(), values.end(), raw,
                         [](const auto& pair, std::int64_t v) { return pair.first < v; });
    if (found != values.end() && found->first == raw) {
      value = static_cast<T>(found->second);
      return;
    }
    fail(errc::invalid_value,
         detail::error_text(
             {"the enum value ", raw, " has no name in the data's schema that the type lists"}));
  }
  template <class E>
  void read_enum(E& value) {
    std::underlying_type_t<E> raw;
    read_scalar(raw);
    value = detail::enum_from_underlying<E>(*this, raw);
  }
  void read_none() noexcept {}
  template <class Ch, class Traits, class Alloc>
  void read_text(std::basic_string<Ch, Traits, Alloc>& text) {
    inner_.read_text(text);
  }
  template <class T>
  std::span<const T> read_view() {
    return inner_.template read_view<T>();
  }

  /// Pointers resolve only where both schemas are equal, which the inner reader reads whole.
  template <class Handler>
  void read_pointer(pointer_role, Handler&) {
    fail(errc::wrong_type, "a pointer is read only where both schemas have the same pointer");
  }

  template <class Element, class OnCount, class OnElement>
  void read_sequence(OnCount&& on_count, OnElement&& on_element) {
    const std::uint32_t element = current().children[0];
    if (writer_kind(cursor_.owner) == schema_kind::array) {
      // The writer's count is in its schema, not on the wire: no count to hint.
      read_fixed_elements<Element>([&](std::size_t i) {
        const cursor_guard next(*this, element);
        call_element(on_element, i);
      });
      return;
    }
    inner_.template read_sequence<charged_as<sizeof(Element)>>(
        on_count, [&](Inner&, std::size_t i) {
          const cursor_guard next(*this, element);
          call_element(on_element, i);
        });
  }
  template <class T, class Target>
  void read_sequence_into(Target&& target) {
    const std::uint32_t element = current().children[0];
    const bool fixed = writer_kind(cursor_.owner) == schema_kind::array;
    if (plan_[element].equal && !fixed) {
      inner_.template read_sequence_into<T>(target);
      return;
    }
    // The count is a hint here (the elements' wire size is the writer's): room grows as they come.
    std::size_t hint = 0, room = 0, size = 0;
    T* data = nullptr;
    const auto read_element = [&](std::size_t i) {
      if (i == room) {
        room = std::max({hint, 2 * room, std::size_t{16}});
        data = target.resize(room);
      }
      const cursor_guard next(*this, element);
      process(data[i]);
      size = i + 1;
    };
    if (fixed) {
      read_fixed_elements<T>(read_element);
    } else {
      if constexpr (flat_record<T> && numbers_as_in_memory) {
        if (read_by_copy<T>(target, plan_[element])) return;
      }
      inner_.template read_sequence<charged_as<sizeof(T)>>(
          [&](std::size_t n) { hint = n; }, [&](Inner&, std::size_t i) { read_element(i); });
    }
    target.resize(size);
  }
  /// An array's elements: as the inner format reads them where the plan leaves them as they are,
  /// or where they are numbers in a format that names its values (a number reads into any
  /// arithmetic type it fits); through the plan otherwise.
  template <class T, class Target>
  void read_shaped_sequence_into(Target&& target, sequence_shape shape) {
    const std::uint32_t element = current().children[0];
    const bool fixed = writer_kind(cursor_.owner) == schema_kind::array;
    if (!fixed && (plan_[element].equal || (Inner::self_describing && std::is_arithmetic_v<T>))) {
      detail::read_shaped_sequence_into<T>(inner_, target, shape);
      return;
    }
    read_sequence_into<T>(target);
  }
  template <class Entry, class OnCount, class OnEntry>
  void read_map(OnCount&& on_count, OnEntry&& on_entry) {
    const resolution_step& step = current();
    inner_.template read_map<charged_as<sizeof(Entry)>>(on_count, [&](Inner&, std::size_t i) {
      const cursor_guard next(*this, step.children.data(), 2);
      call_element(on_entry, i);
    });
  }
  template <class K, class V>
  void read_map_entry(K& key, V& value) {
    process(key);
    process(value);
  }
  template <class F>
  void read_tuple(std::size_t, F&& read_elements) {
    read_elements();
  }
  template <class T>
  void read_contiguous(T* data, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) process(data[i]);
  }
  template <class Names, class... Members>
  void read_object(Members&... members) {
    read_members(current(), Names::value, members...);
  }
  template <class T>
  void read_field(std::string_view, T& value) {
    process(value);
  }
  template <class F>
  void read_composite(F&& read_members) {
    read_members();
  }
  std::uint32_t read_version() { return inner_.read_version(); }
  template <class F>
  void read_optional(F&& on_present) {
    const resolution_step& step = current();
    const cursor_guard next(*this, step.children.data(), 1);
    if (step.wrap == resolution_step::wrapping::reader_optional)
      on_present();  // the writer's value, always there
    else
      inner_.read_optional(on_present);
  }
  template <class F>
  void read_variant(std::size_t, F&& on_index) {
    const resolution_step& step = current();
    inner_.read_variant(step.children.size(), [&](std::size_t i) {
      // By position, or by stable name (reader_member maps the writer's alternatives).
      const std::size_t j = step.reader_member.empty() ? i : step.reader_member[i];
      if (j == no_step)
        fail(errc::invalid_value, "the variant holds alternative \"" +
                                      plan_.writer()[step.writer].names[i] +
                                      "\", which the type does not have");
      const cursor_guard next(*this, &step.children[i], 1);
      on_index(j);
    });
  }

 private:
  // Where the next value's step comes from: a run of steps taken in turn (a tuple's elements,
  // a map entry's key and value), or an array's one element step, taken again and again.
  struct cursor {
    std::uint32_t owner = 0;  // the step whose parts these are
    const std::uint32_t* steps = nullptr;
    std::size_t count = 0;
    std::size_t next = 0;
    bool repeats = false;  // an array's (and a complex number's) elements share one step
  };
  class cursor_guard {
   public:
    cursor_guard(resolving_reader& ar, std::uint32_t owner, const std::uint32_t* steps,
                 std::size_t count)
        : ar_(ar), saved_(ar.cursor_) {
      ar.check_stack();
      ar.cursor_ = {owner, steps, count, 0,
                    count == 1 && ar.writer_kind(owner) == schema_kind::array};
    }
    cursor_guard(resolving_reader& ar, const std::uint32_t* steps, std::size_t count)
        : cursor_guard(ar, ar.cursor_.owner, steps, count) {}
    cursor_guard(resolving_reader& ar, const std::uint32_t& step) : cursor_guard(ar, &step, 1) {}
    ~cursor_guard() { ar_.cursor_ = saved_; }
    cursor_guard(const cursor_guard&) = delete;
    cursor_guard& operator=(const cursor_guard&) = delete;

   private:
    resolving_reader& ar_;
    cursor saved_;
  };

  const resolution_step& current() const noexcept { return plan_[cursor_.owner]; }
  // A writer's fixed array read as the reader's sequence: its count comes from the writer's
  // schema, and each element is charged to the budget as it is read, as a text format's are.
  template <class Element, class ReadElement>
  void read_fixed_elements(ReadElement&& read_element) {
    const std::size_t count = plan_.writer()[current().writer].count;
    inner_.read_tuple(count, [&] {
      for (std::size_t i = 0; i < count; ++i) {
        charge_allocation(inner_, 1, sizeof(Element));
        read_element(i);
      }
    });
  }
  schema_kind writer_kind(std::uint32_t step) const noexcept {
    return plan_.writer()[plan_[step].writer].kind;
  }
  std::uint32_t take_step() {
    if (cursor_.repeats) return cursor_.steps[0];
    if (cursor_.next == cursor_.count) [[unlikely]]
      fail(errc::wrong_type, "the type reads more values than the data's schema describes");
    return cursor_.steps[cursor_.next++];
  }

  // Whether the format holds every number as it is in memory, so a record of numbers has a fixed
  // size and a known layout on the wire.
  static constexpr bool numbers_as_in_memory =
      Inner::template bulk<std::int8_t> && Inner::template bulk<std::int16_t> &&
      Inner::template bulk<std::int32_t> && Inner::template bulk<std::int64_t> &&
      Inner::template bulk<std::uint8_t> && Inner::template bulk<std::uint16_t> &&
      Inner::template bulk<std::uint32_t> && Inner::template bulk<std::uint64_t> &&
      Inner::template bulk<float> && Inner::template bulk<double>;

  // A sequence of flat records by a copy program (schema/copy_program.hpp); false, having read
  // nothing, when the writer's record is not one the program copies.
  template <class T, class Target>
  bool read_by_copy(Target& target, const resolution_step& element) {
    const copy_program program = plan_copy(plan_, element, member_places<T>(), sizeof(T));
    if (!program.usable) return false;
    const nesting_guard<Inner> sequence(inner_);
    const nesting_guard<Inner> record(inner_);
    const std::size_t at = inner_.offset();
    const std::uint64_t count = Inner::codec::read_length(inner_);
    if (count > inner_.remaining() / program.wire_size)
      fail_at(errc::length_too_large,
              detail::error_text({"length ", count, " of ", program.wire_size,
                                  "-byte records exceeds the ", inner_.remaining(), " bytes left"}),
              at);
    const auto n = static_cast<std::size_t>(count);
    charge_allocation(inner_, n, sizeof(T));
    const std::byte* const src = inner_.take(n * program.wire_size);
    run_copy(program, src, n, target.resize(n));
    return true;
  }

  // Reflected types (aggregates, BALE_REFLECT), whose members the plan matches by name.
  template <class T>
  static constexpr bool is_reflected() {
    if constexpr (has_schema_shape<T>)
      return is_own_record<T, typename serializer<T>::schema_shape>;
    else
      return false;
  }
  // A type whose schema_shape is schema::same_as<U> (a stand-in, a value with registries).
  template <class T>
  static constexpr bool is_wrapper() {
    if constexpr (has_schema_shape<T>)
      return is_same_as_shape<typename serializer<T>::schema_shape>;
    else
      return false;
  }
  template <class T>
  static void reset(T& value) {
    if constexpr (std::is_default_constructible_v<T> && std::is_move_assignable_v<T>) value = T();
  }

  // Reads the writer's scalar of kind `k` into the reader's T (the plan allowed it); returns the
  // raw integer for enum mapping.
  template <class T>
  std::int64_t read_widened(scalar_kind k, T& value) {
    const auto as = [&]<class W>(W) -> std::int64_t {
      W raw{};
      inner_.read_scalar(raw);
      value = static_cast<T>(raw);
      if constexpr (std::is_integral_v<W>) return static_cast<std::int64_t>(raw);
      return 0;
    };
    if constexpr (std::is_same_v<T, bool> || !std::is_arithmetic_v<T>) {
      inner_.read_scalar(value);
      return 0;
    } else {
      switch (k) {
        case scalar_kind::i8:
          return as(std::int8_t{});
        case scalar_kind::i16:
          return as(std::int16_t{});
        case scalar_kind::i32:
          return as(std::int32_t{});
        case scalar_kind::i64:
          return as(std::int64_t{});
        case scalar_kind::u8:
          return as(std::uint8_t{});
        case scalar_kind::u16:
          return as(std::uint16_t{});
        case scalar_kind::u32:
          return as(std::uint32_t{});
        case scalar_kind::u64:
          return as(std::uint64_t{});
        case scalar_kind::f32:
          return as(float{});
        default:
          inner_.read_scalar(value);
          return 0;
      }
    }
  }

  template <class T>
  void read_record(T& value, const resolution_step& step) {
    reset(value);  // members the writer lacked keep their defaults
    with_reflected_members<T>(
        value, [&](const auto& names, auto&... members) { read_members(step, names, members...); });
  }
  // The writer's members in its order: each into the reader's member of the same name, or
  // skipped; a defaults-omitting writer's presence mask says which were written.
  template <class Names, class... Members>
  void read_members(const resolution_step& step, const Names& names, Members&... members) {
    using reader_fn = void (*)(resolving_reader&, void*);
    void* const addresses[] = {static_cast<void*>(&members)..., nullptr};
    constexpr reader_fn resolved[] = {&read_erased<Members>..., nullptr};
    constexpr reader_fn direct[] = {&read_direct<Members>..., nullptr};
    const schema_node& w = plan_.writer()[step.writer];
    std::vector<std::uint8_t> mask(w.flag ? (w.names.size() + 7) / 8 : 0);
    if (w.flag) inner_.read_contiguous(mask.data(), mask.size());
    std::size_t i = 0;
    within_member(i, w.names, [&] {
      for (; i < w.names.size(); ++i) {
        if (w.flag && (mask[i / 8] >> (i % 8) & 1U) == 0) continue;
        const std::uint32_t j = step.reader_member[i];
        if (j == no_step) {
          skip(w.children[i]);
        } else if (plan_[step.children[i]].equal) {
          direct[j](*this, addresses[j]);  // the format's reader, at its speed
        } else {
          const cursor_guard next(*this, step.children[i]);
          resolved[j](*this, addresses[j]);
        }
      }
    });
    (void)names;
  }
  template <class M>
  static void read_erased(resolving_reader& ar, void* member) {
    ar.process(*static_cast<M*>(member));
  }
  template <class M>
  static void read_direct(resolving_reader& ar, void* member) {
    ar.inner_(*static_cast<M*>(member));
  }
  // Runs f(), which reads the members in turn and counts them in `index`; an error thrown inside
  // gets the name of member `index` in front of its path.
  template <class F>
  static void within_member(const std::size_t& index, const std::vector<std::string>& names,
                            F&& f) {
    try {
      f();
    } catch (error& e) {
      e.prepend_field(names[index]);
      throw;
    }
  }

  // Steps over a writer's value the reader has no member for: by its size where the format
  // writes it in a fixed number of bytes (an optional's value or a sequence's elements too), by
  // its schema otherwise.
  void skip(std::uint32_t node) {
    if (fixed_sizes_.empty()) fixed_sizes_.assign(plan_.writer().nodes.size(), unknown_size);
    const std::size_t size = fixed_size(node, 0);
    if (size == 0) {
      // A writer's member of no bytes (a "none", an empty record, however many members it has)
      // is work the input did not pay for: it counts as an empty element.
      if (!context().try_count_empty(0))
        fail_at(errc::element_limit,
                detail::error_text({"more members that take no bytes than the limits allow (",
                                    context().limits().max_empty_elements, ")"}),
                inner_.offset());
      return;
    }
    if (size != not_fixed) {
      (void)inner_.take(size);
      return;
    }
    const schema_node& n = plan_.writer()[node];
    if (n.kind == schema_kind::optional) {
      inner_.read_optional([&] { skip(n.children[0]); });
      return;
    }
    const std::size_t element =
        n.kind == schema_kind::sequence ? fixed_size(n.children[0], 0) : not_fixed;
    if (element != not_fixed && element != 0) {
      const std::size_t at = inner_.offset();
      const std::uint64_t count = Inner::codec::read_length(inner_);
      if (count > inner_.remaining() / element)
        fail_at(errc::length_too_large,
                detail::error_text(
                    {"length ", count, " exceeds the ", inner_.remaining(), " bytes left"}),
                at);
      (void)inner_.take(static_cast<std::size_t>(count) * element);
      return;
    }
    (void)schema_decoder<Inner, skip_builder>(inner_, plan_.writer(), start_).read(node);
  }
  void check_stack() const {
    const std::size_t most = context().limits().max_stack_bytes;
    if (start_.used() > most) [[unlikely]]
      fail(errc::depth_exceeded,
           detail::error_text(
               {"nesting deeper than ", most, " bytes of stack allow (limits::max_stack_bytes)"}));
  }
  static constexpr std::size_t unknown_size = ~std::size_t{0}, not_fixed = unknown_size - 1;
  template <class T>
  static constexpr std::size_t scalar_size() {
    constexpr wire_size size = Inner::codec::template scalar_size<T>;
    return size.fixed ? size.min : not_fixed;
  }
  std::size_t fixed_size(std::uint32_t node, std::size_t depth) {
    std::size_t& known = fixed_sizes_[node];
    if (known != unknown_size) return known;
    if (depth > context().limits().max_depth) return not_fixed;
    known = not_fixed;  // while it is worked out: a record that holds itself has no fixed size
    const schema_node& n = plan_.writer()[node];
    std::size_t size = not_fixed;
    const auto sum = [&](const std::vector<std::uint32_t>& parts) {
      std::size_t total = 0;
      for (const std::uint32_t part : parts) {
        const std::size_t s = fixed_size(part, depth + 1);
        if (s == not_fixed) return not_fixed;
        total += s;
      }
      return total;
    };
    switch (n.kind) {
      case schema_kind::scalar:
      case schema_kind::enumeration:
        size = scalar_bytes(n.scalar);
        break;
      case schema_kind::none:
        size = 0;
        break;
      case schema_kind::tuple:
      case schema_kind::duration:
        size = sum(n.children);
        break;
      case schema_kind::record:
        if (!n.flag) size = sum(n.children);
        break;
      case schema_kind::array: {
        const std::size_t element = fixed_size(n.children[0], depth + 1);
        if (element != not_fixed && (element == 0 || n.count <= remaining() / element))
          size = element * static_cast<std::size_t>(n.count);
        break;
      }
      default:
        break;
    }
    known = size;
    return size;
  }
  static std::size_t scalar_bytes(scalar_kind k) {
    switch (k) {
      case scalar_kind::boolean:
        return scalar_size<bool>();
      case scalar_kind::i8:
        return scalar_size<std::int8_t>();
      case scalar_kind::u8:
        return scalar_size<std::uint8_t>();
      case scalar_kind::i16:
        return scalar_size<std::int16_t>();
      case scalar_kind::u16:
        return scalar_size<std::uint16_t>();
      case scalar_kind::i32:
        return scalar_size<std::int32_t>();
      case scalar_kind::u32:
        return scalar_size<std::uint32_t>();
      case scalar_kind::i64:
        return scalar_size<std::int64_t>();
      case scalar_kind::u64:
        return scalar_size<std::uint64_t>();
      case scalar_kind::f32:
        return scalar_size<float>();
      case scalar_kind::f64:
        return scalar_size<double>();
      default:
        return not_fixed;
    }
  }

  template <class F>
  void call_element(F& f, std::size_t i) {
    if constexpr (std::is_invocable_v<F&, resolving_reader&, std::size_t>)
      f(*this, i);
    else
      f(*this);
  }

  Inner& inner_;
  const resolution& plan_;
  stack_mark start_;  // where the read began: resolved reads and skips recurse per level
  std::uint32_t root_ = 0;
  cursor cursor_{0, &root_, 1, 0, false};
  std::vector<std::size_t> fixed_sizes_;  // per writer node, in this format; filled as needed
};

}  // namespace bale::detail

namespace bale {

namespace detail {
/// Tells the context what the plan knows that the data does not say: which types described by
/// hand were written without a version.
inline void expect_versions(read_context& context, const resolution& plan) {
  for (const std::string& name : plan.unversioned_types())
    context.parts().get<version_table>().add_unversioned(name);
}

/// Reads a T from bytes of the plan's writer schema, with a context the caller set up.
template <class Format, class T>
void deserialize_resolved_in(read_context& context, std::span<const std::byte> bytes,
                             const resolution& plan, T& value) {
  expect_versions(context, plan);
  typename Format::reader inner(bytes, context);
  resolving_reader<typename Format::reader> ar(inner, plan);
  ar(value);
  require_consumed(inner);
}

/// Reads a T from bytes in Format written with the plan's writer schema, or with T's own when
/// there is no plan. Byte formats follow the plan; formats that name members on the wire read
/// them by name, members the type lacks skipped and those the data lacks at their defaults.
template <class Format, class T>
void deserialize_planned(read_context& context, std::span<const std::byte> bytes,
                         const resolution* plan, T& value) {
  if (plan != nullptr) {
    if constexpr (packed_format<Format>) {
      return deserialize_resolved_in<Format>(context, bytes, *plan, value);
    } else {
      expect_versions(context, *plan);
      allow_other_members(context);
    }
  }
  deserialize_in<Format>(context, bytes, value);
}

/// Refuses a plan that data in a format naming its members cannot follow: such formats store a
/// variant's position, so alternatives that moved would be misread, and find a member by its name,
/// so a member the writer renamed would be skipped and read as its default.
inline void require_followable(const resolution& plan, bool names_on_wire,
                               std::string_view format) {
  if (names_on_wire && plan.moves_alternatives())
    throw error(errc::wrong_type,
                detail::error_text({"a variant's alternatives moved, which ", format,
                                    " data cannot follow (it stores their positions)"}));
  if (names_on_wire && plan.renames_by_writer())
    throw error(
        errc::wrong_type,
        detail::error_text({"a member was renamed by the writer's type (bale::former_names), "
                            "which ",
                            format, " data cannot follow (it finds members by their names)"}));
}

/// The plan for reading data of `writer_schema` as T; throws errc::wrong_type (or
/// errc::invalid_value for a text that is no schema) when there is none.
template <class T>
resolution resolution_for(std::string_view writer_schema) {
  return resolution(parse_schema(writer_schema), parse_schema(schema_of<T>().text()));
}
}  // namespace detail

/// Reads `bytes`, written in Format (binary or compact) by a type whose schema text is
/// `writer_schema` (bale::schema_of<W>().text() on the writing side; a file carries it), into a T:
/// data of an older or newer layout, resolved by the rules of bale/schema/resolution.hpp. Equal
/// schemas read as deserialize does. Throws errc::wrong_type, naming the member, when the
/// schemas do not resolve, before any byte of the value is read.
template <class T, format Format = binary>
void deserialize_as(std::span<const std::byte> bytes, std::string_view writer_schema, T& value,
                    const limits& lim = {}) {
  detail::read_context context(lim);
  if (writer_schema == schema_of<T>().text()) {
    detail::deserialize_in<Format>(context, bytes, value);
    return;
  }
  detail::deserialize_resolved_in<Format>(context, bytes, detail::resolution_for<T>(writer_schema),
                                          value);
}

template <class T, format Format = binary>
T deserialize_as(std::span<const std::byte> bytes, std::string_view writer_schema,
                 const limits& lim = {}) {
  T value = T();
  deserialize_as<T, Format>(bytes, writer_schema, value, lim);
  return value;
}

}  // namespace bale
