// SPDX-License-Identifier: BSL-1.0
#pragma once
// Decoding by schema: the bytes of a byte format (binary, compact) read into a bale::value from
// the writer's schema alone, with no C++ type, as bale-inspect shows a file. Every read goes
// through the archive contract, so lengths, allocation and nesting are checked as for a typed
// read; a hostile schema cannot do more: each node read counts one level against
// limits::max_depth, and a fixed count (an array, a bitset) is charged to the allocation budget
// before it is read.
//
//   bale::schema_tree schema = bale::parse_schema(text);
//   bale::value v = bale::decode_by_schema<bale::binary>(schema, bytes);
//   std::string json = bale::to_json(v);
//
// What the value holds, per schema form: scalars as numbers (char as a one-character string),
// an enum as its listed name (its number when unnamed), strings as strings (wide strings as
// arrays of code units), sequences, sets, arrays and tuples as arrays, a map with string keys as
// an object and any other map as an array of [key, value] pairs, an optional as null or its
// value, a variant as [index, value] (as bale's JSON writes it), a record as an object
// (members a defaults-omitting record left out are absent), a bitset as its 64-bit words,
// durations and time points as their tick counts. Pointers and opaque types cannot be decoded
// without their C++ type: errc::wrong_type naming the form.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/read_context.hpp"
#include "bale/schema/stack_mark.hpp"
#include "bale/schema/tree.hpp"
#include "bale/schema/value.hpp"
#include "bale/types/string.hpp"

namespace bale {

namespace detail {

/// Reads values by schema. With Build false it only steps over them (resolve.hpp's skip of a
/// member the type lacks): the same checks, nothing built, nothing held.
template <class Archive, bool Build = true>
class schema_decoder {
  static_assert(!Archive::self_describing,
                "bale: decoding by schema is for byte formats; JSON and MessagePack describe "
                "themselves");

 public:
  /// `start`: where the read began, when this decoder serves a larger one (resolve.hpp).
  schema_decoder(Archive& ar, const schema_tree& tree, stack_mark start = {})
      : ar_(ar), tree_(tree), start_(start) {}

  value read(std::uint32_t n) {
    const limits& lim = ar_.context().limits();
    if (++depth_ > lim.max_depth)
      ar_.fail(errc::depth_exceeded,
               detail::error_text({"schema nesting deeper than ", lim.max_depth}));
    if (start_.used() > lim.max_stack_bytes)
      ar_.fail(errc::depth_exceeded,
               detail::error_text({"schema nesting deeper than ", lim.max_stack_bytes,
                                   " bytes of stack allow (limits::max_stack_bytes)"}));
    value v = read_node(tree_[n]);
    --depth_;
    return v;
  }

