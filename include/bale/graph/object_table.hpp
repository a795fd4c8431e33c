// SPDX-License-Identifier: BSL-1.0
#pragma once
// The state one message keeps about the objects its pointers own: which objects are already
// written (or read) and under what number, and the bodies still to be written (or read).
//
// Bodies are not written where their pointer is met: the pointer gets the object's number and the
// body joins a queue, which the outermost pointer being written empties, one body after another.
// A list or tree of pointers of any length is therefore written and read in a loop, breadth
// first, with a stack as deep as its value types only. docs/graphs.md has the wire forms.
//
// Objects are numbered in the order they are first met, the same on both sides: a reference is
// the number of an earlier object, and each side checks it against the table.

#include <cxxabi.h>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "bale/core/error_text.hpp"
#include "bale/core/pointers.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/write_context.hpp"
#include "bale/graph/address_map.hpp"
#include "bale/graph/owner_graph.hpp"
#include "bale/graph/ownership_forest.hpp"

namespace bale::detail {

/// A type's name as people write it, for error messages.
inline std::string readable_name(const std::type_info& type) {
  int status = 0;
  char* name = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string out = status == 0 && name != nullptr ? name : type.name();
  std::free(name);
  return out;
}

/// Why data written with a registry misreads without one.
inline std::string no_registry_text(const std::type_info& polymorphic) {
  return readable_name(polymorphic) +
         " is polymorphic and this read has no registry for it: data written with one, through "
         "bale::with, reads only with the same registry";
}

/// A body that a pointer promised and the queue still holds: the object and how to write it
/// (instantiated for the archive that met the pointer; the queue is emptied by that same archive).
struct pending_save {
  std::size_t number;
  const void* object;
  void (*run)(void* archive, const void* object);  // writes the body
};
struct pending_load {
  std::size_t number;
  void* object;
  void (*run)(void* archive, void* object);  // reads the body
};

/// The queue of bodies and whether an archive is emptying it: a pointer met while it is being
/// emptied only adds its body; the first pointer met outside it empties it before returning.
template <class Pending>
class body_queue {
 public:
  bool draining() const noexcept { return draining_; }
  void push(Pending p) { queue_.push_back(p); }
  bool empty() const noexcept { return queue_.empty(); }
  /// The next body, which becomes the current one.
  Pending pop() {
    Pending p = queue_.front();
    queue_.pop_front();
    current_ = p.number;
    return p;
  }
  /// The number of the object whose body is being read or written, or ownership_forest::outside.
  std::size_t current() const noexcept { return current_; }
  /// Marks the queue as being emptied for the guard's lifetime.
  class drain_guard {
   public:
    explicit drain_guard(body_queue& q) noexcept : q_(q) { q_.draining_ = true; }
    ~drain_guard() {
      q_.draining_ = false;
      q_.current_ = ownership_forest::outside;
      q_.queue_.clear();  // left over only when an error stopped the loop
    }
    drain_guard(const drain_guard&) = delete;
    drain_guard& operator=(const drain_guard&) = delete;

   private:
    body_queue& q_;
  };

 private:
  std::deque<Pending> queue_;
  std::size_t current_ = ownership_forest::outside;
  bool draining_ = false;
};

/// How a pointer met its object: first (the body follows), again (a reference), or as the owner
/// of an object an observer met first (a claim: a reference that takes ownership).
enum class met_as : std::uint8_t { fresh, again, claim, owned_twice, owns_itself, out_of_order };

/// The writing side: objects by address, each with its type and number.
class object_writer_table {
 public:
  using holder = address_map::holder;
  struct found {
    std::uint32_t number;
    met_as how;
    const std::type_info* type;  // the type the object was first met as
  };

