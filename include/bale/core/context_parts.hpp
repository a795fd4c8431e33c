// SPDX-License-Identifier: BSL-1.0
#pragma once
// The state that features keep for one message (pointer graphs their objects, class versions the
// versions met, a format its own bookkeeping), held by the message's write or read context
// without the context knowing any of them. A feature asks for its part by type; the part is made
// on first use, so a message that never meets the feature pays nothing for it and a translation
// unit that never uses it compiles none of it.
//
// A part is any default-constructible class. The context tells each part when the message starts
// over, through members the part may have:
//   void restart_message() noexcept;  // the same message again: the writing pass after sizing
//   void forget_message() noexcept;   // a new message: the next value read, a write restarted
//   std::string why_incomplete() const;  // at the message's end: empty, or why it is refused
//   std::string error_hint() const;      // what may explain bytes the message did not expect
// A part without restart_message or forget_message is destroyed instead (made again if asked).

#include <cstddef>
#include <stdexcept>
#include <string>

namespace bale::detail {

/// A key per type, by address: comparing two is one compare.
template <class T>
struct type_key {
  static constexpr char id = 0;
};

class context_parts {
 public:
  /// How many features one message can keep parts for (bale's own use four).
  static constexpr std::size_t capacity = 8;

  context_parts() noexcept = default;
  context_parts(const context_parts&) = delete;
  context_parts& operator=(const context_parts&) = delete;
  ~context_parts() {
    while (count_ > 0) drop(count_ - 1);
  }

  /// The part, or null if this message has not made it. Inlined, and the last part found is
  /// one compare away: a feature asks for its part several times for every value it meets.
  template <class Part>
  [[gnu::always_inline]] Part* find() const noexcept {
    const void* const key = &type_key<Part>::id;
    if (last_.key == key) return static_cast<Part*>(last_.part);
    for (std::size_t i = 0; i < count_; ++i)
      if (slots_[i].key == key) {
        last_ = slots_[i];
        return static_cast<Part*>(slots_[i].part);
      }
    return nullptr;
  }
  /// The part, made now if this message has not made it yet.
  template <class Part>
  [[gnu::always_inline]] Part& get() {
    if (Part* part = find<Part>()) return *part;
    return make<Part>();
  }

  /// How many parts the message has made.
  std::size_t size() const noexcept { return count_; }

  /// The same message is written again (the pass after the sizing pass).
  void restart_message() noexcept { each(&hooks::restart); }
  /// The next value is a message of its own.
  void forget_message() noexcept { each(&hooks::forget); }
  /// Why the message just ended is incomplete, by the first part that says so; empty if none.
  std::string why_incomplete() const {
    for (std::size_t i = 0; i < count_; ++i)
      if (slots_[i].ops->why_incomplete != nullptr)
        if (std::string why = slots_[i].ops->why_incomplete(slots_[i].part); !why.empty())
          return why;
    return {};
  }
  /// What the parts know that may explain a message's bytes misread (data written with a
  /// registry read without one, say): empty, or " (...)" from the first part that knows.
  std::string error_hint() const {
    for (std::size_t i = 0; i < count_; ++i)
      if (slots_[i].ops->error_hint != nullptr)
        if (std::string hint = slots_[i].ops->error_hint(slots_[i].part); !hint.empty())
          return " (" + hint + ")";
    return {};
  }

 private:
  struct hooks {
    void (*destroy)(void*) noexcept;
    void (*restart)(void*) noexcept;  // null: destroyed instead
    void (*forget)(void*) noexcept;   // null: destroyed instead
    std::string (*why_incomplete)(const void*);
    std::string (*error_hint)(const void*);
  };
  struct slot {
    const void* key;
    void* part;
    const hooks* ops;
  };

  template <class Part>
  static constexpr hooks hooks_of() noexcept {
    hooks h{[](void* p) noexcept { delete static_cast<Part*>(p); }, nullptr, nullptr, nullptr,
            nullptr};
    if constexpr (requires(Part & p) { p.restart_message(); })
      h.restart = [](void* p) noexcept { static_cast<Part*>(p)->restart_message(); };
    if constexpr (requires(Part & p) { p.forget_message(); })
      h.forget = [](void* p) noexcept { static_cast<Part*>(p)->forget_message(); };
    if constexpr (requires(const Part& p) { p.why_incomplete(); })
      h.why_incomplete = [](const void* p) {
        return static_cast<const Part*>(p)->why_incomplete();
      };
    if constexpr (requires(const Part& p) { p.error_hint(); })
      h.error_hint = [](const void* p) { return static_cast<const Part*>(p)->error_hint(); };
    return h;
  }

  template <class Part>
  [[gnu::noinline]] Part& make() {
    static constexpr hooks ops = hooks_of<Part>();
    if (count_ == capacity)
      throw std::length_error("bale: more message parts than context_parts::capacity");
    Part* part = new Part();
    slots_[count_++] = slot{&type_key<Part>::id, part, &ops};
    return *part;
  }

  void each(void (*hooks::*which)(void*) noexcept) noexcept {
    for (std::size_t i = count_; i-- > 0;) {
      if (auto run = slots_[i].ops->*which)
        run(slots_[i].part);
      else
        drop(i);
    }
  }
  void drop(std::size_t i) noexcept {
    if (last_.key == slots_[i].key) last_ = slot{nullptr, nullptr, nullptr};
    slots_[i].ops->destroy(slots_[i].part);
    slots_[i] = slots_[--count_];
  }

  slot slots_[capacity];
  std::size_t count_ = 0;
  mutable slot last_{nullptr, nullptr, nullptr};
};

}  // namespace bale::detail
