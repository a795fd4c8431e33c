// SPDX-License-Identifier: BSL-1.0
#pragma once
// JSON <-> bytes for a data pipeline: data is edited as JSON and shipped as binary (or compact),
// through the same type description. The text is read strictly into a T, then T is written in the
// other format, so a conversion checks the data as fully as a read does.
//
//   auto bytes = bale::json_to_bytes<settings>(text);                   // binary
//   auto small = bale::json_to_bytes<settings, bale::compact>(text);
//   std::string back = bale::bytes_to_json<settings>(bytes, {.pretty = true});
//
// For types chosen at run time (a command-line tool, a service), register them by name:
//   bale::json_converter converter;
//   converter.add<settings>("settings").add<particle>("particle");
//   auto out = converter.to_bytes("settings", text, bale::byte_format::compact);

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bale/binary/format.hpp"
#include "bale/compact/format.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/serialize.hpp"
#include "bale/json/format.hpp"

namespace bale {

/// JSON text to Format's bytes for T.
template <class T, format Format = binary>
std::vector<std::byte> json_to_bytes(std::string_view text, const json_options& options = {},
                                     const limits& lim = {}) {
  const T value = from_json<T>(text, options, lim);
  return serialize<Format>(value);
}

/// Format's bytes for T to JSON text.
template <class T, format Format = binary>
std::string bytes_to_json(std::span<const std::byte> bytes, const json_options& options = {},
                          const limits& lim = {}) {
  const T value = deserialize<T, Format>(bytes, lim);
  return to_json(value, options);
}

/// The byte formats a converter chosen at run time can produce.
enum class byte_format { binary, compact };

/// Converters for types registered by name. Unknown names are errc::wrong_type; malformed input
/// is the error the reader gives (with its offset, line and path).
class json_converter {
 public:
  template <class T>
  json_converter& add(std::string name) {
    entries_.insert_or_assign(std::move(name), entry{&to_bytes_of<T>, &to_json_of<T>});
    return *this;
  }

  std::vector<std::byte> to_bytes(std::string_view type, std::string_view text,
                                  byte_format target = byte_format::binary,
                                  const json_options& options = {}, const limits& lim = {}) const {
    return find(type).to_bytes(text, target, options, lim);
  }
  std::string to_json(std::string_view type, std::span<const std::byte> bytes,
                      byte_format source = byte_format::binary, const json_options& options = {},
                      const limits& lim = {}) const {
    return find(type).to_json(bytes, source, options, lim);
  }

  /// The registered names, sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    out.reserve(entries_.size());
    for (const auto& [name, unused] : entries_) out.push_back(name);
    return out;
  }

 private:
  struct entry {
    std::vector<std::byte> (*to_bytes)(std::string_view, byte_format, const json_options&,
                                       const limits&);
    std::string (*to_json)(std::span<const std::byte>, byte_format, const json_options&,
                           const limits&);
  };

  template <class T>
  static std::vector<std::byte> to_bytes_of(std::string_view text, byte_format target,
                                            const json_options& options, const limits& lim) {
    return target == byte_format::compact ? json_to_bytes<T, compact>(text, options, lim)
                                          : json_to_bytes<T, binary>(text, options, lim);
  }
  template <class T>
  static std::string to_json_of(std::span<const std::byte> bytes, byte_format source,
                                const json_options& options, const limits& lim) {
    return source == byte_format::compact ? bytes_to_json<T, compact>(bytes, options, lim)
                                          : bytes_to_json<T, binary>(bytes, options, lim);
  }

  const entry& find(std::string_view type) const {
    const auto found = entries_.find(type);
    if (found == entries_.end()) {
      std::string known;
      for (const auto& [name, unused] : entries_) known += (known.empty() ? "" : ", ") + name;
      throw error(
          errc::wrong_type,
          detail::error_text({"no type named \"", type, "\" is registered (known: ", known, ")"}),
          0);
    }
    return found->second;
  }

  std::map<std::string, entry, std::less<>> entries_;
};

}  // namespace bale
