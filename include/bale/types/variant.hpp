// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::variant: the index of the alternative, then its value. std::monostate takes no bytes.

#include <array>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <variant>

#include "bale/core/error.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <>
struct serializer<std::monostate> {
  using schema_shape = schema::none;

  // Nothing in byte formats; null in formats that name things, where a value must stand.
  template <class Archive>
  static void save(Archive& ar, const std::monostate&) {
    ar.write_none();
  }
  template <class Archive>
  static void load(Archive& ar, std::monostate&) {
    ar.read_none();
  }
};

template <class... Ts>
struct serializer<std::variant<Ts...>> {
  using schema_shape = schema::variant<Ts...>;
  using variant = std::variant<Ts...>;

  template <class Archive>
  static void save(Archive& ar, const variant& value) {
    if (value.valueless_by_exception())
      throw std::invalid_argument("bale: cannot serialize a valueless std::variant");
    ar.write_variant(value.index(), [&] { std::visit([&](const auto& v) { ar(v); }, value); });
  }
  template <class Archive>
  static void load(Archive& ar, variant& value) {
    ar.read_variant(sizeof...(Ts), [&](std::size_t index) { load_alternative(ar, value, index); });
  }

 private:
  template <class Archive, std::size_t I>
  static void load_at(Archive& ar, variant& value) {
    ar(value.template emplace<I>());
  }
  // A table of one loader per alternative turns the run-time index into a compile-time one.
  template <class Archive>
  static void load_alternative(Archive& ar, variant& value, std::size_t index) {
    constexpr auto table = []<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<void (*)(Archive&, variant&), sizeof...(I)>{&load_at<Archive, I>...};
    }
    (std::index_sequence_for<Ts...>{});
    table[index](ar, value);
  }
};

}  // namespace bale
