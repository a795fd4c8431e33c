// SPDX-License-Identifier: BSL-1.0
#pragma once
// The archive contract: every verb a serializer<T> may call on an archive, every trait it may ask,
// and what each callback must do. Serializers (bale/types/, user types) speak only this; a format
// implements it once for writing and once for reading, and then every type works with it.
// docs/extending.md walks through it with examples.
//
// Traits of both sides
//   is_loading, is_saving  exactly one is true
//   self_describing        names and structure are on the wire (JSON, MessagePack): omit_defaults
//                          types write every member (readers fill absent ones)
//   bulk<T>                a contiguous run of T moves as one memcpy between memory and the wire
//   human_readable         optional, false when not declared: values are text meant for people
//                          (JSON), so a type with a conventional text form writes it (a
//                          system_clock time point as RFC 3339 text); detail::human_readable<A>
//
// Output verbs (each writes one value; callbacks run exactly once, in the order given)
//   write_scalar(v)                  bool, characters, integers, floats
//   write_text(string_view)          a string of any character type
//   write_enum(e)                    an enumerator: its underlying value, or in a format that
//                                    names things, the name its enum lists (bale::enum_names)
//   write_none()                     a value that holds nothing (std::monostate): no bytes, or a
//                                    null where a value must stand
//   write_sequence(n, f)             n elements follow; f() writes them with ar(element)
//   write_contiguous_sequence(p, n)  n elements at p, as write_sequence would write them
//   write_contiguous(p, n)           n elements at p whose count both sides know (no length)
//   write_tuple(n, f)                n values whose count both sides know; f() writes them
//   write_map<Key>(n, f)             n entries; f() calls write_map_entry(k, v) for each
//   write_object<Names>(m...)        a reflected type: Names::value[i] names member i
//   write_composite(f)               a hand-described type; f() calls ar(...) or write_field
//   write_field(name, v)             a named value inside write_composite
//   write_version(v)                 first inside write_composite, at most once: a versioned
//                                    type's version (core/version.hpp), stored in a form the
//                                    reader's read_version finds
//   write_optional(present, f)       f() writes the value if present
//   write_variant(index, f)          f() writes the alternative
//   fail(code, detail)               throws bale::error
//   context()                        the write_context of this call
//   write_null_pointer(role), write_object_reference(role, number, claim),
//   write_new_object(role, number, type, outermost, write_bodies)
//                                    a pointer (core/pointers.hpp, which says what each means)
//   write_deferred_sequence(f)       formats that use the shared named pointer form only
//                                    (core/named_pointers.hpp): a sequence whose length f()
//                                    returns after writing it
//   write_shaped_contiguous_sequence(p, n, shape), write_shaped_sequence<T>(n, shape, f)
//                                    optional (core/shaped_sequence.hpp): the elements of an
//                                    array whose extents, in the order the elements run, are
//                                    `shape`; a format that nests lists writes one per index.
//                                    f(write_run) calls write_run(p, k) for runs of them in
//                                    order. Without them: write_contiguous_sequence, and
//                                    write_sequence with the runs through write_contiguous
//
// Input verbs (the same shapes; the archive checks lengths against the input and charges what the
// callbacks will allocate to the read_context's budget before calling them)
//   read_scalar(v), read_text(basic_string&), read_enum(e), read_none(),
//   read_view<T>() -> span into the input
//   read_sequence<E>(on_count, on_element)   on_count(n) at most once, before any element, with a
//                                            count the input has paid for (a hint: formats that
//                                            learn the count at the end do not call it);
//                                            on_element(ar) or on_element(ar, i) once per element
//   read_sequence_into<T>(target)            a sequence into contiguous memory:
//                                            target.resize(n) -> T* is called one or more times;
//                                            each call keeps the elements read so far (the first
//                                            min(old, n)) and the last call's n is the length
//   read_contiguous_sequence<T>(on_bytes)    only when bulk<T>: on_bytes(src, n) copies n
//                                            elements from the wire
//   read_shaped_sequence_into<T>(target, shape)  optional: read_sequence_into of an array's
//                                            elements, whose nested lists the format checks
//                                            against `shape`
//   read_contiguous(p, n), read_tuple(n, f), read_map<Entry>(on_count, on_entry) with
//   read_map_entry(k, v), read_object<Names>(m...), read_composite(f), read_field(name, v),
//   read_optional(on_present), read_variant(count, on_index(i)) with i < count checked,
//   read_version() -> std::uint32_t (first inside read_composite, where write_version wrote one)
//   read_pointer(role, handler)      a pointer: tells the graph's handler what it found
//                                    (core/pointers.hpp)
//   offset(), remaining(), fail(code, detail), fail_at(code, detail, offset), context()

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "bale/core/error.hpp"
#include "bale/core/pointers.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/write_context.hpp"

