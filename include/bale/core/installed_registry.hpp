// SPDX-License-Identifier: BSL-1.0
#pragma once
// What bale::with installs in a write or read context (bale/registry.hpp).

#include <typeinfo>

namespace bale::detail {

/// A registry's functions for pointers of one static type (`site`), instantiated for one archive
/// type.
struct installed_registry {
  const std::type_info* site;
  const std::type_info* archive;
  const void* dispatch;
};

}  // namespace bale::detail
