// SPDX-License-Identifier: BSL-1.0
#pragma once
// Class versions for types described by hand (a serialize, save/load or free function):
//
//   template <> inline constexpr std::uint32_t bale::version<spell> = 2;
//
// and inside spell's load, ar.version() is the version the data was written with (inside save,
// the current one), for branches on older layouts. A message holds each versioned type's version
// once, before the first value of that type it holds, so a vector of a million versioned values
// pays for one. Each format chooses the form (binary: 4 bytes, compact: a varint, JSON and
// MessagePack: a "bale_version" member, or the first value of a type that writes no names). The
// version is part of the type's schema: a file of a type that had no version yet reads as version
// 0. Reflected types (aggregates, BALE_REFLECT) need none: their schema resolves member by member.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bale/core/context_parts.hpp"
#include "bale/core/error.hpp"
#include "bale/core/type_name.hpp"

namespace bale {

/// The version of a type described by hand; 0 (the default) stores none.
template <class T>
inline constexpr std::uint32_t version = 0;

}  // namespace bale

namespace bale::detail {

/// The name under which the self-describing formats store a version.
inline constexpr std::string_view version_key = "bale_version";

/// The versions of one message, a part of its context made when the first versioned type is met:
/// which versioned types it has met, with the version their data has, and the version of the value
/// being saved or loaded (ar.version()).
class version_table {
 public:
  std::uint32_t current() const noexcept { return current_; }
  std::uint32_t exchange_current(std::uint32_t v) noexcept { return std::exchange(current_, v); }

  /// The version that the type of `key` was met with in this message, if it was.
  std::optional<std::uint32_t> met(const void* key) const noexcept {
    for (const auto& [k, v] : met_)
      if (k == key) return v;
    return std::nullopt;
  }
  void meet(const void* key, std::uint32_t v) { met_.emplace_back(key, v); }

  /// Types that a writer's schema shows without a version: their data holds none (version 0).
  void add_unversioned(std::string name) { unversioned_.push_back(std::move(name)); }
  bool has_unversioned() const noexcept { return !unversioned_.empty(); }
  bool unversioned(std::string_view name) const noexcept {
    for (const std::string& n : unversioned_)
      if (n == name) return true;
    return false;
  }

  /// The message is written again, or the next value is a message of its own: either holds its
  /// versions again. The types a writer's schema shows unversioned stay (they are the file's).
  void restart_message() noexcept { met_.clear(); }
  void forget_message() noexcept { met_.clear(); }

 private:
  std::vector<std::pair<const void*, std::uint32_t>> met_;
  std::vector<std::string> unversioned_;
  std::uint32_t current_ = 0;
};

/// The current version (ar.version()): 0 in a message that has met no versioned type.
template <class Context>
std::uint32_t current_version(const Context& context) noexcept {
  const version_table* table = context.parts().template find<version_table>();
  return table == nullptr ? 0 : table->current();
}

/// Makes `v` the current version (ar.version()) until the scope ends.
class version_scope {
 public:
  version_scope(version_table& table, std::uint32_t v) noexcept
      : table_(table), outer_(table.exchange_current(v)) {}
  ~version_scope() { table_.exchange_current(outer_); }
  version_scope(const version_scope&) = delete;
  version_scope& operator=(const version_scope&) = delete;

 private:
  version_table& table_;
  std::uint32_t outer_;
};

/// Writes a value of a type described by hand: write_members() inside the archive's composite,
/// after T's version if T has one and the message has not met T yet.
template <class T, class Archive, class F>
void save_described(Archive& ar, F&& write_members) {
  if constexpr (version<T> == 0) {
    // Inside a versioned type's save, ar.version() of an unversioned member is 0.
    version_table* table = ar.context().parts().template find<version_table>();
    if (table == nullptr || table->current() == 0) return ar.write_composite(write_members);
    const version_scope scope(*table, 0);
    ar.write_composite(write_members);
  } else {
    version_table& table = ar.context().parts().template get<version_table>();
    const version_scope scope(table, version<T>);
    const void* const key = &type_key<T>::id;
    const bool first = !table.met(key);
    if (first) table.meet(key, version<T>);
    ar.write_composite([&] {
      if (first) ar.write_version(version<T>);
      write_members();
    });
  }
}

template <class T, class Archive>
[[noreturn, gnu::cold]] void fail_newer_version(const Archive& ar, std::uint32_t found,
                                                std::size_t at) {
  ar.fail_at(errc::wrong_type,
             error_text({portable_type_name<T>(), " data of version ", found,
                         ", newer than this build's version ", version<T>}),
             at);
}

/// The version T's data in this message was written with: read before its first value.
template <class T, class Archive>
std::uint32_t read_version_of(Archive& ar) {
  version_table& table = ar.context().parts().template get<version_table>();
  const void* const key = &type_key<T>::id;
  if (const auto known = table.met(key)) return *known;
  std::uint32_t found = 0;
  if (!table.has_unversioned() || !table.unversioned(portable_type_name<T>())) {
    const std::size_t at = ar.offset();
    found = ar.read_version();
    if (found > version<T>) fail_newer_version<T>(ar, found, at);
  }
  table.meet(key, found);
  return found;
}

/// Reads a value of a type described by hand: read_members() inside the archive's composite,
/// with ar.version() the version its data was written with.
template <class T, class Archive, class F>
void load_described(Archive& ar, F&& read_members) {
  ar.read_composite([&] {
    if constexpr (version<T> != 0) {
      const std::uint32_t v = read_version_of<T>(ar);
      const version_scope scope(ar.context().parts().template get<version_table>(), v);
      read_members();
    } else {
      version_table* table = ar.context().parts().template find<version_table>();
      if (table == nullptr || table->current() == 0) return read_members();
      const version_scope scope(*table, 0);
      read_members();
    }
  });
}

}  // namespace bale::detail