  /// How the pointer `role` to the object at `address` (its most-derived address) meets it.
  /// The sizing pass looks addresses up and logs each answer; the writing pass, meeting the same
  /// pointers in the same order, reads the log instead (in order: no hashing, no cache misses).
  /// Objects a unique_ptr owns are looked up only once the message has an observer: until then
  /// no other pointer can meet them, and the log has them for when one does.
  found identify(const void* address, const std::type_info& type, pointer_role role) {
    if (replaying_) {
      if (cursor_ == log_.size() || log_[cursor_].address != address)
        return {0, met_as::out_of_order, &type};
      const logged& answer = log_[cursor_++];
      if (answer.how == met_as::fresh) ++next_;
      return {answer.number, answer.how, &type};  // its type was checked in the sizing pass
    }
    found f{next_, met_as::fresh, &type};
    if (role != pointer_role::unique || tracking_) {
      if (role == pointer_role::observer && !tracking_) track_unique_objects();
      f = look_up(address, type, role);
      place_in_forest(f, role);
    }
    if (f.how == met_as::fresh) ++next_;
    log_.push_back({address, f.number, f.how});
    return f;
  }
  std::size_t objects() const noexcept { return next_; }

  /// Null, or the first object that observers met and no pointer of the message owns.
  const address_map::slot* unowned_object() const noexcept {
    if (unowned_ == 0) return nullptr;
    for (const void* address : observed_first_)
      if (const address_map::slot* s = numbers_.find(address);
          s != nullptr && s->held_by == holder::observers)
        return s;
    return nullptr;
  }

  /// Why the message is incomplete (an object that observers met and no pointer owns), or empty.
  std::string why_incomplete() const {
    const address_map::slot* s = unowned_object();
    if (s == nullptr) return {};
    return error_text({"object ", s->number, " (a ", readable_name(*s->type),
                       ") is met by observers only: an observer points at an object that a "
                       "shared_ptr, unique_ptr or owning_ptr of the same message owns"});
  }

  body_queue<pending_save>& queue() noexcept { return queue_; }

  /// Polymorphic types in the order a message first names them: later objects of a type refer to
  /// it by this index. Returns the index and whether the type is new to the message.
  std::pair<std::uint32_t, bool> type_index(const std::type_info& type) {
    for (std::uint32_t i = 0; i < types_.size(); ++i)  // same object first: no name compares
      if (types_[i] == &type) return {i, false};
    for (std::uint32_t i = 0; i < types_.size(); ++i)
      if (*types_[i] == type) return {i, false};
    types_.push_back(&type);
    return {static_cast<std::uint32_t>(types_.size() - 1), true};
  }

  /// Starts the writing pass after the sizing pass, which met the same pointers: from now on
  /// identify() replays the sizing pass's answers.
  void restart_message() noexcept {
    types_.clear();
    next_ = 0;
    replaying_ = true;
    cursor_ = 0;
    numbers_.clear();  // the log answers from now on
    observed_first_ = std::vector<const void*>();
    forest_ = ownership_forest();
  }

 private:
  struct logged {
    const void* address;
    std::uint32_t number;
    met_as how;
  };

  found look_up(const void* address, const std::type_info& type, pointer_role role) {
    const holder held = role == pointer_role::unique   ? holder::unique
                        : role == pointer_role::shared ? holder::shared
                                                       : holder::observers;
    const auto [at, inserted] = numbers_.try_emplace({address, next_, held, &type});
    if (inserted) {
      if (held == holder::observers) {
        ++unowned_;
        observed_first_.push_back(address);
      }
      return {at->number, met_as::fresh, &type};
    }
    const std::type_info* first_type = at->type != nullptr ? at->type : &type;
    if (held == holder::observers) return {at->number, met_as::again, first_type};
    if (at->held_by == holder::observers) {
      at->held_by = held;
      --unowned_;
      return {at->number, met_as::claim, first_type};
    }
    if (held == holder::unique || at->held_by == holder::unique)
      return {at->number, met_as::owned_twice, first_type};
    return {at->number, met_as::again, first_type};
  }
  /// Keeps the forest of ownership once an observer has met an object first; a unique_ptr's claim
  /// on an object that owns the body being written becomes owns_itself.
  void place_in_forest(found& f, pointer_role role) {
    const std::size_t body = queue_.current();
    if (f.how == met_as::fresh && role == pointer_role::observer) {
      if (!forest_.started()) forest_.start(f.number);
      forest_.enter(f.number, body, false);
    } else if (f.how == met_as::fresh && forest_.started()) {
      forest_.enter(f.number, body, true);
    } else if (f.how == met_as::claim) {
      if (role == pointer_role::unique && forest_.owns(f.number, body))
        f.how = met_as::owns_itself;
      else
        forest_.claim(f.number, body);
    }
  }
  /// Enters the objects unique_ptrs met so far, which observers may now meet. The log keeps no
  /// types: an observer of one of these is checked against its type when it is read.
  void track_unique_objects() {
    tracking_ = true;
    for (const logged& l : log_)
      if (l.how == met_as::fresh)
        numbers_.try_emplace({l.address, l.number, holder::unique, nullptr});  // shared: there
  }