 private:
  template <class T>
  T scalar() {
    T x{};
    ar_(x);
    return x;
  }
  template <class T>
  value number() {
    const T x = scalar<T>();
    if constexpr (std::is_floating_point_v<T>)
      return static_cast<double>(x);
    else if constexpr (std::is_signed_v<T>)
      return static_cast<std::int64_t>(x);
    else
      return static_cast<std::uint64_t>(x);
  }
  value read_scalar(scalar_kind k) {
    switch (k) {
      case scalar_kind::boolean:
        return scalar<bool>();
      case scalar_kind::character:
        return std::string(1, scalar<char>());
      case scalar_kind::char8:
        return number<char8_t>();
      case scalar_kind::char16:
        return number<char16_t>();
      case scalar_kind::char32:
        return number<char32_t>();
      case scalar_kind::wchar16:
        return number<char16_t>();  // the same bytes as a 16-bit wchar_t
      case scalar_kind::wchar32:
        return number<char32_t>();
      case scalar_kind::i8:
        return number<std::int8_t>();
      case scalar_kind::i16:
        return number<std::int16_t>();
      case scalar_kind::i32:
        return number<std::int32_t>();
      case scalar_kind::i64:
        return number<std::int64_t>();
      case scalar_kind::u8:
        return number<std::uint8_t>();
      case scalar_kind::u16:
        return number<std::uint16_t>();
      case scalar_kind::u32:
        return number<std::uint32_t>();
      case scalar_kind::u64:
        return number<std::uint64_t>();
      case scalar_kind::f32:
        return number<float>();
      case scalar_kind::f64:
        return number<double>();
      case scalar_kind::f80:
      case scalar_kind::f128:
        ar_.fail(errc::wrong_type, "bale writes no long double values");
    }
    return {};
  }
  template <class Ch>
  value code_units() {
    std::basic_string<Ch> s;
    ar_(s);
    if constexpr (!Build) return {};
    charge_allocation(ar_, s.size(), sizeof(value));
    value::array units;
    units.reserve(s.size());
    for (const Ch c : s) units.emplace_back(static_cast<std::uint64_t>(c));
    return units;
  }
  value read_text(scalar_kind k) {
    switch (k) {
      case scalar_kind::character:
        return scalar<std::string>();
      case scalar_kind::char8: {
        const auto s = scalar<std::u8string>();
        return std::string(s.begin(), s.end());
      }
      case scalar_kind::char16:
      case scalar_kind::wchar16:
        return code_units<char16_t>();
      case scalar_kind::char32:
      case scalar_kind::wchar32:
        return code_units<char32_t>();
      default:
        ar_.fail(errc::wrong_type, "a string of a non-character type");
    }
  }
  value read_enum(const schema_node& s) {
    const value raw = read_scalar(s.scalar);
    if constexpr (!Build) return {};
    std::int64_t bits = 0;
    if (const auto* i = raw.get_if<std::int64_t>())
      bits = *i;
    else if (const auto* u = raw.get_if<std::uint64_t>())
      bits = static_cast<std::int64_t>(*u);
    else if (const auto* c = raw.get_if<std::string>())
      bits = (*c)[0];
    else
      ar_.fail(errc::wrong_type, "an enum over a non-integer type");
    const std::size_t i = enum_name(s, bits);
    if (i == s.values.size()) return raw;
    charge_allocation(ar_, 1, s.names[i].size());
    return s.names[i];
  }
  // Which name an enum's value has (the first listed), or values.size(): a long list is sorted
  // once per schema node and searched, so that every value read costs log(names).
  std::size_t enum_name(const schema_node& s, std::int64_t bits) {
    constexpr std::size_t scanned = 16;
    if (s.values.size() <= scanned) {
      for (std::size_t i = 0; i < s.values.size(); ++i)
        if (s.values[i] == bits) return i;
      return s.values.size();
    }
    std::vector<std::pair<std::int64_t, std::size_t>>& index = enum_indexes_[&s];
    if (index.empty()) {
      index.reserve(s.values.size());
      for (std::size_t i = 0; i < s.values.size(); ++i) index.emplace_back(s.values[i], i);
      std::sort(index.begin(), index.end());
    }
    const auto found =
        std::lower_bound(index.begin(), index.end(), std::pair<std::int64_t, std::size_t>{bits, 0});
    return found != index.end() && found->first == bits ? found->second : s.values.size();
  }

  template <class F>
  value::array elements(F&& read_element) {
    value::array out;
    ar_.template read_sequence<value>(
        [&](std::size_t n) {
          if constexpr (Build) out.reserve(n);
        },
        [&](auto&) { keep(out, read_element()); });
    return out;
  }
  // A count from the schema as a size, on any platform: one past SIZE_MAX cannot be paid for.
  template <class Count>
  std::size_t to_size(Count count) {
    if (count > SIZE_MAX) fail_allocation(ar_);
    return static_cast<std::size_t>(count);
  }
  value::array fixed(std::uint64_t count, std::uint32_t element) {
    const std::size_t n = to_size(count);
    value::array out;
    if constexpr (Build) {
      charge_allocation(ar_, n, sizeof(value));
      out.reserve(n);
    }
    ar_.read_tuple(n, [&] {
      for_each_index(n, [&](std::size_t) {
        // The count is the schema's, not paid for by the input: an element that takes no
        // bytes counts against the empty-element limits, as in a sequence.
        const std::size_t before = ar_.offset();
        keep(out, read(element));
        if (ar_.offset() == before && !ar_.context().try_count_empty(sizeof(value)))
          ar_.fail(errc::element_limit,
                   detail::error_text({"more elements that take no bytes than the limits allow (",
                                       ar_.context().limits().max_empty_elements, " elements, ",
                                       ar_.context().limits().max_empty_bytes, " bytes)"}));
      });
    });
    return out;
  }
  value read_bits(std::uint64_t count) {
    const std::uint64_t words = count / 64 + (count % 64 != 0);
    if constexpr (Build) charge_allocation(ar_, to_size(words), sizeof(value));
    value::array out;
    for (std::uint64_t i = 0; i < words; ++i) keep(out, scalar<std::uint64_t>());
    return out;
  }
  value read_map(const schema_node& s) {
    const bool named = tree_[s.children[0]].kind == schema_kind::text &&
                       tree_[s.children[0]].scalar == scalar_kind::character;
    value::array pairs;
    value::object members;
    ar_.template read_map<std::pair<value, value>>(
        [&](std::size_t n) {
          if constexpr (Build) named ? members.reserve(n) : pairs.reserve(n);
        },
        [&](auto&) {
          value key = read(s.children[0]);
          value mapped = read(s.children[1]);
          if constexpr (!Build) return;
          if (named) {
            members.emplace_back(std::move(*key.get_if<std::string>()), std::move(mapped));
          } else {
            charge_allocation(ar_, 2, sizeof(value));
            pairs.push_back(value::array{std::move(key), std::move(mapped)});
          }
        });
    if (named) return members;
    return pairs;
  }
  value read_record(const schema_node& s) {
    const std::size_t count = s.names.size();
    // Every record read holds copies of its member names: paid for by the budget, as a typed
    // read's strings are, or a small input could make a large schema's names many times over.
    if constexpr (Build) {
      std::size_t names = 0;
      for (const std::string& name : s.names) names += name.size();
      charge_allocation(ar_, 1, count * sizeof(value::object::value_type) + names);
    }
    std::vector<std::uint8_t> mask(s.flag ? (count + 7) / 8 : 0);
    value::object members;
    if constexpr (Build) members.reserve(count);
    const std::size_t at = ar_.offset();
    if (s.flag) {
      ar_.read_contiguous(mask.data(), mask.size());
      if (count % 8 != 0 && mask.back() >> (count % 8) != 0)
        ar_.fail_at(errc::invalid_value, "presence mask has bits past the last member", at);
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (s.flag && (mask[i / 8] >> (i % 8) & 1U) == 0) continue;
      within_field(s.names[i], [&] {
        value member = read(s.children[i]);
        if constexpr (Build) members.emplace_back(s.names[i], std::move(member));
      });
    }
    return members;
  }
  value read_variant(const schema_node& s) {
    value out;
    ar_.read_variant(s.children.size(), [&](std::size_t i) {
      value alternative = read(s.children[i]);
      if constexpr (Build) {
        charge_allocation(ar_, 2, sizeof(value));
        out = value::array{std::uint64_t{i}, std::move(alternative)};
      }
    });
    return out;
  }
  value read_optional(std::uint32_t child) {
    value out;
    ar_.read_optional([&] { out = read(child); });
    return out;
  }
  [[noreturn]] void undecodable(const schema_node& s) {
    if (s.kind == schema_kind::opaque)
      ar_.fail(errc::wrong_type, "the type " + s.names[0] +
                                     " is described by hand: its structure is not in the schema");
    ar_.fail(errc::wrong_type,
             detail::error_text({"a ", owner_names[static_cast<std::size_t>(s.owner)],
                                 " pointer is decoded only with its C++ type"}));
  }

