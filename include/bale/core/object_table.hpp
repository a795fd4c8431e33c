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

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <typeinfo>
#include <utility>
#include <vector>

#include "bale/core/address_map.hpp"

namespace bale::detail {

/// A registry's functions for pointers of one static type (`site`), instantiated for one archive
/// type, as bale::with installs them in a write or read context (core/registry.hpp).
struct installed_registry {
  const std::type_info* site;
  const std::type_info* archive;
  const void* dispatch;
};

/// A body that a pointer promised and the queue still holds: the object and how to write it
/// (instantiated for the archive that met the pointer; the queue is emptied by that same archive).
struct pending_save {
  const void* object;
  void (*run)(void* archive, const void* object);  // writes the body
};
struct pending_load {
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
  Pending pop() {
    Pending p = queue_.front();
    queue_.pop_front();
    return p;
  }
  /// Marks the queue as being emptied for the guard's lifetime.
  class drain_guard {
   public:
    explicit drain_guard(body_queue& q) noexcept : q_(q) { q_.draining_ = true; }
    ~drain_guard() {
      q_.draining_ = false;
      q_.queue_.clear();  // left over only when an error stopped the loop
    }
    drain_guard(const drain_guard&) = delete;
    drain_guard& operator=(const drain_guard&) = delete;

   private:
    body_queue& q_;
  };

 private:
  std::deque<Pending> queue_;
  bool draining_ = false;
};

/// The writing side: objects by address, each with its type and number.
class object_writer_table {
 public:
  struct found {
    std::uint32_t number;
    bool fresh;
    const std::type_info* type;  // the type the object was first written as
  };

  /// The number of the object at `address` (its most-derived address), fresh if not yet met.
  /// The sizing pass looks addresses up and logs each answer; the writing pass, meeting the same
  /// pointers in the same order, reads the log instead (in order: no hashing, no cache misses).
  /// An address the log does not expect comes back with a number past objects(): the value's
  /// save() wrote different pointers the second time.
  found identify(const void* address, const std::type_info& type) {
    if (replaying_) {
      if (cursor_ == log_.size() || log_[cursor_].address != address) return {~0U, false, &type};
      const std::uint32_t number = log_[cursor_++].number;
      const bool fresh = number == next_;
      if (fresh) ++next_;
      return {number, fresh, &type};  // its type was checked in the sizing pass
    }
    const auto [at, inserted] = numbers_.try_emplace(address, next_, &type);
    if (inserted) ++next_;
    log_.push_back({address, at->number});
    return {at->number, inserted, at->type};
  }
  /// A number for an object no other pointer can share (a unique_ptr's).
  std::uint32_t number_unique() noexcept { return next_++; }
  std::size_t objects() const noexcept { return next_; }

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

  /// Body counts, one per outermost pointer, for formats that write the count before the bodies
  /// (MessagePack): the sizing pass records them, the writing pass reads them back in order.
  void record_count(std::uint32_t count) { counts_.push_back(count); }
  bool recorded_count(std::uint32_t& count) noexcept {
    if (next_count_ >= counts_.size()) return false;
    count = counts_[next_count_++];
    return true;
  }

  /// Starts the writing pass after the sizing pass, which met the same pointers: from now on
  /// identify() replays the sizing pass's answers.
  void restart() noexcept {
    types_.clear();
    next_ = 0;
    next_count_ = 0;
    replaying_ = true;
    cursor_ = 0;
    numbers_.clear();  // the log answers from now on
  }

 private:
  struct logged {
    const void* address;
    std::uint32_t number;
  };
  address_map numbers_;
  std::vector<logged> log_;
  std::size_t cursor_ = 0;
  bool replaying_ = false;
  std::uint32_t next_ = 0;
  std::vector<const std::type_info*> types_;
  std::vector<std::uint32_t> counts_;
  std::size_t next_count_ = 0;
  body_queue<pending_save> queue_;
};

/// The reading side: objects by number, each with its owner (null for a unique_ptr's object), its
/// address as the type it was made as, and that type.
class object_reader_table {
 public:
  struct entry {
    std::shared_ptr<void> owner;  // keeps shared objects alive until the read ends
    void* object;
    const std::type_info* type;
  };

  std::size_t objects() const noexcept { return entries_.size(); }
  const entry* find(std::size_t number) const noexcept {
    return number < entries_.size() ? &entries_[number] : nullptr;
  }
  void add(std::shared_ptr<void> owner, void* object, const std::type_info& type) {
    entries_.push_back({std::move(owner), object, &type});
  }

  body_queue<pending_load>& queue() noexcept { return queue_; }

  /// The ids of the polymorphic types the message has named so far, in order.
  std::vector<std::uint32_t>& type_ids() noexcept { return type_ids_; }

 private:
  std::vector<entry> entries_;
  std::vector<std::uint32_t> type_ids_;
  body_queue<pending_load> queue_;
};

}  // namespace bale::detail