  address_map numbers_;
  std::vector<logged> log_;
  std::size_t cursor_ = 0;
  bool replaying_ = false;
  bool tracking_ = false;  // unique_ptrs' objects are in numbers_
  std::uint32_t next_ = 0;
  std::size_t unowned_ = 0;                  // objects only observers have met
  std::vector<const void*> observed_first_;  // objects an observer met first
  std::vector<const std::type_info*> types_;
  ownership_forest forest_;  // started by the first object an observer meets first
  body_queue<pending_save> queue_;
};

/// The reading side: objects by number, each with its owner (null for a unique_ptr's object), its
/// address as the type it was made as, and that type. An object an observer met first is held by
/// the table until its owner claims it, and deleted with the table if none does (the read then
/// fails: see dangling_object()). What observers need is kept apart: a message without them pays
/// nothing for it.
class object_reader_table {
 public:
  enum class holder : std::uint8_t { observers, unique, shared };
  struct entry {
    std::shared_ptr<void> owner;  // shared: keeps the object alive until the read ends
    void* object;
    const std::type_info* type;
  };
  using destroy_function = void (*)(void* object);

  object_reader_table() = default;
  object_reader_table(const object_reader_table&) = delete;
  object_reader_table& operator=(const object_reader_table&) = delete;
  ~object_reader_table() {
    for (const made_by_observer& m : made_by_observers_)
      if (!m.claimed) m.destroy(entries_[m.number].object);
  }

  std::size_t objects() const noexcept { return entries_.size(); }
  entry* find(std::size_t number) noexcept {
    return number < entries_.size() ? &entries_[number] : nullptr;
  }
  /// Adds an object a pointer made: an owning one, or a weak_ptr (`owned` false).
  void add(std::shared_ptr<void> owner, void* object, const std::type_info& type, bool owned) {
    if (forest_.started()) forest_.enter(entries_.size(), queue_.current(), true);
    owners_.enter(queue_.current(), owned);
    entries_.push_back({std::move(owner), object, &type});
  }
  /// Adds an object an observer made; `destroy` deletes it until its owner claims it.
  void add_observed(void* object, const std::type_info& type, destroy_function destroy) {
    // Room first: once the object is entered, nothing may throw before the table can delete it.
    if (made_by_observers_.size() == made_by_observers_.capacity())
      made_by_observers_.reserve(2 * made_by_observers_.size() + 8);
    if (entries_.size() == entries_.capacity()) entries_.reserve(2 * entries_.size() + 8);
    if (!forest_.started()) forest_.start(entries_.size());
    forest_.enter(entries_.size(), queue_.current(), false);
    owners_.enter(queue_.current(), false);
    entries_.push_back({nullptr, object, &type});
    made_by_observers_.push_back({entries_.size() - 1, destroy, false});
  }

  /// Who holds object `number` (which exists).
  holder held_by(std::size_t number) const noexcept {
    if (entries_[number].owner) return holder::shared;
    const made_by_observer* m = made(number);
    return m != nullptr && !m->claimed ? holder::observers : holder::unique;
  }
  /// Whether object `number`, which observers made, owns the body being read: a claim on it there
  /// would make it own itself.
  bool owns_current_body(std::size_t number) noexcept {
    return forest_.owns(number, queue_.current());
  }
  /// The owner of object `number`, which observers made, claims it (a weak_ptr holds it, `owned`
  /// false, only until the read returns); returns how to delete it.
  destroy_function claim(std::size_t number, bool owned) {
    made_by_observer* m = made(number);
    if (m == nullptr) [[unlikely]]  // held_by(number) said observers: never
      throw error(errc::invalid_value,
                  error_text({"object ", number, " was not made by observers"}));
    if (owned) own(number);  // first: it may throw, leaving no claim
    m->claimed = true;
    forest_.claim(number, queue_.current());
    return m->destroy;
  }
  /// A shared_ptr in the body being read refers to object `number`, which a shared_ptr owns.
  void own(std::size_t number) {
    const auto verdict = owners_.own(number, queue_.current(), !cycles_allowed_);
    if (verdict != owner_graph::new_owner::fine) [[unlikely]]
      refuse_owner(number, verdict == owner_graph::new_owner::closes_cycle);
  }
  /// Whether the message may hold cycles of owning pointers (limits::allow_owning_cycles).
  void allow_owning_cycles(bool allowed) noexcept { cycles_allowed_ = allowed; }
  /// Notes that an observer points at object `number`, to be checked when the message ends.
  void observe(std::size_t number) { observed_.push_back(number); }

