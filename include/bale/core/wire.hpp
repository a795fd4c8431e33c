// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a serializer tells formats about its encoding, so that formats can size, bounds-check and
// copy in bulk without knowing any type:
//   using wire_shape = wire::scalar<U> | wire::product<Ts...> | wire::repeat<T, N>
//                    | wire::length_prefixed | wire::flag_prefixed | wire::index_prefixed;
//   static constexpr bool wire_compatible;  // memory bytes == binary wire bytes on little-endian
// A serializer that declares a schema_shape (core/schema_shape.hpp) of a standard structure and no
// wire_shape has the wire shape of that structure: a sequence is length-prefixed, an optional or
// a pointer flag-prefixed, a fixed count a repeat, a tuple a product. A serializer that declares
// neither is opaque: no fixed size, minimum size 0, never memcpy'd.

#include <cstddef>
#include <type_traits>

#include "bale/core/schema_shape.hpp"
#include "bale/fwd.hpp"

namespace bale::wire {

template <class Arithmetic>
struct scalar {};
template <class... Members>
struct product {};
template <class Element, std::size_t Count>
struct repeat {};
struct length_prefixed {};
struct flag_prefixed {};
struct index_prefixed {};
struct opaque {};

}  // namespace bale::wire

namespace bale {

/// Encoded size facts of a type in one codec: `min` bytes at least, exactly `min` if `fixed`.
struct wire_size {
  std::size_t min = 0;
  bool fixed = false;
};

namespace detail {

template <class T>
concept has_wire_shape = requires {
  typename serializer<T>::wire_shape;
};
template <class T>
concept has_schema_shape = requires {
  typename serializer<T>::schema_shape;
};

template <class T>
struct wire_shape_of;

/// The wire shape a schema shape implies; opaque where it implies none (a record, bits, a
/// structure the same as another type's).
template <class Schema>
struct wire_of_schema {
  using type = wire::opaque;
};
template <class A>
struct wire_of_schema<schema::scalar<A>> {
  using type = wire::scalar<A>;
};
template <class E>
struct wire_of_schema<schema::enumeration<E>> {
  using type = wire::scalar<std::underlying_type_t<E>>;
};
template <class C>
struct wire_of_schema<schema::text<C>> {
  using type = wire::length_prefixed;
};
template <class E>
struct wire_of_schema<schema::sequence<E>> {
  using type = wire::length_prefixed;
};
template <class K>
struct wire_of_schema<schema::set<K>> {
  using type = wire::length_prefixed;
};
template <class K, class V>
struct wire_of_schema<schema::map<K, V>> {
  using type = wire::length_prefixed;
};
template <class E, std::size_t N>
struct wire_of_schema<schema::fixed<E, N>> {
  using type = wire::repeat<E, N>;
};
template <class... Es>
struct wire_of_schema<schema::tuple<Es...>> {
  using type = wire::product<Es...>;
};
template <class T>
struct wire_of_schema<schema::optional<T>> {
  using type = wire::flag_prefixed;
};
template <schema::owner O, class T>
struct wire_of_schema<schema::pointer<O, T>> {
  using type = wire::flag_prefixed;
};
template <>
struct wire_of_schema<schema::none> {
  using type = wire::product<>;
};
template <class... As>
struct wire_of_schema<schema::variant<As...>> {
  using type = wire::index_prefixed;
};
template <class Rep, class Period>
struct wire_of_schema<schema::duration<Rep, Period>> {
  using type = typename wire_shape_of<Rep>::type;
};
template <class Duration>
struct wire_of_schema<schema::time_point<Duration>> {
  using type = typename wire_shape_of<Duration>::type;
};

template <class T>
struct wire_shape_of {
  using type = wire::opaque;
};
template <has_schema_shape T>
requires(!has_wire_shape<T>) struct wire_shape_of<T> {
  using type = typename wire_of_schema<typename serializer<T>::schema_shape>::type;
};
template <has_wire_shape T>
struct wire_shape_of<T> {
  using type = typename serializer<T>::wire_shape;
};

template <class Codec, class Shape>
struct shape_size {
  static constexpr wire_size value{};
};

}  // namespace detail

/// wire_size_of<Codec, T>: fixed or minimum encoded size of T under a codec's scalar encodings.
template <class Codec, class T>
inline constexpr wire_size wire_size_of =
    detail::shape_size<Codec, typename detail::wire_shape_of<std::remove_cv_t<T>>::type>::value;

namespace detail {

template <class Codec, class U>
struct shape_size<Codec, wire::scalar<U>> {
  static constexpr wire_size value = Codec::template scalar_size<U>;
};
template <class Codec, class... Ms>
struct shape_size<Codec, wire::product<Ms...>> {
  static constexpr wire_size value{(std::size_t{0} + ... + wire_size_of<Codec, Ms>.min),
                                   (true && ... && wire_size_of<Codec, Ms>.fixed)};
};
template <class Codec, class E, std::size_t N>
struct shape_size<Codec, wire::repeat<E, N>> {
  static constexpr wire_size value{N * wire_size_of<Codec, E>.min,
                                   N == 0 || wire_size_of<Codec, E>.fixed};
};
template <class Codec>
struct shape_size<Codec, wire::length_prefixed> {
  static constexpr wire_size value{Codec::length_size.min, false};
};
template <class Codec>
struct shape_size<Codec, wire::flag_prefixed> {
  static constexpr wire_size value{Codec::flag_size.min, false};
};
template <class Codec>
struct shape_size<Codec, wire::index_prefixed> {
  static constexpr wire_size value{Codec::index_size.min, false};
};

template <class Shape>
inline constexpr bool is_composite_shape = false;
template <class... Ms>
inline constexpr bool is_composite_shape<wire::product<Ms...>> = true;
template <class E, std::size_t N>
inline constexpr bool is_composite_shape<wire::repeat<E, N>> = true;

/// True for products and repeats: values made of several encoded parts.
template <class T>
inline constexpr bool composite_wire_shape =
    is_composite_shape<typename wire_shape_of<std::remove_cv_t<T>>::type>;

template <class T>
concept declares_wire_compatible = requires {
  { serializer<T>::wire_compatible } -> std::convertible_to<bool>;
};

}  // namespace detail

namespace detail {
template <class T>
struct wire_compatible_trait : std::false_type {};
template <declares_wire_compatible T>
struct wire_compatible_trait<T> : std::bool_constant<serializer<T>::wire_compatible> {};
}  // namespace detail

/// True when T's bytes in memory are exactly its binary wire bytes on a little-endian machine, so
/// a contiguous run of T can move as one memcpy.
template <class T>
inline constexpr bool wire_compatible = detail::wire_compatible_trait<std::remove_cv_t<T>>::value;

}  // namespace bale
