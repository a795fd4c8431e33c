// SPDX-License-Identifier: BSL-1.0
#pragma once
// A schema read back from its text (bale::schema_of, a file's schema block) into nodes a program
// can walk: what decodes a value without its C++ type (bale/schema/decode.hpp). The text is input
// like any other: only the canonical form schema_of writes is accepted, its size and depth are
// limited, and a {"ref":k} must name a record already opened, so the nodes form a graph whose
// only cycles pass through records.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bale/core/error.hpp"

namespace bale {

enum class schema_kind : std::uint8_t {
  scalar,       // scalar: which
  enumeration,  // scalar: the underlying integer; names, values
  text,         // scalar: the character
  bits,         // count: N
  sequence,     // children: element
  array,        // children: element; count
  set,          // children: key
  map,          // children: key, value
  tuple,        // children: elements
  optional,     // children: value
  none,
  variant,     // children: alternatives; names: their stable names, if all have one
  record,      // children: member types; names; flag: omits defaults
  duration,    // children: the count; period_num, period_den
  time_point,  // children: duration
  pointer,     // children: pointee; owner; flag: polymorphic
  opaque,      // names[0]: the type's name; count: its bale::version (0: none)
};

enum class scalar_kind : std::uint8_t {
  boolean,
  character,
  char8,
  char16,
  char32,
  wchar16,
  wchar32,
  i8,
  i16,
  i32,
  i64,
  u8,
  u16,
  u32,
  u64,
  f32,
  f64,
  f80,
  f128,
};

enum class pointer_owner : std::uint8_t { unique, shared, weak, observer };

struct schema_node {
  schema_kind kind = schema_kind::none;
  scalar_kind scalar = scalar_kind::boolean;
  pointer_owner owner = pointer_owner::unique;
  bool flag = false;
  std::uint64_t count = 0;
  std::int64_t period_num = 0, period_den = 0;
  std::vector<std::uint32_t> children;  // node numbers in the tree
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> former;  // a record's: each member's earlier names
  std::vector<bool> required;                    // a record's: whether data must hold each member
  std::vector<std::int64_t> values;              // an enum's, as its underlying integer's bits
};

/// A parsed schema: nodes[0] is the root; record k of the text is nodes[records[k]].
struct schema_tree {
  std::vector<schema_node> nodes;
  std::vector<std::uint32_t> records;
  const schema_node& root() const noexcept { return nodes.front(); }
  const schema_node& operator[](std::uint32_t n) const noexcept { return nodes[n]; }
  /// The memory the tree holds beyond its own object, as allocated (what a cache of trees counts).
  std::size_t memory_bytes() const noexcept {
    const auto text = [](const std::string& s) {
      return s.capacity() > sizeof(std::string) ? s.capacity() + 1 : 0;  // past the inline buffer
    };
    std::size_t bytes =
        nodes.capacity() * sizeof(schema_node) + records.capacity() * sizeof(std::uint32_t);
    for (const schema_node& n : nodes) {
      bytes += n.children.capacity() * sizeof(std::uint32_t) +
               n.names.capacity() * sizeof(std::string) + n.required.capacity() / 8 +
               n.values.capacity() * sizeof(std::int64_t) +
               n.former.capacity() * sizeof(std::vector<std::string>);
      for (const std::string& name : n.names) bytes += text(name);
      for (const auto& names : n.former) {
        bytes += names.capacity() * sizeof(std::string);
        for (const std::string& name : names) bytes += text(name);
      }
    }
    return bytes;
  }
};

/// Bounds on a schema read from input.
struct schema_limits {
  std::size_t max_size = std::size_t{1} << 20;  // bytes of text
  std::size_t max_depth = 256;                  // nesting of the text
};

namespace detail {

/// The kind of the C++ arithmetic type U, as its schema names it.
template <class U>
constexpr scalar_kind scalar_kind_of() {
  if constexpr (std::is_same_v<U, bool>)
    return scalar_kind::boolean;
  else if constexpr (std::is_same_v<U, char>)
    return scalar_kind::character;
  else if constexpr (std::is_same_v<U, char8_t>)
    return scalar_kind::char8;
  else if constexpr (std::is_same_v<U, char16_t>)
    return scalar_kind::char16;
  else if constexpr (std::is_same_v<U, char32_t>)
    return scalar_kind::char32;
  else if constexpr (std::is_same_v<U, wchar_t>)
    return sizeof(U) == 2 ? scalar_kind::wchar16 : scalar_kind::wchar32;
  else if constexpr (std::is_floating_point_v<U>)
    return std::numeric_limits<U>::digits == 64 ? scalar_kind::f80
           : sizeof(U) == 4                     ? scalar_kind::f32
           : sizeof(U) == 8                     ? scalar_kind::f64
                                                : scalar_kind::f128;
  else if constexpr (std::is_signed_v<U>)
    return sizeof(U) == 1   ? scalar_kind::i8
           : sizeof(U) == 2 ? scalar_kind::i16
           : sizeof(U) == 4 ? scalar_kind::i32
                            : scalar_kind::i64;
  else
    return sizeof(U) == 1   ? scalar_kind::u8
           : sizeof(U) == 2 ? scalar_kind::u16
           : sizeof(U) == 4 ? scalar_kind::u32
                            : scalar_kind::u64;
}

inline constexpr std::string_view scalar_names[] = {
    "bool", "char", "char8", "char16", "char32", "wchar16", "wchar32", "i8",  "i16", "i32",
    "i64",  "u8",   "u16",   "u32",    "u64",    "f32",     "f64",     "f80", "f128"};
inline constexpr std::string_view owner_names[] = {"unique", "shared", "weak", "observer"};

// Whether an enum's values over this type are written as unsigned numbers.
constexpr bool unsigned_scalar(scalar_kind k) noexcept {
  return k == scalar_kind::u8 || k == scalar_kind::u16 || k == scalar_kind::u32 ||
         k == scalar_kind::u64 || k == scalar_kind::boolean || k == scalar_kind::char8 ||
         k == scalar_kind::char16 || k == scalar_kind::char32;
}

/// A recursive-descent reader of the canonical schema text, which has no spaces and a fixed order
/// of keys: anything else is errc::invalid_value at the offset where it departs.
class schema_parser {
 public:
  schema_parser(std::string_view text, const schema_limits& limits)
      : text_(text), limits_(limits) {}

