// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::value: any value bale writes, held without its C++ type, as a JSON document would hold
// it: null, a bool, an integer, a double, a string, an array or an object with ordered members.
// It is what decoding by schema gives (bale/schema/decode.hpp), and it writes as JSON
// (bale::to_json) or MessagePack through the usual entry points.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bale/core/serializer.hpp"

namespace bale {

class value {
 public:
  using array = std::vector<value>;
  using object = std::vector<std::pair<std::string, value>>;
  using storage = std::variant<std::nullptr_t, bool, std::int64_t, std::uint64_t, double,
                               std::string, array, object>;

  value() = default;
  template <class T>
  requires std::is_constructible_v<storage, T&&> value(
      T&& v)  // NOLINT: implicit, as a JSON literal reads
      : data_(std::forward<T>(v)) {}

  const storage& data() const noexcept { return data_; }
  storage& data() noexcept { return data_; }
  bool is_null() const noexcept { return data_.index() == 0; }
  template <class T>
  const T* get_if() const noexcept {
    return std::get_if<T>(&data_);
  }
  /// The member named `name` of an object, or nullptr.
  const value* find(std::string_view name) const noexcept {
    if (const auto* members = get_if<object>())
      for (const auto& [key, member] : *members)
        if (key == name) return &member;
    return nullptr;
  }
  friend bool operator==(const value&, const value&) = default;

 private:
  storage data_;
};

/// Writes a value as the JSON document it holds (null as null, an object as an object).
template <>
struct serializer<value> {
  template <class Archive>
  static void save(Archive& ar, const value& v) {
    const value::storage& d = v.data();
    switch (d.index()) {
      case 0:
        ar.write_optional(false, [] {});
        break;
      case 1:
        ar.write_scalar(std::get<bool>(d));
        break;
      case 2:
        ar.write_scalar(std::get<std::int64_t>(d));
        break;
      case 3:
        ar.write_scalar(std::get<std::uint64_t>(d));
        break;
      case 4:
        ar.write_scalar(std::get<double>(d));
        break;
      case 5:
        ar.write_text(std::string_view(std::get<std::string>(d)));
        break;
      case 6: {
        const auto& elements = std::get<value::array>(d);
        ar.write_sequence(elements.size(), [&] {
          for (const value& e : elements) ar(e);
        });
        break;
      }
      default: {
        const auto& members = std::get<value::object>(d);
        ar.template write_map<std::string>(members.size(), [&] {
          for (const auto& [key, member] : members) ar.write_map_entry(key, member);
        });
      }
    }
  }
};

}  // namespace bale
