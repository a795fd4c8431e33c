// SPDX-License-Identifier: BSL-1.0
#pragma once
// State that one write shares across every output archive it creates, as read_context does for a
// decode: one per serialize*, save_file or record write, passed to the sizing pass and the writing
// pass alike, so both see the same state: the nesting depth, limited as reading limits it, and
// the objects that pointers own (made when the first pointer is met: a message without pointers
// never makes it), and the versions written.

#include <string>
#include <vector>

#include "bale/core/installed_registry.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/nesting.hpp"
#include "bale/core/on_demand.hpp"
#include "bale/core/version.hpp"

namespace bale::detail {

class object_writer_table;

class write_context : public nesting_state {
 public:
  explicit write_context(const bale::limits& lim = {}) noexcept
      : nesting_state(lim.max_depth), limits_(lim) {}
  write_context(const write_context&) = delete;
  write_context& operator=(const write_context&) = delete;

  const bale::limits& limits() const noexcept { return limits_; }

  /// The objects pointers own (defined in core/object_table.hpp, which code that meets pointers
  /// includes: a message without them compiles none of it).
  inline object_writer_table& objects();
  /// After a message's first (or only) pass has met every pointer: why an object that observers
  /// point at is owned by no pointer of the message, if one is (empty if none is).
  std::string dangling_objects() const { return objects_.dangling_objects(); }
  /// Called between the sizing pass and the writing pass: both must number objects and store
  /// versions alike.
  void restart_message() {
    objects_.restart();
    versions_.restart();
  }
  /// Called instead after a sizing pass that walked only part of the value (an estimate): the
  /// writing pass is then the message's one whole pass, and starts from nothing.
  void forget_message() noexcept {
    objects_.reset();
    versions_.restart();
  }

  /// The versions of types described by hand that this message has written (core/version.hpp).
  version_table& versions() noexcept { return versions_; }

  /// Registries installed for this write (bale::with): see bale/registry.hpp.
  std::vector<installed_registry>& registries() noexcept { return registries_; }

 private:
  bale::limits limits_;
  on_demand<object_writer_table> objects_;
  std::vector<installed_registry> registries_;
  version_table versions_;
};

}  // namespace bale::detail