  schema_tree parse() {
    if (text_.size() > limits_.max_size)
      fail(detail::error_text(
          {"a schema of ", text_.size(), " bytes is longer than the limit of ", limits_.max_size}));
    node();
    if (pos_ != text_.size()) fail("text after the schema");
    return std::move(tree_);
  }

 private:
  [[noreturn]] void fail(std::string detail) const {
    throw error(errc::invalid_value, "schema: " + std::move(detail), pos_);
  }
  // Refuses a name that appears twice: a record's members and their former names, an enum's or a
  // variant's names. Sorting keeps the check O(n log n) in the count of names.
  void require_distinct(std::vector<std::string_view> names, std::string_view what) const {
    std::sort(names.begin(), names.end());
    const auto twice = std::adjacent_find(names.begin(), names.end());
    if (twice != names.end())
      fail(detail::error_text({"the name \"", *twice, "\" twice among ", what}));
  }
  bool at(std::string_view token) const { return text_.substr(pos_, token.size()) == token; }
  bool take(std::string_view token) {
    if (!at(token)) return false;
    pos_ += token.size();
    return true;
  }
  void expect(std::string_view token) {
    if (!take(token)) fail(detail::error_text({"expected ", token}));
  }

  // A name: UTF-8 with no control characters, so that the text embeds in JSON as it is.
  std::string quoted() {
    expect("\"");
    std::string s;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\') {
        ++pos_;
        if (pos_ == text_.size() || (text_[pos_] != '"' && text_[pos_] != '\\'))
          fail("a string may escape only '\"' and '\\'");
      }
      const auto byte = static_cast<unsigned char>(text_[pos_]);
      if (byte < 0x20 || byte == 0x7F) fail("a control character in a name");
      if (byte >= 0x80) {
        const std::size_t length = utf8_length(text_.substr(pos_));
        if (length == 0) fail("a name that is not UTF-8");
        s.append(text_.substr(pos_, length));
        pos_ += length;
        continue;
      }
      s += text_[pos_++];
    }
    expect("\"");
    return s;
  }
  // The length of the UTF-8 sequence `rest` starts with (its first byte is not ASCII), 0 when
  // it is not one: no overlong forms, no surrogates, nothing past U+10FFFF (RFC 3629).
  static std::size_t utf8_length(std::string_view rest) noexcept {
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(rest[i]); };
    const unsigned char lead = at(0);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
    if (length == 0 || lead > 0xF4 || rest.size() < length) return 0;
    for (std::size_t i = 1; i < length; ++i)
      if ((at(i) & 0xC0) != 0x80) return 0;
    const unsigned char second = at(1);
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) ||
        (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F))
      return 0;
    return length;
  }
  std::uint64_t unsigned_number() {
    const std::size_t start = pos_;
    std::uint64_t n = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (n > (UINT64_MAX - digit) / 10) fail("a number too large");
      n = n * 10 + digit;
      ++pos_;
    }
    if (pos_ == start || (text_[start] == '0' && pos_ - start > 1)) {
      pos_ = start;
      fail("expected a number");
    }
    return n;
  }
  std::int64_t signed_number() {
    const bool negative = take("-");
    const std::uint64_t n = unsigned_number();
    if (n > (negative ? std::uint64_t{1} << 63 : INT64_MAX) || (negative && n == 0))
      fail("a number out of range");
    return negative ? static_cast<std::int64_t>(0 - n) : static_cast<std::int64_t>(n);
  }
  scalar_kind scalar_name() {
    const std::size_t start = pos_;
    const std::string name = quoted();
    for (std::size_t k = 0; k < std::size(scalar_names); ++k)
      if (scalar_names[k] == name) return static_cast<scalar_kind>(k);
    pos_ = start;
    fail("unknown scalar \"" + name + "\"");
  }

  // A string's character other than char, which is written "string".
  scalar_kind character_name() {
    const std::size_t start = pos_;
    const scalar_kind k = scalar_name();
    if (k != scalar_kind::char8 && k != scalar_kind::char16 && k != scalar_kind::char32 &&
        k != scalar_kind::wchar16 && k != scalar_kind::wchar32) {
      pos_ = start;
      fail("a string of a type other than char8, char16, char32 or wchar");
    }
    return k;
  }

  std::uint32_t add(schema_kind kind) {
    if (tree_.nodes.size() >= UINT32_MAX) fail("too many nodes");
    tree_.nodes.push_back({});
    tree_.nodes.back().kind = kind;
    return static_cast<std::uint32_t>(tree_.nodes.size() - 1);
  }
  schema_node& at_node(std::uint32_t n) { return tree_.nodes[n]; }
  void child_of(std::uint32_t parent) {
    const std::uint32_t child = node();
    at_node(parent).children.push_back(child);
  }
  void children_of(std::uint32_t parent) {
    expect("[");
    if (take("]")) return;
    do child_of(parent);
    while (take(","));
    expect("]");
  }

  // A variant's alternatives' stable names: one per alternative, each once.
  void alternative_names(std::uint32_t n) {
    const std::size_t start = pos_;
    do at_node(n).names.push_back(quoted());
    while (take(","));
    expect("]");
    if (at_node(n).names.size() != at_node(n).children.size()) {
      pos_ = start;
      fail("a name for each alternative");
    }
    require_distinct({at_node(n).names.begin(), at_node(n).names.end()},
                     "a variant's alternatives");
  }

  // One node; returns its number (a ref returns the record it names).
  std::uint32_t node() {
    if (++depth_ > limits_.max_depth)
      fail(detail::error_text({"nested deeper than ", limits_.max_depth}));
    const std::uint32_t n = at("\"") ? named_node() : keyed_node();
    --depth_;
    return n;
  }
  std::uint32_t named_node() {
    const std::size_t start = pos_;
    const std::string name = quoted();
    if (name == "string") {
      const std::uint32_t n = add(schema_kind::text);
      at_node(n).scalar = scalar_kind::character;
      return n;
    }
    if (name == "none") return add(schema_kind::none);
    pos_ = start;
    const std::uint32_t n = add(schema_kind::scalar);
    at_node(n).scalar = scalar_name();
    return n;
  }
  std::uint32_t keyed_node() {
    expect("{\"");
    const std::size_t start = pos_;
    std::string key;
    while (pos_ < text_.size() && text_[pos_] >= 'a' && text_[pos_] <= 'z') key += text_[pos_++];
    expect("\":");
    std::uint32_t n = 0;
    if (key == "ref") {
      const std::uint64_t k = unsigned_number();
      if (k >= tree_.records.size())
        fail(detail::error_text(
            {"a reference to record ", k, " of ", tree_.records.size(), " opened"}));
      n = tree_.records[static_cast<std::size_t>(k)];
    } else if (key == "record") {
      n = record();
    } else if (key == "enum") {
      n = add(schema_kind::enumeration);
      at_node(n).scalar = scalar_name();
      if (take(",\"names\":{")) enum_names(n);
    } else if (key == "string" || key == "sequence" || key == "set" || key == "optional" ||
               key == "time") {
      n = add(key == "string"     ? schema_kind::text
              : key == "sequence" ? schema_kind::sequence
              : key == "set"      ? schema_kind::set
              : key == "optional" ? schema_kind::optional
                                  : schema_kind::time_point);
      if (key == "string")
        at_node(n).scalar = character_name();
      else
        child_of(n);
    } else if (key == "map" || key == "tuple" || key == "variant") {
      n = add(key == "map"     ? schema_kind::map
              : key == "tuple" ? schema_kind::tuple
                               : schema_kind::variant);
      children_of(n);
      if (key == "map" && at_node(n).children.size() != 2) fail("a map has a key and a value");
      if (key == "variant" && take(",\"names\":[")) alternative_names(n);
    } else if (key == "bits") {
      n = add(schema_kind::bits);
      at_node(n).count = unsigned_number();
    } else if (key == "array") {
      n = add(schema_kind::array);
      child_of(n);
      expect(",\"count\":");
      at_node(n).count = unsigned_number();
    } else if (key == "duration") {
      n = add(schema_kind::duration);
      child_of(n);
      expect(",\"period\":[");
      at_node(n).period_num = signed_number();
      expect(",");
      at_node(n).period_den = signed_number();
      expect("]");
    } else if (key == "opaque") {
      n = add(schema_kind::opaque);
      at_node(n).names.push_back(quoted());
      if (take(",\"version\":")) {
        const std::size_t at = pos_;
        at_node(n).count = unsigned_number();
        if (at_node(n).count == 0 || at_node(n).count > UINT32_MAX) {
          pos_ = at;
          fail("a version outside 1..4294967295");
        }
      }
    } else {
      n = pointer(key, start);
    }
    expect("}");
    return n;
  }
  std::uint32_t pointer(const std::string& key, std::size_t start) {
    for (std::size_t k = 0; k < std::size(owner_names); ++k)
      if (owner_names[k] == key) {
        const std::uint32_t n = add(schema_kind::pointer);
        at_node(n).owner = static_cast<pointer_owner>(k);
        child_of(n);
        at_node(n).flag = take(",\"polymorphic\":true");
        return n;
      }
    pos_ = start;
    fail("unknown form \"" + key + "\"");
  }
  std::uint32_t record() {
    const std::uint32_t n = add(schema_kind::record);
    tree_.records.push_back(n);
    expect("[");
    if (!take("]")) {
      do {
        expect("{\"name\":");
        std::string name = quoted();
        at_node(n).names.push_back(std::move(name));
        std::vector<std::string> former;
        if (take(",\"former\":[")) {
          do former.push_back(quoted());
          while (take(","));
          expect("]");
        }
        at_node(n).former.push_back(std::move(former));
        at_node(n).required.push_back(take(",\"required\":true"));
        expect(",\"type\":");
        child_of(n);
        expect("}");
      } while (take(","));
      expect("]");
    }
    at_node(n).flag = take(",\"omit_defaults\":true");
    std::vector<std::string_view> all(at_node(n).names.begin(), at_node(n).names.end());
    for (const auto& former : at_node(n).former)
      all.insert(all.end(), former.begin(), former.end());
    require_distinct(std::move(all), "a record's members and their former names");
    return n;
  }
  // At least one name (an enum without names has no "names"); values as the underlying type
  // writes them, unsigned ones past INT64_MAX keeping their bits.
  void enum_names(std::uint32_t n) {
    const bool is_unsigned = unsigned_scalar(at_node(n).scalar);
    do {
      std::string name = quoted();
      at_node(n).names.push_back(std::move(name));
      expect(":");
      const std::int64_t v =
          is_unsigned ? static_cast<std::int64_t>(unsigned_number()) : signed_number();
      at_node(n).values.push_back(v);
    } while (take(","));
    expect("}");
    require_distinct({at_node(n).names.begin(), at_node(n).names.end()}, "an enum's names");
  }

  std::string_view text_;
  schema_limits limits_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;
  schema_tree tree_;
};

}  // namespace detail

