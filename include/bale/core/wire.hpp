// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a serializer tells formats about its encoding, so that formats can size, bounds-check and
// copy in bulk without knowing any type:
//   using wire_shape = wire::scalar<U> | wire::product<Ts...> | wire::repeat<T, N>
//                    | wire::length_prefixed | wire::flag_prefixed | wire::index_prefixed;
//   static constexpr bool wire_compatible;  // memory bytes == binary wire bytes on little-endian
// A serializer that declares neither is opaque: no fixed size, minimum size 0, never memcpy'd.

#include <cstddef>
#include <type_traits>

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
struct wire_shape_of {
  using type = wire::opaque;
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
