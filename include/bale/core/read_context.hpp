// SPDX-License-Identifier: BSL-1.0
#pragma once
// State that one decode shares across every input archive it creates: the limits, the nesting
// depth, the allocation budget, which is one budget for the whole message, the objects that
// pointers own and the versions read.

#include <cstddef>
#include <string>
#include <vector>

#include "bale/core/error.hpp"
#include "bale/core/installed_registry.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/nesting.hpp"
#include "bale/core/on_demand.hpp"
#include "bale/core/version.hpp"

namespace bale::detail {

class object_reader_table;

class read_context : public nesting_state {
 public:
  explicit read_context(const limits& lim) noexcept : nesting_state(lim.max_depth), limits_(lim) {}

  const bale::limits& limits() const noexcept { return limits_; }

  /// Charges `count` elements of `element_size` bytes to the budget, or says why not.
  bool try_charge(std::size_t count, std::size_t element_size) noexcept {
    const std::size_t left = limits_.max_allocation - allocated_;
    if (element_size != 0 && count > left / element_size) return false;
    allocated_ += count * element_size;
    return true;
  }
  std::size_t allocated() const noexcept { return allocated_; }

  /// Views into the input (string_view, span) are refused when the input is a buffer the call
  /// frees before it returns (load_file, record_reader): they would dangle.
  bool views_allowed() const noexcept { return views_allowed_; }
  void forbid_views() noexcept { views_allowed_ = false; }

  /// Data in a format that names members (JSON, MessagePack) written with another schema that
  /// resolves against the reader's: a reflected type's members the reader lacks are skipped, and
  /// those the writer lacked keep their defaults (required ones excepted).
  bool other_members_allowed() const noexcept { return other_members_allowed_; }
  void allow_other_members() noexcept { other_members_allowed_ = true; }

  /// The objects pointers own (defined in core/object_table.hpp, which code that meets pointers
  /// includes: a message without them compiles none of it).
  inline object_reader_table& objects();
  /// After a message is read: why an object that observers point at would dangle, if one would
  /// (no chain of owning pointers from the values read reaches it), or why objects would never be
  /// freed (a cycle of owning pointers, unless limits::allow_owning_cycles). Empty when neither.
  std::string dangling_objects() const { return objects_.dangling_objects(); }
  /// Forgets the objects and versions read: the next value is a message of its own (bale::reader).
  void restart_message() noexcept {
    objects_.reset();
    versions_.restart();
  }
  /// The versions of types described by hand that this message holds (core/version.hpp).
  version_table& versions() noexcept { return versions_; }
  /// Registries installed for this read (bale::with): see bale/registry.hpp.
  std::vector<installed_registry>& registries() noexcept { return registries_; }

  /// Elements that took no input bytes; they cannot be bounded by the input size.
  std::size_t empty_elements_left() const noexcept {
    return limits_.max_empty_elements - empty_elements_;
  }
  /// Counts one element that took no input bytes and the `size` bytes it occupies in memory.
  bool try_count_empty(std::size_t size) noexcept {
    if (empty_elements_left() == 0 || size > limits_.max_empty_bytes - empty_bytes_) return false;
    ++empty_elements_;
    empty_bytes_ += size;
    return true;
  }

 private:
  bale::limits limits_;
  std::size_t allocated_ = 0;
  std::size_t empty_elements_ = 0;
  std::size_t empty_bytes_ = 0;
  bool views_allowed_ = true;
  bool other_members_allowed_ = false;
  on_demand<object_reader_table> objects_;
  std::vector<installed_registry> registries_;
  version_table versions_;
};

}  // namespace bale::detail
