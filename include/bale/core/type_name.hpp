// SPDX-License-Identifier: BSL-1.0
#pragma once
// A type's name as written in its namespace, the same from every compiler: how schemas name types
// described by hand, and how a writer's schema names the types whose data carries no version.

#include <cstddef>
#include <string>
#include <string_view>

namespace bale::detail {

template <class T>
constexpr const char* pretty_function_of() {
  return __PRETTY_FUNCTION__;
}

/// T's name as written in its namespace, taken from the compiler's function signature (GCC:
/// "[with T = ns::name]", Clang: "[T = ns::name]") with spaces removed.
template <class T>
std::string portable_type_name() {
  const std::string_view signature = pretty_function_of<T>();
  const std::size_t start = signature.find("T = ") + 4;
  const std::size_t end = signature.rfind(']');
  std::string name;
  for (const char c : signature.substr(start, end - start))
    if (c != ' ') name += c;
  return name;
}

}  // namespace bale::detail
