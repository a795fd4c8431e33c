// SPDX-License-Identifier: BSL-1.0
#pragma once
// A 64-bit fingerprint of a C++ type: FNV-1a of the type's name as the compiler spells it, the
// same within one compiler only. Version 1 .bale files carry it; everything written now carries
// the fingerprint of the type's schema instead (bale/schema/schema_of.hpp).

#include <cstdint>
#include <string_view>

namespace bale::detail {

template <class T>
consteval std::uint64_t type_fingerprint() {
  const std::string_view name = __PRETTY_FUNCTION__;
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}

}  // namespace bale::detail
