// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::schema_of<T>(): the structure T is written with, from the same descriptions every format
// uses, as canonical JSON text and a 64-bit fingerprint of that text. The text names no compiler's
// spelling of a type, so two builds (GCC and Clang, 32- and 64-bit) that write the same bytes have
// the same schema and fingerprint:
//
//   struct point { std::int32_t x; double y; std::vector<std::string> tags; };
//   bale::schema_of<point>().text() ==
//     R"({"record":[{"name":"x","type":"i32"},{"name":"y","type":"f64"},)"
//     R"({"name":"tags","type":{"sequence":"string"}}]})"
//
// A record (an aggregate or a BALE_REFLECT type) met again, as in a tree of unique_ptr<node>,
// is {"ref":k}: the k-th record of the text, counted from 0 in order of appearance. A type whose
// serializer declares no schema_shape (a hand-written save/load) is {"opaque":"ns::name"}, with
// ,"version":n when it has a bale::version.
// docs/schema.md lists every form.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <ratio>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "bale/checksum/sha256.hpp"
#include "bale/core/schema_shape.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/type_name.hpp"
#include "bale/reflect/enum_names.hpp"

namespace bale {

namespace detail {
/// FNV-1a 64: simple enough for any reader of bale files to recompute.
inline std::uint64_t fnv1a64(std::string_view text) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}
}  // namespace detail

/// A type's schema: its canonical JSON text, the FNV-1a 64 hash of that text (files and MPI
/// messages check types with it) and its SHA-256 digest (framed messages name schemas with it).
class type_schema {
 public:
  explicit type_schema(std::string text)
      : text_(std::move(text)), fingerprint_(detail::fnv1a64(text_)), digest_(sha256(text_)) {}
  const std::string& text() const noexcept { return text_; }
  std::uint64_t fingerprint() const noexcept { return fingerprint_; }
  const sha256_digest& digest() const noexcept { return digest_; }
  friend bool operator==(const type_schema& a, const type_schema& b) noexcept {
    return a.text_ == b.text_;
  }

 private:
  std::string text_;
  std::uint64_t fingerprint_;
  sha256_digest digest_;
};

namespace detail {

// Appending piece by piece: GCC 12 at -O3 warns (-Wrestrict) on "literal" + std::to_string(n).
inline std::string kind_and_bits(const char* kind, std::size_t bits) {
  std::string name(kind);
  name += std::to_string(bits);
  return name;
}

template <class U>
std::string scalar_schema_name() {
  if constexpr (std::is_same_v<U, bool>)
    return "bool";
  else if constexpr (std::is_same_v<U, char>)
    return "char";
  else if constexpr (std::is_same_v<U, char8_t>)
    return "char8";
  else if constexpr (std::is_same_v<U, char16_t>)
    return "char16";
  else if constexpr (std::is_same_v<U, char32_t>)
    return "char32";
  else if constexpr (std::is_same_v<U, wchar_t>)
    return kind_and_bits("wchar", 8 * sizeof(U));
  else if constexpr (std::is_floating_point_v<U>)
    return kind_and_bits("f", std::numeric_limits<U>::digits == 64 ? 80 : 8 * sizeof(U));
  else
    return kind_and_bits(std::is_signed_v<U> ? "i" : "u", 8 * sizeof(U));
}

/// Writes schema text; remembers the records it has written, for {"ref":k}.
struct schema_writer {
  std::string out;
  std::vector<const std::type_info*> records;