/// The schema a text describes (bale::schema_of(...).text(), a file's schema). Throws
/// bale::error(errc::invalid_value) with the offset where the text departs from the canonical
/// form, is longer or deeper than `limits`, or names a record not yet opened.
inline schema_tree parse_schema(std::string_view text, const schema_limits& limits = {}) {
  return detail::schema_parser(text, limits).parse();
}

namespace detail {

/// Writes a tree back as its canonical text: parse_schema(t) then schema_text gives t again.
class schema_printer {
 public:
  explicit schema_printer(const schema_tree& tree)
      : tree_(tree), printed_(tree.nodes.size()), record_of_(tree.nodes.size()) {
    for (std::size_t k = 0; k < tree.records.size(); ++k)
      record_of_[tree.records[k]] = static_cast<std::uint32_t>(k);
  }
  /// The text of node `root` and what it holds (records outside it appear as references).
  std::string print(std::uint32_t root = 0) {
    node(root);
    return std::move(out_);
  }

 private:
  void quoted(std::string_view s) {
    out_ += '"';
    for (const char c : s) {
      if (c == '"' || c == '\\') out_ += '\\';
      out_ += c;
    }
    out_ += '"';
  }
  void open(std::string_view key) {
    out_ += "{\"";
    out_ += key;
    out_ += "\":";
  }
  void list(const std::vector<std::uint32_t>& children) {
    out_ += '[';
    for (std::size_t i = 0; i < children.size(); ++i) {
      if (i != 0) out_ += ',';
      node(children[i]);
    }
    out_ += ']';
  }
  void scalar(scalar_kind k) { quoted(scalar_names[static_cast<std::size_t>(k)]); }
  void node(std::uint32_t n) {
    const schema_node& s = tree_[n];
    switch (s.kind) {
      case schema_kind::scalar:
        return scalar(s.scalar);
      case schema_kind::none:
        out_ += "\"none\"";
        return;
      case schema_kind::text:
        if (s.scalar == scalar_kind::character) {
          out_ += "\"string\"";
          return;
        }
        open("string");
        scalar(s.scalar);
        break;
      case schema_kind::enumeration:
        open("enum");
        scalar(s.scalar);
        if (!s.names.empty()) {
          out_ += ",\"names\":{";
          for (std::size_t i = 0; i < s.names.size(); ++i) {
            if (i != 0) out_ += ',';
            quoted(s.names[i]);
            out_ += ':';
            out_ += unsigned_scalar(s.scalar)
                        ? std::to_string(static_cast<std::uint64_t>(s.values[i]))
                        : std::to_string(s.values[i]);
          }
          out_ += '}';
        }
        break;
      case schema_kind::bits:
        open("bits");
        out_ += std::to_string(s.count);
        break;
      case schema_kind::sequence:
        open("sequence");
        node(s.children[0]);
        break;
      case schema_kind::set:
        open("set");
        node(s.children[0]);
        break;
      case schema_kind::optional:
        open("optional");
        node(s.children[0]);
        break;
      case schema_kind::time_point:
        open("time");
        node(s.children[0]);
        break;
      case schema_kind::map:
        open("map");
        list(s.children);
        break;
      case schema_kind::tuple:
        open("tuple");
        list(s.children);
        break;
      case schema_kind::variant:
        open("variant");
        list(s.children);
        for (std::size_t i = 0; i < s.names.size(); ++i) {
          out_ += i == 0 ? ",\"names\":[" : ",";
          quoted(s.names[i]);
        }
        if (!s.names.empty()) out_ += ']';
        break;
      case schema_kind::array:
        open("array");
        node(s.children[0]);
        out_ += ",\"count\":";
        out_ += std::to_string(s.count);
        break;
      case schema_kind::duration:
        open("duration");
        node(s.children[0]);
        out_ += ",\"period\":[";
        out_ += std::to_string(s.period_num);
        out_ += ',';
        out_ += std::to_string(s.period_den);
        out_ += ']';
        break;
      case schema_kind::pointer:
        open(owner_names[static_cast<std::size_t>(s.owner)]);
        node(s.children[0]);
        if (s.flag) out_ += ",\"polymorphic\":true";
        break;
      case schema_kind::opaque:
        open("opaque");
        quoted(s.names[0]);
        if (s.count != 0) {
          out_ += ",\"version\":";
          out_ += std::to_string(s.count);
        }
        break;
      case schema_kind::record:
        record(n, s);
        break;
    }
    out_ += '}';
  }
  void record(std::uint32_t n, const schema_node& s) {
    if (printed_[n]) {
      open("ref");
      out_ += std::to_string(record_of_[n]);
      return;
    }
    printed_[n] = true;
    open("record");
    out_ += '[';
    for (std::size_t i = 0; i < s.names.size(); ++i) {
      out_ += i == 0 ? "{\"name\":" : ",{\"name\":";
      quoted(s.names[i]);
      for (std::size_t k = 0; k < s.former[i].size(); ++k) {
        out_ += k == 0 ? ",\"former\":[" : ",";
        quoted(s.former[i][k]);
      }
      if (!s.former[i].empty()) out_ += ']';
      if (s.required[i]) out_ += ",\"required\":true";
      out_ += ",\"type\":";
      node(s.children[i]);
      out_ += '}';
    }
    out_ += ']';
    if (s.flag) out_ += ",\"omit_defaults\":true";
  }
  const schema_tree& tree_;
  std::vector<bool> printed_;
  std::vector<std::uint32_t> record_of_;  // per node: its number among the records
  std::string out_;
};

}  // namespace detail

/// The canonical text of a tree: parse_schema's inverse.
inline std::string schema_text(const schema_tree& tree) {
  return detail::schema_printer(tree).print();
}

}  // namespace bale
