// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::filesystem::path: its generic form (with '/' separators) as UTF-8 text, so that a path
// written on one system reads on another; its schema is a string's. Not in bale/all.hpp:
// <filesystem> is a large header, included only by programs that serialize paths.

#include <cstring>
#include <filesystem>
#include <string>

#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/string.hpp"

namespace bale {

template <>
struct serializer<std::filesystem::path> {
  using schema_shape = schema::text<char>;

  template <class Archive>
  static void save(Archive& ar, const std::filesystem::path& path) {
    const std::u8string text = path.generic_u8string();
    std::string bytes(text.size(), '\0');
    if (!text.empty()) std::memcpy(bytes.data(), text.data(), text.size());
    ar.write_text(std::string_view(bytes));
  }
  template <class Archive>
  static void load(Archive& ar, std::filesystem::path& path) {
    std::string bytes;
    ar.read_text(bytes);
    std::u8string text(bytes.size(), u8'\0');
    if (!bytes.empty()) std::memcpy(text.data(), bytes.data(), bytes.size());
    path = std::filesystem::path(text);
  }
};

}  // namespace bale
