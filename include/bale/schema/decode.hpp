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
#include <optional>
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
#include "bale/schema/bulk_sizes.hpp"
#include "bale/schema/stack_mark.hpp"
#include "bale/schema/tree.hpp"
#include "bale/schema/value.hpp"
#include "bale/schema/value_builder.hpp"
#include "bale/types/string.hpp"

namespace bale {

namespace detail {

/// Reads values by schema, each made by Builder (bale/schema/value_builder.hpp): a bale::value,
/// nothing (resolve.hpp's skip of a member the type lacks: the same checks, nothing held), or a
/// caller's own tree.
template <class Archive, class Builder = value_builder>
class schema_decoder {
  static_assert(!Archive::self_describing,
                "bale: decoding by schema is for byte formats; JSON and MessagePack describe "
                "themselves");

 public:
  using node = typename Builder::node;

  /// `start`: where the read began, when this decoder serves a larger one (resolve.hpp).
  schema_decoder(Archive& ar, const schema_tree& tree, stack_mark start = {}, Builder builder = {})
      : ar_(ar), tree_(tree), start_(start), b_(std::move(builder)) {}

  node read(std::uint32_t n) {
    const limits& lim = ar_.context().limits();
    if (++depth_ > lim.max_depth)
      ar_.fail(errc::depth_exceeded,
               detail::error_text({"schema nesting deeper than ", lim.max_depth}));
    if (start_.used() > lim.max_stack_bytes)
      ar_.fail(errc::depth_exceeded,
               detail::error_text({"schema nesting deeper than ", lim.max_stack_bytes,
                                   " bytes of stack allow (limits::max_stack_bytes)"}));
    node v = read_node(tree_[n]);
    --depth_;
    return v;
  }
  Builder& builder() noexcept { return b_; }

 private:
  static constexpr bool builds = Builder::builds;
  static constexpr bool takes_records = requires(Builder & b, const schema_node& e) {
    b.record_run(e, std::span<const std::byte>{}, std::size_t{});
  };
  static constexpr bool takes_numbers = requires(Builder & b) {
    b.template number_array<double>(std::vector<double>{});
  };

