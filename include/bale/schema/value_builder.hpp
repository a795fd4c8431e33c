// SPDX-License-Identifier: BSL-1.0
#pragma once
// What decoding by schema (bale/schema/decode.hpp) builds, as a policy: the decoder reads and
// checks, a builder makes the values. value_builder makes a bale::value; skip_builder makes
// nothing (a member the reader's type lacks, stepped over). A builder of its own (the Python
// module's makes Python objects) gets the same reads and the same checks.
//
// A builder has a `node` type and, for every schema form, a verb that makes one: none(),
// boolean(b), number(x) for every integer and floating-point width, character(c), text(s),
// code_units(s) for a string of char16_t or char32_t, enum_name(node, i); lists (sequences,
// sets, arrays, tuples, a bitset's words) through start_list / append / finish_list; maps through
// start_map / map_entry / finish_map; records through start_record / member / finish_record;
// variant(i, alternative). `builds` false says nothing is made, so the decoder skips the work
// of making it. Optionally, number_run<T>(bytes, count) takes a sequence of numbers whose bytes
// are the elements as memory holds them (binary), and number_array<T>(std::vector<T>&&) one that
// had to be decoded (compact's varints), and record_run(record, bytes, count) a sequence of
// records made of numbers at fixed places (bulk_sizes, decode.hpp); without them each
// element is read on its own.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "bale/schema/tree.hpp"
#include "bale/schema/value.hpp"

namespace bale::detail {

struct value_builder {
  using node = value;
  using list = value::array;
  struct map {
    bool named = false;
    value::array pairs;
    value::object members;
  };
  using record = value::object;
  static constexpr bool builds = true;

  node none() { return {}; }
  node boolean(bool b) { return b; }
  template <class T>
  node number(T x) {
    if constexpr (std::is_floating_point_v<T>)
      return static_cast<double>(x);
    else if constexpr (std::is_signed_v<T>)
      return static_cast<std::int64_t>(x);
    else
      return static_cast<std::uint64_t>(x);
  }
  node character(char c) { return std::string(1, c); }
  node text(std::string&& s) { return std::move(s); }
  template <class Ch>
  node code_units(const std::basic_string<Ch>& s) {
    value::array units;
    units.reserve(s.size());
    for (const Ch c : s) units.emplace_back(static_cast<std::uint64_t>(c));
    return units;
  }
  node enum_name(const schema_node& s, std::size_t i) { return s.names[i]; }

  list start_list(schema_kind, std::size_t n) {
    list out;
    out.reserve(n);
    return out;
  }
  void append(list& out, node&& v) { out.push_back(std::move(v)); }
  node finish_list(list&& out, const schema_node&) { return std::move(out); }

  map start_map(bool named, std::size_t n) {
    map out{named, {}, {}};
    named ? out.members.reserve(n) : out.pairs.reserve(n);
    return out;
  }
  void map_entry(map& out, node&& key, node&& mapped) {
    if (out.named)
      out.members.emplace_back(std::move(*key.get_if<std::string>()), std::move(mapped));
    else
      out.pairs.push_back(value::array{std::move(key), std::move(mapped)});
  }
  node finish_map(map&& out) {
    if (out.named) return std::move(out.members);
    return std::move(out.pairs);
  }

  record start_record(const schema_node& s) {
    record out;
    out.reserve(s.names.size());
    return out;
  }
  void member(record& out, const schema_node& s, std::size_t i, node&& v) {
    out.emplace_back(s.names[i], std::move(v));
  }
  node finish_record(record&& out, const schema_node&) { return std::move(out); }

  node variant(std::size_t i, node&& alternative) {
    return value::array{std::uint64_t{i}, std::move(alternative)};
  }
};

/// Builds nothing: the decoder's reads and checks alone.
struct skip_builder {
  struct node {};
  using list = node;
  using map = node;
  using record = node;
  static constexpr bool builds = false;

  node none() { return {}; }
  node boolean(bool) { return {}; }
  template <class T>
  node number(T) {
    return {};
  }
  node character(char) { return {}; }
  node text(std::string&&) { return {}; }
  template <class Ch>
  node code_units(const std::basic_string<Ch>&) {
    return {};
  }
  node enum_name(const schema_node&, std::size_t) { return {}; }
  list start_list(schema_kind, std::size_t) { return {}; }
  void append(list&, node&&) {}
  node finish_list(list&&, const schema_node&) { return {}; }
  map start_map(bool, std::size_t) { return {}; }
  void map_entry(map&, node&&, node&&) {}
  node finish_map(map&&) { return {}; }
  record start_record(const schema_node&) { return {}; }
  void member(record&, const schema_node&, std::size_t, node&&) {}
  node finish_record(record&&, const schema_node&) { return {}; }
  node variant(std::size_t, node&&) { return {}; }
};

}  // namespace bale::detail