  /// The number of an object the message leaves dangling, if any: one only observers met, or one
  /// an observer points at that no chain of owning pointers from the values read reaches (held
  /// by weak_ptrs only, or by objects that are: freed when the read returns).
  std::optional<std::size_t> dangling_object() const {
    for (const made_by_observer& m : made_by_observers_)
      if (!m.claimed) return m.number;
    if (observed_.empty()) return std::nullopt;
    return owners_.unreachable(observed_);
  }

  /// Why the message is incomplete (an object whose observers would dangle), or empty. A cycle
  /// of owning pointers never gets this far: its last pointer is refused as it is read.
  std::string why_incomplete() const {
    if (const auto number = dangling_object())
      return error_text({"object ", *number,
                         " is observed but no chain of shared_ptr, unique_ptr or owning_ptr from "
                         "the values read owns it: its observers would dangle"});
    return {};
  }

  body_queue<pending_load>& queue() noexcept { return queue_; }

  /// The ids of the polymorphic types the message has named so far, in order.
  std::vector<std::uint32_t>& type_ids() noexcept { return type_ids_; }

  /// Notes that an object of the polymorphic `type` was read with no registry for it: data
  /// written with one misreads, however the misread shows.
  void read_without_registry(const std::type_info& type) noexcept {
    if (unregistered_ == nullptr) unregistered_ = &type;
  }
  /// Says so when a message's bytes were misread (core/context_parts.hpp).
  std::string error_hint() const {
    return unregistered_ != nullptr ? no_registry_text(*unregistered_) : std::string();
  }

 private:
  struct made_by_observer {
    std::size_t number;
    destroy_function destroy;
    bool claimed;
  };
  [[noreturn, gnu::cold]] static void refuse_owner(std::size_t number, bool cycle) {
    if (cycle)
      throw error(errc::invalid_value,
                  error_text({"object ", number,
                              " is owned through a cycle of shared_ptrs, which would never be "
                              "freed: close the cycle with a weak_ptr, or allow it with "
                              "limits::allow_owning_cycles"}));
    throw error(errc::element_limit,
                error_text({"telling whether object ", number,
                            " is owned through a cycle of shared_ptrs takes more steps than the "
                            "message's size allows: allow cycles with "
                            "limits::allow_owning_cycles to read it"}));
  }
  made_by_observer* made(std::size_t number) noexcept {
    const auto at = std::lower_bound(
        made_by_observers_.begin(), made_by_observers_.end(), number,
        [](const made_by_observer& m, std::size_t n) { return m.number < n; });  // in order
    return at != made_by_observers_.end() && at->number == number ? &*at : nullptr;
  }
  const made_by_observer* made(std::size_t number) const noexcept {
    return const_cast<object_reader_table*>(this)->made(number);
  }

  std::vector<entry> entries_;
  std::vector<made_by_observer> made_by_observers_;
  std::vector<std::size_t> observed_;  // objects observers point at
  std::vector<std::uint32_t> type_ids_;
  body_queue<pending_load> queue_;
  ownership_forest forest_;  // started by the first object an observer makes
  owner_graph owners_;       // which objects outlive the read
  bool cycles_allowed_ = false;
  const std::type_info* unregistered_ = nullptr;  // a polymorphic type read with no registry
};

/// The objects that a message's pointers own: a part of its context (core/context_parts.hpp),
/// made when the first pointer is met.
inline object_writer_table& objects_of(write_context& context) {
  return context.parts().get<object_writer_table>();
}
inline object_reader_table& objects_of(read_context& context) {
  object_reader_table& table = context.parts().get<object_reader_table>();
  table.allow_owning_cycles(context.limits().allow_owning_cycles);
  return table;
}

}  // namespace bale::detail
