// SPDX-License-Identifier: BSL-1.0
#pragma once
// What bale::with installs in a write or read context (bale/registry.hpp).

#include <typeinfo>
#include <vector>

namespace bale::detail {

/// A registry's functions for pointers of one static type (`site`), instantiated for one archive
/// type.
struct installed_registry {
  const std::type_info* site;
  const std::type_info* archive;
  const void* dispatch;
};

/// The registries installed for one call: a part of its context (core/context_parts.hpp). They
/// belong to the call, not to one message: every value of the call sees them.
struct installed_registries {
  std::vector<installed_registry> list;
  void restart_message() noexcept {}
  void forget_message() noexcept {}
};

/// The registries installed for the call, or none.
template <class Context>
const std::vector<installed_registry>* registries_of(const Context& context) noexcept {
  const installed_registries* installed = context.parts().template find<installed_registries>();
  return installed == nullptr ? nullptr : &installed->list;
}

}  // namespace bale::detail
