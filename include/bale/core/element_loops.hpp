// SPDX-License-Identifier: BSL-1.0
#pragma once
// Whether writing a T runs a loop of archive calls, one or more per element: a sequence, set or
// map whose elements are not copied as bytes, a pointer graph, or a type described by hand (whose
// structure is not known). Read from the serializers' schema shapes. The writer compiles a message
// with such a loop as a pass of its own (core/serialize.hpp), where the loop keeps the sink's
// cursor in registers; a message without one is cheaper written inline.

#include <cstddef>
#include <type_traits>

#include "bale/core/schema_shape.hpp"
#include "bale/core/wire.hpp"

namespace bale::detail {

template <class T>
struct has_element_loop;

/// Unknown structure: assumed to loop.
template <class Shape>
struct shape_loops : std::true_type {};

template <class A>
struct shape_loops<schema::scalar<A>> : std::false_type {};
template <class E>
struct shape_loops<schema::enumeration<E>> : std::false_type {};
template <class C>
struct shape_loops<schema::text<C>> : std::false_type {};
template <std::size_t N>
struct shape_loops<schema::bits<N>> : std::false_type {};
template <>
struct shape_loops<schema::none> : std::false_type {};
template <class Rep, class Period>
struct shape_loops<schema::duration<Rep, Period>> : std::false_type {};
template <class D>
struct shape_loops<schema::time_point<D>> : std::false_type {};
// A run of values copied as bytes (or written by the codec's own loop) is no loop of calls.
template <class E>
inline constexpr bool copied_as_bytes =
    wire_compatible<E> || std::is_arithmetic_v<E> || std::is_enum_v<E>;
template <class E>
struct shape_loops<schema::sequence<E>> : std::bool_constant<!copied_as_bytes<E>> {};
template <class E, std::size_t N>
struct shape_loops<schema::fixed<E, N>> : std::bool_constant<!copied_as_bytes<E>> {};
template <class... Es>
struct shape_loops<schema::tuple<Es...>>
    : std::bool_constant<(false || ... || has_element_loop<Es>::value)> {};
template <class T>
struct shape_loops<schema::optional<T>> : has_element_loop<T> {};
template <class... As>
struct shape_loops<schema::variant<As...>>
    : std::bool_constant<(false || ... || has_element_loop<As>::value)> {};
template <class T>
struct shape_loops<schema::same_as<T>> : has_element_loop<T> {};

template <class Shape>
struct members_loop : std::true_type {};
template <class... Ms>
struct members_loop<wire::product<Ms...>>
    : std::bool_constant<(false || ... || has_element_loop<Ms>::value)> {};
template <class T>
struct shape_loops<schema::record<T, false>> : members_loop<typename wire_shape_of<T>::type> {};

template <class T>
struct has_element_loop : std::true_type {};
template <class T>
requires requires {
  typename serializer<T>::schema_shape;
}
struct has_element_loop<T> : shape_loops<typename serializer<T>::schema_shape> {};

/// True when writing any of Ts runs a loop of archive calls.
template <class... Ts>
inline constexpr bool loops_over_elements = (false || ... ||
                                             has_element_loop<std::remove_cv_t<Ts>>::value);

}  // namespace bale::detail