  value read_node(const schema_node& s) {
    switch (s.kind) {
      case schema_kind::scalar:
        return read_scalar(s.scalar);
      case schema_kind::enumeration:
        return read_enum(s);
      case schema_kind::text:
        return read_text(s.scalar);
      case schema_kind::bits:
        return read_bits(s.count);
      case schema_kind::sequence:
      case schema_kind::set:
        return elements([&] { return read(s.children[0]); });
      case schema_kind::array:
        return fixed(s.count, s.children[0]);
      case schema_kind::map:
        return read_map(s);
      case schema_kind::tuple: {
        if constexpr (Build) charge_allocation(ar_, s.children.size(), sizeof(value));
        value::array out;
        ar_.read_tuple(s.children.size(), [&] {
          for (const std::uint32_t child : s.children) keep(out, read(child));
        });
        return out;
      }
      case schema_kind::optional:
        return read_optional(s.children[0]);
      case schema_kind::none:
        return {};
      case schema_kind::variant:
        return read_variant(s);
      case schema_kind::record:
        return read_record(s);
      case schema_kind::duration:
        return read(s.children[0]);
      case schema_kind::time_point:
        return read(s.children[0]);
      case schema_kind::pointer:
      case schema_kind::opaque:
        undecodable(s);
    }
    return {};
  }

  static void keep(value::array& out, value&& v) {
    if constexpr (Build) out.push_back(std::move(v));
  }

  Archive& ar_;
  const schema_tree& tree_;
  stack_mark start_;
  std::unordered_map<const schema_node*, std::vector<std::pair<std::int64_t, std::size_t>>>
      enum_indexes_;
  std::size_t depth_ = 0;
};

}  // namespace detail

/// Reads `bytes`, written in Format (binary or compact) for a type whose schema is `schema`, into
/// a value. Throws bale::error as a typed read would (offset and member path), and
/// errc::trailing_bytes when the value ends before the bytes do.
template <format Format>
value decode_by_schema(const schema_tree& schema, std::span<const std::byte> bytes,
                       const limits& lim = {}) {
  detail::read_context context(lim);
  typename Format::reader ar(bytes, context);
  value v = detail::schema_decoder<typename Format::reader>(ar, schema).read(0);
  if (ar.remaining() != 0)
    ar.fail(errc::trailing_bytes, detail::error_text({ar.remaining(), " bytes after the value"}));
  return v;
}

}  // namespace bale