namespace bale::detail::contract {

// Stand-ins that the concepts below pass where serializers pass their lambdas.
struct action {
  void operator()() const;
};
struct element_reader {
  template <class Archive>
  void operator()(Archive&) const;
};
struct count_hint {
  void operator()(std::size_t) const;
};
struct int_target {
  int* resize(std::size_t);
};
struct byte_copier {
  void operator()(const std::byte*, std::size_t) const;
};
struct index_reader {
  void operator()(std::size_t) const;
};
// Asked whether it moves in bulk: a class no serializer specialisation matches, so that asking
// instantiates nothing a header included later could still specialise.
struct opaque {
  opaque() = delete;  // user-declared: not an aggregate, so not reflected either
};
enum class an_enum : int {};
struct two_names {
  static constexpr std::array<std::string_view, 2> value{"a", "b"};
};
struct body_writer {
  std::uint32_t operator()() const;
};
// What read_pointer tells the graph (core/pointers.hpp).
struct pointer_handler {
  using body_type = int;
  bool typed() const;
  void reference(std::uint64_t, std::size_t);
  template <class ReadBodies>
  void fresh(const object_type_read&, std::optional<std::uint64_t>, std::size_t, ReadBodies&&);
  template <class Archive>
  void read_all_bodies(Archive&);
  template <class Archive>
  bool read_one_body(Archive&);
  bool bodies_left();
};

}  // namespace bale::detail::contract

namespace bale {

/// An archive that writes pointers: null, a reference to an earlier object, a new object
/// (core/pointers.hpp). A format without these verbs fails here, and so output_archive.
template <class A>
concept writes_pointers = requires(A& ar, detail::pointer_role role, std::uint32_t number,
                                   const detail::object_type& type,
                                   detail::contract::body_writer bodies) {
  ar.write_null_pointer(role);
  ar.write_object_reference(role, number, true);
  ar.write_new_object(role, number, type, true, bodies);
};

/// An archive that reads pointers, telling the graph what it found (core/pointers.hpp). A format
/// without read_pointer fails here, and so input_archive.
template <class A>
concept reads_pointers = requires(A& ar, detail::pointer_role role,
                                  detail::contract::pointer_handler& handler) {
  ar.read_pointer(role, handler);
};

/// An archive that writes: the verbs serializer<T>::save may call.
template <class A>
concept output_archive =
    writes_pointers<A> && A::is_saving && !A::is_loading &&
    requires(A & ar, const int& i, const int* p, std::size_t n, detail::contract::action f) {
  { A::self_describing } -> std::convertible_to<bool>;
  { A::template bulk<detail::contract::opaque> } -> std::convertible_to<bool>;
  ar(i, i);
  ar.write_scalar(0);
  ar.write_scalar(0.0);
  ar.write_scalar(true);
  ar.write_text(std::string_view{});
  ar.write_enum(detail::contract::an_enum{});
  ar.write_none();
  ar.write_sequence(n, f);
  ar.write_contiguous_sequence(p, n);
  ar.write_contiguous(p, n);
  ar.write_tuple(n, f);
  ar.template write_map<int>(n, f);
  ar.write_map_entry(i, i);
  ar.template write_object<detail::contract::two_names>(i, i);
  ar.write_composite(f);
  ar.write_field(std::string_view{}, i);
  ar.write_version(std::uint32_t{1});
  ar.write_optional(true, f);
  ar.write_variant(n, f);
  ar.fail(errc::invalid_value, std::string{});
  { ar.context() } -> std::same_as<detail::write_context&>;
};

/// An archive that reads: the verbs serializer<T>::load may call.
template <class A>
concept input_archive = reads_pointers<A> && A::is_loading && !A::is_saving &&
                        requires(A & ar, int& i, int* p, std::size_t n, std::string& s,
                                 detail::contract::action f, detail::contract::an_enum& e) {
  { A::self_describing } -> std::convertible_to<bool>;
  { A::template bulk<detail::contract::opaque> } -> std::convertible_to<bool>;
  ar(i, i);
  ar.read_scalar(i);
  ar.read_text(s);
  ar.read_enum(e);
  ar.read_none();
  { ar.template read_view<char>() } -> std::same_as<std::span<const char>>;
  ar.template read_sequence<int>(detail::contract::count_hint{},
                                 detail::contract::element_reader{});
  ar.template read_sequence_into<int>(std::declval<detail::contract::int_target&>());
  ar.read_contiguous(p, n);
  ar.read_tuple(n, f);
  ar.template read_map<std::pair<int, int>>(detail::contract::count_hint{},
                                            detail::contract::element_reader{});
  ar.read_map_entry(i, i);
  ar.template read_object<detail::contract::two_names>(i, i);
  ar.read_composite(f);
  ar.read_field(std::string_view{}, i);
  { ar.read_version() } -> std::same_as<std::uint32_t>;
  ar.read_optional(f);
  ar.read_variant(n, detail::contract::index_reader{});
  { ar.offset() } -> std::convertible_to<std::size_t>;
  { ar.remaining() } -> std::convertible_to<std::size_t>;
  ar.fail(errc::invalid_value, std::string{});
  ar.fail_at(errc::invalid_value, std::string{}, n);
  { ar.context() } -> std::same_as<detail::read_context&>;
};

}  // namespace bale

namespace bale::detail {

/// The optional trait: whether the archive's values are text meant for people.
template <class Archive>
inline constexpr bool human_readable = requires {
  requires Archive::human_readable;
};

}  // namespace bale::detail
