// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::can_read<Reader, Writer>: whether data written by one C++ type reads into another by
// schema resolution (the rules of bale/schema/resolution.hpp), answered at compile time. Keep
// yesterday's type in a namespace and check both directions in a test:
//
//   static_assert(bale::can_read<v2::hero, v1::hero>);   // today's build reads yesterday's data
//   static_assert(bale::can_read<v1::hero, v2::hero>);   // yesterday's build reads today's
//
// bale::why_not<Reader, Writer>() says where it fails: the innermost member (empty at the top)
// and what differs, at run time; static_assert(bale::check_can_read<Reader, Writer>()) fails to
// compile with both in its first error line. Types described by hand must be the same type; enums
// are checked by their underlying integers (a value whose name the reader lacks fails when it is
// read, not here).

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bale/core/member_rules.hpp"
#include "bale/core/schema_shape.hpp"
#include "bale/core/serializer.hpp"
#include "bale/schema/resolution.hpp"
#include "bale/schema/schema_of.hpp"

namespace bale {

/// The answer of why_not: `ok`, or the member where reading fails and why.
struct readability {
  bool ok = true;
  std::string_view member;
  std::string_view reason;
};

namespace detail::readable {

template <class... Pairs>
struct seen {};
template <class R, class W>
struct pair {};

template <class P, class Seen>
inline constexpr bool met = false;
template <class P, class... Pairs>
inline constexpr bool met<P, seen<Pairs...>> = (std::is_same_v<P, Pairs> || ...);

template <class Seen, class P>
struct with;
template <class... Pairs, class P>
struct with<seen<Pairs...>, P> {
  using type = seen<Pairs..., P>;
};

template <class T>
struct shape_of {
  using type = void;  // described by hand: known by its type only
};
template <class T>
requires has_schema_shape<T>
struct shape_of<T> {
  using type = typename serializer<T>::schema_shape;
};
template <class T>
using shape = typename shape_of<std::remove_cv_t<T>>::type;

template <class S>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<schema::optional<T>> = true;

template <class S>
struct same_as_target {};
template <class T>
struct same_as_target<schema::same_as<T>> {
  using type = T;
};
template <class S>
struct optional_value {};
template <class T>
struct optional_value<schema::optional<T>> {
  using type = T;
};

constexpr readability fails(std::string_view reason) {
  return {false, {}, reason};
}
// A failure inside member `name` keeps the innermost member's name.
constexpr readability inside(std::string_view name, readability r) {
  if (!r.ok && r.member.empty()) r.member = name;
  return r;
}

template <class R, class W, class Seen>
constexpr readability check();

// The types a shape is made of, resolved pairwise.
template <class Seen, class... Rs, class... Ws>
constexpr readability all(schema::tuple<Rs...>*, schema::tuple<Ws...>*) {
  readability r;
  ((r.ok ? (void)(r = check<Rs, Ws, Seen>()) : (void)0), ...);
  return r;
}

// The reader's members matched to the writer's by name.
template <class T>
struct record_parts;
template <class T>
requires(description_of<T>() == description::aggregate) struct record_parts<T> {
  using names = aggregate_names<T>;
  using members = aggregate_members<T>;
};
template <class T>
requires(description_of<T>() != description::aggregate) struct record_parts<T> {
  using names = macro_names<T>;
  using members = typename macro_members<T>::wire_shape;
};

template <class P, std::size_t I>
struct member_at;
template <class... Ms, std::size_t I>
struct member_at<wire::product<Ms...>, I> {
  using type = std::tuple_element_t<I, std::tuple<Ms...>>;
};

// Which of RT's members member `wi` of WT reads into: the one of its name, the one that declares
// its name as a former name, or the one whose name it declares as its own former name
// (bale::former_names, seen from either side); RT's member count when none does.
template <class RT, class WT>
constexpr std::size_t reader_index(std::size_t wi) {
  using reader_names = typename record_parts<RT>::names;
  constexpr std::size_t count = std::size(reader_names::value);
  const std::string_view name = record_parts<WT>::names::value[wi];
  // As a reader of a format that names members finds it (core/member_rules.hpp), then by the
  // writer's own former names.
  if (const std::size_t k = member_named<reader_names>(name, wi); k != count) return k;
  for (const former_name& rename : former_names<WT>)
    if (rename.member == name)
      if (const std::size_t k = member_named<reader_names>(rename.was); k != count) return k;
  return count;
}

// Two of WT's members onto one of RT's would read it twice; records with no member in common
// are two records, not one evolved (unless neither has a member).
template <class RT, class WT>
constexpr readability members_match() {
  using reader_names = typename record_parts<RT>::names;
  constexpr std::size_t count = std::size(reader_names::value);
  constexpr std::size_t writer_count = std::size(record_parts<WT>::names::value);
  std::array<bool, count + 1> taken{};
  std::size_t matched = 0;
  for (std::size_t wi = 0; wi < writer_count; ++wi) {
    const std::size_t j = reader_index<RT, WT>(wi);
    if (j == count) continue;
    if (taken[j])
      return inside(reader_names::value[j], fails("two members of the data read into this one"));
    taken[j] = true;
    ++matched;
  }
  if (matched == 0 && (count != 0 || writer_count != 0))
    return fails("another record: no member of the data is a member of the type");
  return {};
}

template <class RT, class WT, class Seen, std::size_t WI>
constexpr readability member() {
  using reader_names = typename record_parts<RT>::names;
  constexpr std::string_view name = record_parts<WT>::names::value[WI];
  constexpr std::size_t j = reader_index<RT, WT>(WI);
  if constexpr (j == std::size(reader_names::value)) {
    return {};  // skipped
  } else {
    using R = typename member_at<typename record_parts<RT>::members, j>::type;
    using W = typename member_at<typename record_parts<WT>::members, WI>::type;
    return inside(name, check<R, W, Seen>());
  }
}
template <class RT, class WT, class Seen, std::size_t... WI>
constexpr readability members(std::index_sequence<WI...>) {
  readability r;
  ((r.ok ? (void)(r = member<RT, WT, Seen, WI>()) : (void)0), ...);
  return r;
}
template <class P>
inline constexpr std::size_t count_of = 0;
template <class... Ms>
inline constexpr std::size_t count_of<wire::product<Ms...>> = sizeof...(Ms);

template <class R, class W, class Seen, class SR, class SW>
constexpr readability by_shape(SR*, SW*) {
  return fails("another kind of value");
}
template <class R, class W, class Seen, class A, class B>
constexpr readability by_shape(schema::scalar<A>*, schema::scalar<B>*) {
  return widens(scalar_kind_of<B>(), scalar_kind_of<A>())
             ? readability{}
             : fails("a narrower or other kind of number");
}
template <class R, class W, class Seen, class A, class B>
constexpr readability by_shape(schema::enumeration<A>*, schema::enumeration<B>*) {
  return widens(scalar_kind_of<std::underlying_type_t<B>>(),
                scalar_kind_of<std::underlying_type_t<A>>())
             ? readability{}
             : fails("a narrower underlying type");
}
template <class R, class W, class Seen, class A, class B>
constexpr readability by_shape(schema::text<A>*, schema::text<B>*) {
  return std::is_same_v<A, B> ? readability{} : fails("text of another character type");
}
template <class R, class W, class Seen, class A, class B>
constexpr readability by_shape(schema::sequence<A>*, schema::sequence<B>*) {
  return check<A, B, Seen>();
}
// A fixed number of elements (std::array, a C array) reads into a sequence of them.
template <class R, class W, class Seen, class A, class B, std::size_t M>
constexpr readability by_shape(schema::sequence<A>*, schema::fixed<B, M>*) {
  return check<A, B, Seen>();
}
template <class R, class W, class Seen, class A, class B>
constexpr readability by_shape(schema::set<A>*, schema::set<B>*) {
  return check<A, B, Seen>();
}
template <class R, class W, class Seen, class A, std::size_t N, class B, std::size_t M>
constexpr readability by_shape(schema::fixed<A, N>*, schema::fixed<B, M>*) {
  if constexpr (N != M)
    return fails("another count");
  else
    return check<A, B, Seen>();
}
template <class R, class W, class Seen, class K1, class V1, class K2, class V2>
constexpr readability by_shape(schema::map<K1, V1>*, schema::map<K2, V2>*) {
  const readability key = check<K1, K2, Seen>();
  return key.ok ? check<V1, V2, Seen>() : key;
}
template <class R, class W, class Seen, class... A, class... B>
constexpr readability by_shape(schema::tuple<A...>*, schema::tuple<B...>*) {
  if constexpr (sizeof...(A) != sizeof...(B))
    return fails("another arity");
  else
    return all<Seen>(static_cast<schema::tuple<A...>*>(nullptr),
                     static_cast<schema::tuple<B...>*>(nullptr));
}
template <class R, class W, class Seen, class A, class B>
constexpr readability by_shape(schema::optional<A>*, schema::optional<B>*) {
  return check<A, B, Seen>();
}
template <class R, class W, class Seen>
constexpr readability by_shape(schema::none*, schema::none*) {
  return {};
}
template <class... Ts>
inline constexpr bool all_named = ((!stable_name<std::remove_cv_t<Ts>>.empty()) && ...);

// The reader's alternative A against the writer's W when they have the same stable name.
template <class Seen, class W, class A>
constexpr readability same_name_alternative() {
  if constexpr (stable_name<std::remove_cv_t<A>> == stable_name<std::remove_cv_t<W>>)
    return check<A, W, Seen>();
  else
    return {};
}
// The writer's alternative W against the reader's of its name; none is an error only when read.
template <class Seen, class W, class... A>
constexpr readability named_alternative() {
  readability r;
  ((r.ok ? (void)(r = same_name_alternative<Seen, W, A>()) : (void)0), ...);
  return inside(stable_name<std::remove_cv_t<W>>, r);
}

template <class R, class W, class Seen, class... A, class... B>
constexpr readability by_shape(schema::variant<A...>*, schema::variant<B...>*) {
  if constexpr (all_named<A...> && all_named<B...>) {
    readability r;
    ((r.ok ? (void)(r = named_alternative<Seen, B, A...>()) : (void)0), ...);
    return r;
  } else if constexpr (sizeof...(B) > sizeof...(A))
    return fails("fewer alternatives");
  else
    return []<std::size_t... I>(std::index_sequence<I...>) {
      readability r;
      ((r.ok ? (void)(r = check<std::tuple_element_t<I, std::tuple<A...>>,
                                std::tuple_element_t<I, std::tuple<B...>>, Seen>())
             : (void)0),
       ...);
      return r;
    }
  (std::index_sequence_for<B...>{});
}
// The first of RT's members that no member of WT reads into and that the rules every format
// reads by (core/member_rules.hpp) refuse to go without: a required one.
template <class RT, class WT>
constexpr readability missing_members_settled() {
  using reader_names = typename record_parts<RT>::names;
  constexpr std::size_t writer_count = std::size(record_parts<WT>::names::value);
  constexpr std::size_t reader_count = std::size(reader_names::value);
  constexpr member_rules rules = member_rules::of_other_schema();
  std::array<bool, reader_count + 1> written{};
  for (std::size_t wi = 0; wi < writer_count; ++wi)
    written[std::min(reader_index<RT, WT>(wi), reader_count)] = true;
  for (std::size_t j = 0; j < reader_count; ++j) {
    if (!written[j] && is_refused(rules.when_missing(member_required<reader_names>(j), false)))
      return inside(reader_names::value[j], fails("a required member the data lacks"));
  }
  return {};
}

template <class R, class W, class Seen, class A, bool OA, class B, bool OB>
constexpr readability by_shape(schema::record<A, OA>*, schema::record<B, OB>*) {
  using parts = typename record_parts<B>::members;
  const readability matching = members_match<A, B>();
  if (!matching.ok) return matching;
  const readability r = members<A, B, Seen>(std::make_index_sequence<count_of<parts>>{});
  return r.ok ? missing_members_settled<A, B>() : r;
}
template <class R, class W, class Seen, class RA, class PA, class RB, class PB>
constexpr readability by_shape(schema::duration<RA, PA>*, schema::duration<RB, PB>*) {
  if constexpr (PA::num != PB::num || PA::den != PB::den)
    return fails("another period");
  else
    return check<RA, RB, Seen>();
}
template <class R, class W, class Seen, class A, class B>
constexpr readability by_shape(schema::time_point<A>*, schema::time_point<B>*) {
  return check<A, B, Seen>();
}
template <class R, class W, class Seen, schema::owner O1, class A, schema::owner O2, class B>
constexpr readability by_shape(schema::pointer<O1, A>*, schema::pointer<O2, B>*) {
  return O1 == O2 && std::is_same_v<std::remove_cv_t<A>, std::remove_cv_t<B>>
             ? readability{}
             : fails("another pointer");
}

template <class R, class W, class Seen>
constexpr readability check() {
  using SR = shape<R>;
  using SW = shape<W>;
  using P = pair<std::remove_cv_t<R>, std::remove_cv_t<W>>;
  if constexpr (std::is_same_v<std::remove_cv_t<R>, std::remove_cv_t<W>> || met<P, Seen>) {
    return {};
  } else if constexpr (std::is_void_v<SR> || std::is_void_v<SW>) {
    return fails("a type described by hand, not the same type");
  } else if constexpr (requires { typename same_as_target<SR>::type; }) {
    return check<typename same_as_target<SR>::type, W, Seen>();
  } else if constexpr (requires { typename same_as_target<SW>::type; }) {
    return check<R, typename same_as_target<SW>::type, Seen>();
  } else if constexpr (is_optional<SR> && !is_optional<SW>) {
    return check<typename optional_value<SR>::type, W, Seen>();
  } else if constexpr (is_optional<SW> && !is_optional<SR>) {
    return check<R, typename optional_value<SW>::type, Seen>();
  } else {
    using next = typename with<Seen, P>::type;
    return by_shape<R, W, next>(static_cast<SR*>(nullptr), static_cast<SW*>(nullptr));
  }
}

}  // namespace detail::readable

/// Whether data written by Writer reads into Reader, and if not, where and why.
template <class Reader, class Writer>
constexpr readability why_not() {
  return detail::readable::check<Reader, Writer, detail::readable::seen<>>();
}

/// Whether data written by Writer reads into Reader by schema resolution.
template <class Reader, class Writer>
inline constexpr bool can_read = why_not<Reader, Writer>().ok;

namespace detail {
// A text as a template argument: the compiler prints it in the name of the type below.
template <std::size_t N>
struct shown_text {
  char chars[N]{};
  constexpr explicit shown_text(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) chars[i] = text[i];
  }
};
// Never defined: naming it is the error, and its arguments are the member and the reason.
template <shown_text Member, shown_text Reason>
struct cannot_read_member;
}  // namespace detail

/// true when data written by Writer reads into Reader; otherwise a compile error whose first line
/// names the member and why (GCC prints both texts; Clang their characters' codes):
///   static_assert(bale::check_can_read<v2::hero, v1::hero>());
template <class Reader, class Writer>
constexpr bool check_can_read() {
  constexpr readability r = why_not<Reader, Writer>();
  if constexpr (!r.ok) {
    constexpr detail::shown_text<r.member.size() + 1> member(r.member);
    constexpr detail::shown_text<r.reason.size() + 1> reason(r.reason);
    static_assert(sizeof(detail::cannot_read_member<member, reason>) == 0,
                  "bale: Reader cannot read Writer's data: the member and the reason are the "
                  "arguments of cannot_read_member above (bale::why_not gives them at run time)");
  }
  return true;
}

}  // namespace bale