  void quoted(std::string_view s) {
    out += '"';
    for (const char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  template <class... Ts>
  void list() {
    out += '[';
    bool first = true;
    ((out += first ? "" : ",", first = false, describe_type<Ts>()), ...);
    out += ']';
  }
  /// Opens an object with its first key: {"key":
  void open(const char* key) {
    out += "{\"";
    out += key;
    out += "\":";
  }
  template <class N>
  void number(N n) {
    out += std::to_string(n);
  }
  /// {"key":T}
  template <class T>
  void keyed(const char* key) {
    open(key);
    describe_type<T>();
    out += '}';
  }
  /// {"key":[Ts...]}
  template <class... Ts>
  void keyed_list(const char* key) {
    open(key);
    list<Ts...>();
    out += '}';
  }
  template <class T>
  void describe_type();
};

// One describe() per form of schema_shape.
template <class U>
void describe(schema_writer& w, schema::scalar<U>) {
  w.out += '"';
  w.out += scalar_schema_name<U>();
  w.out += '"';
}
template <class E>
void describe(schema_writer& w, schema::enumeration<E>) {
  w.open("enum");
  describe(w, schema::scalar<std::underlying_type_t<E>>{});
  if constexpr (named_enum<E>) {
    w.out += ",\"names\":{";
    bool first = true;
    for (const auto& entry : checked_enum_names<E>()) {
      if (!first) w.out += ',';
      first = false;
      w.quoted(entry.name);
      w.out += ':';
      w.number(static_cast<std::underlying_type_t<E>>(entry.value));
    }
    w.out += '}';
  }
  w.out += '}';
}
template <class Ch>
void describe(schema_writer& w, schema::text<Ch>) {
  if constexpr (std::is_same_v<Ch, char>) {
    w.out += "\"string\"";
  } else {
    w.keyed<Ch>("string");
  }
}
template <std::size_t N>
void describe(schema_writer& w, schema::bits<N>) {
  w.open("bits");
  w.number(N);
  w.out += '}';
}
template <class E>
void describe(schema_writer& w, schema::sequence<E>) {
  w.keyed<E>("sequence");
}
template <class E, std::size_t N>
void describe(schema_writer& w, schema::fixed<E, N>) {
  w.open("array");
  w.describe_type<E>();
  w.out += ",\"count\":";
  w.number(N);
  w.out += '}';
}
template <class K>
void describe(schema_writer& w, schema::set<K>) {
  w.keyed<K>("set");
}
template <class K, class V>
void describe(schema_writer& w, schema::map<K, V>) {
  w.keyed_list<K, V>("map");
}
template <class... Ts>
void describe(schema_writer& w, schema::tuple<Ts...>) {
  w.keyed_list<Ts...>("tuple");
}
template <class T>
void describe(schema_writer& w, schema::optional<T>) {
  w.keyed<T>("optional");
}
inline void describe(schema_writer& w, schema::none) {
  w.out += "\"none\"";
}
template <class... Ts>
void describe(schema_writer& w, schema::variant<Ts...>) {
  w.open("variant");
  w.list<Ts...>();
  if constexpr (((!stable_name<std::remove_cv_t<Ts>>.empty()) && ...)) {
    w.out += ",\"names\":[";
    std::size_t i = 0;
    ((w.out += i++ == 0 ? "" : ",", w.quoted(stable_name<std::remove_cv_t<Ts>>)), ...);
    w.out += ']';
  }
  w.out += '}';
}
template <class Rep, class Period>
void describe(schema_writer& w, schema::duration<Rep, Period>) {
  w.open("duration");
  w.describe_type<Rep>();
  w.out += ",\"period\":[";
  w.number(Period::num);
  w.out += ',';
  w.number(Period::den);
  w.out += "]}";
}
template <class D>
void describe(schema_writer& w, schema::time_point<D>) {
  w.keyed<D>("time");
}
template <schema::owner Owner, class P>
void describe(schema_writer& w, schema::pointer<Owner, P>) {
  constexpr const char* names[] = {"unique", "shared", "weak", "observer"};
  w.open(names[static_cast<std::size_t>(Owner)]);
  w.describe_type<std::remove_const_t<P>>();
  if constexpr (std::is_polymorphic_v<P>) w.out += ",\"polymorphic\":true";
  w.out += '}';
}
template <class T>
void describe(schema_writer& w, schema::same_as<T>) {
  w.describe_type<T>();
}

/// ,"former":["a","b"] after a member's name, when the type declares earlier names for it.
template <class Renames>
void describe_former_names(schema_writer& w, std::string_view member, const Renames& renames) {
  bool first = true;
  for (const former_name& rename : renames) {
    if (rename.member != member) continue;
    w.out += first ? ",\"former\":[" : ",";
    first = false;
    w.quoted(rename.was);
  }
  if (!first) w.out += ']';
}

/// A record's members: names and types, in the order they are written.
template <class T, class Names, class... Members>
void describe_record_members(schema_writer& w, wire::product<Members...>) {
  const auto& names = Names::value;
  std::size_t i = 0;
  w.out += '[';
  ((w.out += i == 0 ? "{\"name\":" : ",{\"name\":", w.quoted(names[i]),
    describe_former_names(w, names[i], former_names<T>),
    w.out += member_required<Names>(i) ? ",\"required\":true" : "", ++i,
    w.out += ",\"type\":", w.describe_type<Members>(), w.out += '}'),
   ...);
  w.out += ']';
}
template <class T, bool OmitsDefaults>
void describe(schema_writer& w, schema::record<T, OmitsDefaults>) {
  for (std::size_t k = 0; k < w.records.size(); ++k)
    if (*w.records[k] == typeid(T)) {
      w.open("ref");
      w.number(k);
      w.out += '}';
      return;
    }
  w.records.push_back(&typeid(T));
  w.open("record");
  if constexpr (description_of<T>() == description::aggregate)
    describe_record_members<T, aggregate_names<T>>(w, aggregate_members<T>{});
  else
    describe_record_members<T, macro_names<T>>(w, typename macro_members<T>::wire_shape{});
  if constexpr (OmitsDefaults) w.out += ",\"omit_defaults\":true";
  w.out += '}';
}

template <class T>
void schema_writer::describe_type() {
  using S = serializer<std::remove_cv_t<T>>;
  if constexpr (has_schema_shape<std::remove_cv_t<T>>) {
    describe(*this, typename S::schema_shape{});
  } else {
    out += "{\"opaque\":";
    quoted(portable_type_name<std::remove_cv_t<T>>());
    if constexpr (version<std::remove_cv_t<T>> != 0) {
      out += ",\"version\":";
      number(version<std::remove_cv_t<T>>);
    }
    out += '}';
  }
}

}  // namespace detail

/// T's schema, built once.
template <class T>
const type_schema& schema_of() {
  detail::require_serializable<T>();
  static const type_schema schema = [] {
    detail::schema_writer w;
    w.describe_type<T>();
    return type_schema(std::move(w.out));
  }();
  return schema;
}

}  // namespace bale
