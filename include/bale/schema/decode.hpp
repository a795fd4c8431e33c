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

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/read_context.hpp"
#include "bale/schema/tree.hpp"
#include "bale/schema/value.hpp"
#include "bale/types/string.hpp"

namespace bale {

namespace detail {

template <class Archive>
class schema_decoder {
  static_assert(!Archive::self_describing,
                "bale: decoding by schema is for byte formats; JSON and MessagePack describe "
                "themselves");

 public:
  schema_decoder(Archive& ar, const schema_tree& tree) : ar_(ar), tree_(tree) {}

  value read(std::uint32_t n) {
    if (++depth_ > ar_.context().limits().max_depth)
      ar_.fail(errc::depth_exceeded, detail::error_text({"schema nesting deeper than ",
                                                         ar_.context().limits().max_depth}));
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
    std::int64_t bits = 0;
    if (const auto* i = raw.get_if<std::int64_t>())
      bits = *i;
    else if (const auto* u = raw.get_if<std::uint64_t>())
      bits = static_cast<std::int64_t>(*u);
    else if (const auto* c = raw.get_if<std::string>())
      bits = (*c)[0];
    else
      ar_.fail(errc::wrong_type, "an enum over a non-integer type");
    for (std::size_t i = 0; i < s.values.size(); ++i)
      if (s.values[i] == bits) return s.names[i];
    return raw;
  }

  template <class F>
  value::array elements(F&& read_element) {
    value::array out;
    ar_.template read_sequence<value>([&](std::size_t n) { out.reserve(n); },
                                      [&](auto&) { out.push_back(read_element()); });
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
    charge_allocation(ar_, n, sizeof(value));
    value::array out;
    out.reserve(n);
    ar_.read_tuple(n,
                   [&] { for_each_index(n, [&](std::size_t) { out.push_back(read(element)); }); });
    return out;
  }
  value read_bits(std::uint64_t count) {
    const std::uint64_t words = count / 64 + (count % 64 != 0);
    charge_allocation(ar_, to_size(words), sizeof(value));
    value::array out;
    for (std::uint64_t i = 0; i < words; ++i) out.emplace_back(scalar<std::uint64_t>());
    return out;
  }
  value read_map(const schema_node& s) {
    const bool named = tree_[s.children[0]].kind == schema_kind::text &&
                       tree_[s.children[0]].scalar == scalar_kind::character;
    value::array pairs;
    value::object members;
    ar_.template read_map<std::pair<value, value>>(
        [&](std::size_t n) { named ? members.reserve(n) : pairs.reserve(n); },
        [&](auto&) {
          value key = read(s.children[0]);
          value mapped = read(s.children[1]);
          if (named)
            members.emplace_back(std::move(*key.get_if<std::string>()), std::move(mapped));
          else
            pairs.push_back(value::array{std::move(key), std::move(mapped)});
        });
    if (named) return members;
    return pairs;
  }
  value read_record(const schema_node& s) {
    const std::size_t count = s.names.size();
    std::vector<std::uint8_t> mask(s.flag ? (count + 7) / 8 : 0);
    value::object members;
    members.reserve(count);
    const std::size_t at = ar_.offset();
    if (s.flag) {
      ar_.read_contiguous(mask.data(), mask.size());
      if (count % 8 != 0 && mask.back() >> (count % 8) != 0)
        ar_.fail_at(errc::invalid_value, "presence mask has bits past the last member", at);
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (s.flag && (mask[i / 8] >> (i % 8) & 1U) == 0) continue;
      within_field(s.names[i], [&] { members.emplace_back(s.names[i], read(s.children[i])); });
    }
    return members;
  }
  value read_variant(const schema_node& s) {
    value out;
    ar_.read_variant(s.children.size(), [&](std::size_t i) {
      out = value::array{std::uint64_t{i}, read(s.children[i])};
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
        value::array out;
        ar_.read_tuple(s.children.size(), [&] {
          for (const std::uint32_t child : s.children) out.push_back(read(child));
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

  Archive& ar_;
  const schema_tree& tree_;
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