  template <class T>
  T scalar() {
    T x{};
    ar_(x);
    return x;
  }
  // f.template operator()<T>() for the C++ type a scalar kind is written as.
  template <class F>
  node with_scalar(scalar_kind k, F&& f) {
    switch (k) {
      case scalar_kind::boolean:
        return f.template operator()<bool>();
      case scalar_kind::character:
        return f.template operator()<char>();
      case scalar_kind::char8:
        return f.template operator()<char8_t>();
      case scalar_kind::char16:
      case scalar_kind::wchar16:  // the same bytes as a 16-bit wchar_t
        return f.template operator()<char16_t>();
      case scalar_kind::char32:
      case scalar_kind::wchar32:
        return f.template operator()<char32_t>();
      case scalar_kind::i8:
        return f.template operator()<std::int8_t>();
      case scalar_kind::i16:
        return f.template operator()<std::int16_t>();
      case scalar_kind::i32:
        return f.template operator()<std::int32_t>();
      case scalar_kind::i64:
        return f.template operator()<std::int64_t>();
      case scalar_kind::u8:
        return f.template operator()<std::uint8_t>();
      case scalar_kind::u16:
        return f.template operator()<std::uint16_t>();
      case scalar_kind::u32:
        return f.template operator()<std::uint32_t>();
      case scalar_kind::u64:
        return f.template operator()<std::uint64_t>();
      case scalar_kind::f32:
        return f.template operator()<float>();
      case scalar_kind::f64:
        return f.template operator()<double>();
      case scalar_kind::f80:
      case scalar_kind::f128:
        ar_.fail(errc::wrong_type, "bale writes no long double values");
    }
    return {};
  }
  node read_scalar(scalar_kind k) {
    return with_scalar(k, [&]<class T>() -> node {
      if constexpr (std::is_same_v<T, bool>)
        return b_.boolean(scalar<bool>());
      else if constexpr (std::is_same_v<T, char>)
        return b_.character(scalar<char>());
      else
        return b_.number(scalar<T>());
    });
  }
  template <class Ch>
  node code_units() {
    std::basic_string<Ch> s;
    ar_(s);
    if constexpr (!builds) return {};
    charge_allocation(ar_, s.size(), sizeof(value));
    return b_.code_units(s);
  }
  node read_text(scalar_kind k) {
    switch (k) {
      case scalar_kind::character:
        return b_.text(scalar<std::string>());
      case scalar_kind::char8: {
        const auto s = scalar<std::u8string>();
        return b_.text(std::string(s.begin(), s.end()));
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
  node read_enum(const schema_node& s) {
    return with_scalar(s.scalar, [&]<class T>() -> node {
      const T x = scalar<T>();
      if constexpr (std::is_same_v<T, bool> || std::is_floating_point_v<T>) {
        ar_.fail(errc::wrong_type, "an enum over a non-integer type");
      } else {
        if constexpr (!builds) return {};
        const std::size_t i = enum_name(s, static_cast<std::int64_t>(x));
        if (i == s.values.size()) {
          if constexpr (std::is_same_v<T, char>)
            return b_.character(x);
          else
            return b_.number(x);
        }
        charge_allocation(ar_, 1, s.names[i].size());
        return b_.enum_name(s, i);
      }
    });
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

  node elements(const schema_node& s) {
    if constexpr (takes_numbers) {
      const schema_node& e = tree_[s.children[0]];
      if (s.kind == schema_kind::sequence && e.kind == schema_kind::scalar && is_number(e.scalar))
        return with_scalar(e.scalar, [&]<class T>() -> node { return numbers<T>(); });
    }
    if constexpr (takes_records) {
      const schema_node& e = tree_[s.children[0]];
      if (s.kind == schema_kind::sequence && e.kind == schema_kind::record) {
        if (!sizes_) sizes_.emplace(tree_);
        const std::size_t size = sizes_->of(s.children[0]);
        if (size != 0) {
          const std::span<const std::byte> bytes = ar_.read_sized_elements(size);
          return b_.record_run(e, bytes, bytes.size() / size);
        }
      }
    }
    typename Builder::list out;
    ar_.template read_sequence<value>(
        [&](std::size_t n) {
          if constexpr (builds) out = b_.start_list(s.kind, n);
        },
        [&](auto&) { keep(out, read(s.children[0])); });
    return b_.finish_list(std::move(out), s);
  }
  template <class T>
  static constexpr bool plain_number = std::is_floating_point_v<T> ||
                                       (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                        !std::is_same_v<T, char> && !std::is_same_v<T, char8_t> &&
                                        !std::is_same_v<T, char16_t> &&
                                        !std::is_same_v<T, char32_t>);
  static constexpr bool is_number(scalar_kind k) noexcept {
    return (k >= scalar_kind::i8 && k <= scalar_kind::u64) || k == scalar_kind::f32 ||
           k == scalar_kind::f64;
  }
  // A sequence of numbers, for a builder that takes them whole: the input's bytes where they are
  // the elements as memory holds them, otherwise decoded into a vector (charged as a typed read).
  template <class T>
  node numbers() {
    if constexpr (plain_number<T>) {
      if constexpr (Archive::template bulk<T>) {
        const std::span<const std::byte> bytes = ar_.template read_element_bytes<T>();
        return b_.template number_run<T>(bytes, bytes.size() / sizeof(T));
      } else {
        std::vector<T> decoded;
        ar_(decoded);
        return b_.number_array(std::move(decoded));
      }
    }
    return {};
  }
  // A fixed array of numbers, for a builder that takes them whole. The count is the schema's:
  // the input pays for it before anything is made.
  template <class T>
  node fixed_numbers(std::size_t n) {
    if constexpr (plain_number<T>) {
      if constexpr (Archive::template bulk<T>) {
        if (n > ar_.remaining() / sizeof(T))
          ar_.fail(errc::end_of_input, detail::error_text({"need ", n, " elements of ", sizeof(T),
                                                           " bytes, ", ar_.remaining(), " left"}));
        return b_.template number_run<T>({ar_.take(n * sizeof(T)), n * sizeof(T)}, n);
      } else {
        if (n > ar_.remaining()) ar_.fail(errc::end_of_input, "fewer bytes left than elements");
        charge_allocation(ar_, n, sizeof(T));
        std::vector<T> decoded(n);
        ar_.read_tuple(n, [&] {
          for (T& x : decoded) ar_(x);
        });
        return b_.number_array(std::move(decoded));
      }
    }
    return {};
  }
  // A count from the schema as a size, on any platform: one past SIZE_MAX cannot be paid for.
  template <class Count>
  std::size_t to_size(Count count) {
    if (count > SIZE_MAX) fail_allocation(ar_);
    return static_cast<std::size_t>(count);
  }
  node fixed(const schema_node& s) {
    const std::size_t n = to_size(s.count);
    const std::uint32_t element = s.children[0];
    if constexpr (takes_numbers) {
      const schema_node& e = tree_[element];
      if (e.kind == schema_kind::scalar && is_number(e.scalar))
        return with_scalar(e.scalar, [&]<class T>() -> node { return fixed_numbers<T>(n); });
    }
    typename Builder::list out;
    if constexpr (builds) {
      charge_allocation(ar_, n, sizeof(value));
      out = b_.start_list(schema_kind::array, n);
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
    return b_.finish_list(std::move(out), s);
  }
  node read_bits(const schema_node& s) {
    const std::uint64_t words = s.count / 64 + (s.count % 64 != 0);
    typename Builder::list out;
    if constexpr (builds) {
      charge_allocation(ar_, to_size(words), sizeof(value));
      out = b_.start_list(schema_kind::bits, static_cast<std::size_t>(words));
    }
    for (std::uint64_t i = 0; i < words; ++i) keep(out, b_.number(scalar<std::uint64_t>()));
    return b_.finish_list(std::move(out), s);
  }
  node read_map(const schema_node& s) {
    const bool named = tree_[s.children[0]].kind == schema_kind::text &&
                       tree_[s.children[0]].scalar == scalar_kind::character;
    typename Builder::map out;
    ar_.template read_map<std::pair<value, value>>(
        [&](std::size_t n) {
          if constexpr (builds) out = b_.start_map(named, n);
        },
        [&](auto&) {
          node key = read(s.children[0]);
          node mapped = read(s.children[1]);
          if constexpr (!builds) return;
          if (!named) charge_allocation(ar_, 2, sizeof(value));
          b_.map_entry(out, std::move(key), std::move(mapped));
        });
    return b_.finish_map(std::move(out));
  }
  node read_record(const schema_node& s) {
    const std::size_t count = s.names.size();
    // Every record read holds copies of its member names: paid for by the budget, as a typed
    // read's strings are, or a small input could make a large schema's names many times over.
    typename Builder::record out;
    if constexpr (builds) {
      std::size_t names = 0;
      for (const std::string& name : s.names) names += name.size();
      charge_allocation(ar_, 1, count * sizeof(value::object::value_type) + names);
      out = b_.start_record(s);
    }
    std::vector<std::uint8_t> mask(s.flag ? (count + 7) / 8 : 0);
    const std::size_t at = ar_.offset();
    if (s.flag) {
      ar_.read_contiguous(mask.data(), mask.size());
      if (count % 8 != 0 && mask.back() >> (count % 8) != 0)
        ar_.fail_at(errc::invalid_value, "presence mask has bits past the last member", at);
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (s.flag && (mask[i / 8] >> (i % 8) & 1U) == 0) continue;
      within_field(s.names[i], [&] {
        node member = read(s.children[i]);
        if constexpr (builds) b_.member(out, s, i, std::move(member));
      });
    }
    return b_.finish_record(std::move(out), s);
  }
  node read_variant(const schema_node& s) {
    node out{};
    ar_.read_variant(s.children.size(), [&](std::size_t i) {
      node alternative = read(s.children[i]);
      if constexpr (builds) {
        charge_allocation(ar_, 2, sizeof(value));
        out = b_.variant(i, std::move(alternative));
      }
    });
    return out;
  }
  node read_optional(std::uint32_t child) {
    node out = b_.none();
    ar_.read_optional([&] { out = read(child); });
    return out;
  }
  node read_tuple(const schema_node& s) {
    typename Builder::list out;
    if constexpr (builds) {
      charge_allocation(ar_, s.children.size(), sizeof(value));
      out = b_.start_list(schema_kind::tuple, s.children.size());
    }
    ar_.read_tuple(s.children.size(), [&] {
      for (const std::uint32_t child : s.children) keep(out, read(child));
    });
    return b_.finish_list(std::move(out), s);
  }
  [[noreturn]] void undecodable(const schema_node& s) {
    if (s.kind == schema_kind::opaque)
      ar_.fail(errc::wrong_type, "the type " + s.names[0] +
                                     " is described by hand: its structure is not in the schema");
    ar_.fail(errc::wrong_type,
             detail::error_text({"a ", owner_names[static_cast<std::size_t>(s.owner)],
                                 " pointer is decoded only with its C++ type"}));
  }

  node read_node(const schema_node& s) {
    switch (s.kind) {
      case schema_kind::scalar:
        return read_scalar(s.scalar);
      case schema_kind::enumeration:
        return read_enum(s);
      case schema_kind::text:
        return read_text(s.scalar);
      case schema_kind::bits:
        return read_bits(s);
      case schema_kind::sequence:
      case schema_kind::set:
        return elements(s);
      case schema_kind::array:
        return fixed(s);
      case schema_kind::map:
        return read_map(s);
      case schema_kind::tuple:
        return read_tuple(s);
      case schema_kind::optional:
        return read_optional(s.children[0]);
      case schema_kind::none:
        return b_.none();
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

  void keep(typename Builder::list& out, node&& v) {
    if constexpr (builds) b_.append(out, std::move(v));
  }

  Archive& ar_;
  const schema_tree& tree_;
  stack_mark start_;
  Builder b_;
  std::unordered_map<const schema_node*, std::vector<std::pair<std::int64_t, std::size_t>>>
      enum_indexes_;
  std::size_t depth_ = 0;
  std::optional<bulk_sizes<Archive>> sizes_;  // made when a builder takes runs of records
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
