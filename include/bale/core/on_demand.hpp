// SPDX-License-Identifier: BSL-1.0
#pragma once
// A part of a message's state that most messages never need (the table of the objects that
// pointers own), made on first use. Everything done to it from code every message runs (destroying
// it, restarting it, asking what it leaves dangling) goes through functions recorded when it is
// made: a translation unit whose messages hold no pointers never compiles the part at all.

#include <string>

namespace bale::detail {

/// Part has dangling_objects() (why the message is incomplete; empty when it is complete), and may
/// have restart().
template <class Part>
class on_demand {
 public:
  on_demand() noexcept = default;
  on_demand(const on_demand&) = delete;
  on_demand& operator=(const on_demand&) = delete;
  ~on_demand() { reset(); }

  Part& get() {
    if (part_ == nullptr) {
      static constexpr hooks made{
          [](Part* part) noexcept { delete part; },
          [](const Part& part) { return part.dangling_objects(); },
          restart_of(),
      };
      part_ = new Part();
      hooks_ = &made;
    }
    return *part_;
  }
  void reset() noexcept {
    if (part_ != nullptr) hooks_->destroy(part_);
    part_ = nullptr;
  }
  /// Only for a Part that has restart().
  void restart() noexcept {
    if (part_ != nullptr) hooks_->restart(*part_);
  }
  std::string dangling_objects() const {
    if (part_ == nullptr) return {};
    return hooks_->dangling_objects(*part_);
  }

 private:
  struct hooks {
    void (*destroy)(Part*) noexcept;
    std::string (*dangling_objects)(const Part&);
    void (*restart)(Part&) noexcept;
  };
  static constexpr auto restart_of() noexcept {
    void (*restart)(Part&) noexcept = nullptr;
    if constexpr (requires(Part & part) { part.restart(); })
      restart = [](Part& part) noexcept { part.restart(); };
    return restart;
  }

  Part* part_ = nullptr;
  const hooks* hooks_ = nullptr;
};

}  // namespace bale::detail
