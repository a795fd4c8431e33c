// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading a pointer that owns (or shares) its object: the counterpart of object_graph.hpp. The
// format reads its form of the pointer (read_pointer, core/pointers.hpp) and hands what it found
// to pointer_reading below, which checks every number, reference and type against what the
// message has made so far before it is used, so no input makes a pointer to an object of another
// type.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/graph/object_graph.hpp"
#include "bale/graph/object_table.hpp"
#include "bale/graph/polymorphic.hpp"

namespace bale::detail {

/// The registry's types for pointers of static type S, if S is polymorphic and a registry lists it.
template <class S, class Archive>
const derived_types<S>* registry_types(Archive& ar) noexcept {
  if constexpr (std::is_polymorphic_v<S>)
    return installed_types<S, Archive>(ar.context());
  else
    return nullptr;
}

template <class S, class Archive>
const derived_entry<S>* find_type_id(Archive& ar, const derived_types<S>& types, std::uint32_t id,
                                     std::size_t at) {
  const derived_entry<S>* e = types.find(id);
  if (e == nullptr)
    ar.fail_at(errc::wrong_type,
               error_text({"type id ", id, " is not one a registry given to this call lists for ",
                           readable_name(typeid(S))}),
               at);
  return e;
}

/// A new object's type, found by tag (a type new to the message: 0, then its id; or one named
/// before) or by name.
template <class S, class Archive>
const derived_entry<S>* find_type(Archive& ar, const derived_types<S>& types,
                                  const object_type_read& type) {
  if (type.by_name) {
    if (!type.name)
      ar.fail_at(errc::invalid_value, "a new object here needs its \"$type\"", type.at);
    const derived_entry<S>* e = types.find(std::string_view(*type.name));
    if (e == nullptr)
      ar.fail_at(errc::wrong_type,
                 "type \"" + *type.name + "\" is not one a registry given to this call lists for " +
                     readable_name(typeid(S)),
                 type.at);
    return e;
  }
  std::vector<std::uint32_t>& named = objects_of(ar.context()).type_ids();
  if (type.tag != 0) {
    if (type.tag - 1 >= named.size())
      ar.fail_at(
          errc::invalid_value,
          error_text({"type tag ", type.tag, ": the message has named ", named.size(), " types"}),
          type.at);
    return find_type_id(ar, types, named[type.tag - 1], type.at);
  }
  const derived_entry<S>* e = find_type_id(ar, types, type.id, type.at);
  for (const std::uint32_t earlier : named)
    if (earlier == type.id)
      ar.fail_at(errc::invalid_value, error_text({"type id ", type.id, " named twice"}), type.at);
  named.push_back(type.id);
  return e;
}

template <class S>
struct made_object {
  S* site = nullptr;
  void* object = nullptr;  // the most-derived address
  std::shared_ptr<void> owner;
  const std::type_info* type = nullptr;
  void (*load)(void* archive, void* object) = nullptr;
  void (*destroy)(void* object) = nullptr;
};

template <class S>
void destroy_exact(void* object) {
  delete static_cast<S*>(object);
}

/// What an observer is read into: the pointer, before it is handed to the observer.
template <class S>
struct observer_slot {
  using element_type = S;
  S* pointer = nullptr;
  void reset() noexcept { pointer = nullptr; }
};

/// Makes a new object for a pointer of static type S: of the registry's type `e`, or an S. An
/// object an observer meets first is made as a unique_ptr's is: its owner, met later, claims it.
template <class S, class Archive>
made_object<S> make_object(Archive& ar, ownership owner, const derived_entry<S>* e,
                           std::size_t at) {
  read_context& context = ar.context();
  if (objects_of(context).objects() >= context.limits().max_objects ||
      objects_of(context).objects() >= owner_graph::max_objects) [[unlikely]]
    fail_too_many_objects(ar);
  made_object<S> made;
  const std::size_t size = e != nullptr ? e->size : sizeof(S);
  const std::size_t bookkeeping = sizeof(object_reader_table::entry) + sizeof(pending_load) +
                                  ownership_forest::bytes_per_object;
  charge_allocation(ar, 1,
                    size + bookkeeping + (owner == ownership::shared ? 2 * sizeof(long) : 0));
  if (e != nullptr) {
    if (owner == ownership::unique && *e->type != typeid(S) && !std::has_virtual_destructor_v<S>)
      ar.fail_at(errc::wrong_type,
                 error_text({"a unique_ptr<", readable_name(typeid(S)), "> cannot own a ", e->name,
                             ": ", readable_name(typeid(S)), " has no virtual destructor"}),
                 at);
    if (owner == ownership::shared)
      made.owner = e->make_shared(&made.object);
    else
      made.object = e->make_unique();
    made.site = e->upcast(made.object);
    made.type = e->type;
    made.load = e->load;
    made.destroy = e->destroy;
  } else if constexpr (std::is_abstract_v<S>) {
    ar.fail_at(errc::wrong_type,
               readable_name(typeid(S)) + " is abstract: read it with a registry (bale::with)", at);
  } else {
    if (owner == ownership::shared) {
      auto fresh = std::make_shared<S>();
      made.object = fresh.get();
      made.owner = std::move(fresh);
    } else {
      made.object = new S();
    }
    made.site = static_cast<S*>(made.object);
    made.type = &typeid(S);
    made.load = &load_exact<Archive, S>;
    made.destroy = &destroy_exact<S>;
  }
  return made;
}

/// Enters a made object in the table and queues its body; the outermost pointer then reads every
/// queued body (read_bodies). `owning` is false for a weak_ptr, which holds no object.
template <class S, class Archive, class ReadBodies>
void enter_object(Archive& ar, ownership owner, const made_object<S>& made, bool owning,
                  ReadBodies&& read_bodies) {
  object_reader_table& table = objects_of(ar.context());
  if (owner == ownership::observer) {
    table.add_observed(made.object, *made.type, made.destroy);
    table.observe(table.objects() - 1);
  } else {
    table.add(made.owner, made.object, *made.type, owning);
  }
  body_queue<pending_load>& queue = table.queue();
  if (queue.draining()) {
    queue.push({table.objects() - 1, made.object, made.load});
    return;
  }
  const typename body_queue<pending_load>::drain_guard draining(queue);
  queue.push({table.objects() - 1, made.object, made.load});
  read_bodies();
}

/// The object numbered `number`, or an error.
template <class Archive>
object_reader_table::entry& referred_object(Archive& ar, std::uint64_t number, std::size_t at) {
  object_reader_table& table = objects_of(ar.context());
  object_reader_table::entry* e = table.find(number);
  if (e == nullptr)
    ar.fail_at(errc::invalid_value,
               error_text({"a reference to object ", number, ", but only ", table.objects(),
                           " come before it"}),
               at);
  return *e;
}

/// The object `e` (numbered `number`) as an S, or an error if it is not one.
template <class S, class Archive>
S* object_as(Archive& ar, const object_reader_table::entry& e, std::uint64_t number,
             std::size_t at) {
  S* site = nullptr;
  if (*e.type == typeid(S)) {
    site = static_cast<S*>(e.object);
  } else if (const derived_types<S>* types = registry_types<S>(ar)) {
    if (const derived_entry<S>* d = types->find(*e.type)) site = d->upcast(e.object);
  }
  if (site == nullptr)
    ar.fail_at(errc::wrong_type,
               error_text({"object ", number, " is a ", readable_name(*e.type), ", not a ",
                           readable_name(typeid(S))}),
               at);
  return site;
}

/// A reference read into a shared_ptr: to a shared object, or a claim on one observers met first.
/// `owning` is false for a weak_ptr's.
template <class Archive, class P>
void refer(Archive& ar, std::shared_ptr<P>& out, std::uint64_t number, std::size_t at,
           bool owning) {
  using S = std::remove_const_t<P>;
  using holder = object_reader_table::holder;
  object_reader_table& table = objects_of(ar.context());
  object_reader_table::entry& e = referred_object(ar, number, at);
  const holder held = table.held_by(number);
  if (held == holder::unique)
    ar.fail_at(errc::wrong_type,
               error_text({"a reference to object ", number, ", which a unique_ptr owns"}), at);
  S* site = object_as<S>(ar, e, number, at);
  if (held == holder::observers) {
    charge_allocation(ar, 1, 4 * sizeof(long));  // a control block
    // Claimed first: a control block that cannot be made deletes the object.
    e.owner = std::shared_ptr<void>(e.object, table.claim(number, owning));
  } else if (owning) {
    table.own(number);
  }
  charge_allocation(ar, 1, sizeof(std::shared_ptr<S>));
  out = std::shared_ptr<S>(e.owner, site);
}

/// A reference read into a unique_ptr: its claim on an object observers met first.
template <class Archive, class P>
void refer(Archive& ar, std::unique_ptr<P>& out, std::uint64_t number, std::size_t at, bool) {
  using S = std::remove_const_t<P>;
  object_reader_table& table = objects_of(ar.context());
  object_reader_table::entry& e = referred_object(ar, number, at);
  if (table.held_by(number) != object_reader_table::holder::observers)
    ar.fail_at(
        errc::invalid_value,
        error_text({"a unique_ptr claims object ", number,
                    ", which another pointer owns: a unique_ptr refers only to an object that "
                    "observers met first"}),
        at);
  if (table.owns_current_body(number))
    ar.fail_at(errc::invalid_value,
               error_text({"a unique_ptr claims object ", number,
                           " inside a body that object owns: it would own itself"}),
               at);
  S* site = object_as<S>(ar, e, number, at);
  if (*e.type != typeid(S) && !std::has_virtual_destructor_v<S>)
    ar.fail_at(errc::wrong_type,
               "a unique_ptr<" + readable_name(typeid(S)) + "> cannot own a " +
                   readable_name(*e.type) + ": " + readable_name(typeid(S)) +
                   " has no virtual destructor",
               at);
  table.claim(number, true);
  out.reset(site);
}

/// A reference read into an observer: any object of the message.
template <class Archive, class P>
void refer(Archive& ar, observer_slot<P>& out, std::uint64_t number, std::size_t at, bool) {
  object_reader_table::entry& e = referred_object(ar, number, at);
  out.pointer = object_as<P>(ar, e, number, at);
  charge_allocation(ar, 1, sizeof(P*) + sizeof(std::size_t));
  objects_of(ar.context()).observe(number);
}

/// Hands a made object to its pointer: shared_ptr<S>, unique_ptr<S> or an observer.
template <class P, class S>
void adopt(std::shared_ptr<P>& out, const made_object<S>& made) {
  out = std::shared_ptr<S>(made.owner, made.site);
}
template <class P, class S>
void adopt(std::unique_ptr<P>& out, const made_object<S>& made) {
  out.reset(made.site);
}
template <class S>
void adopt(observer_slot<S>& out, const made_object<S>& made) {
  out.pointer = made.site;
}

/// Runs read(), which reads the objects of a pointer to the polymorphic S with no registry for
/// it: data written with a registry holds a type tag there, which reads as garbage. An error
/// says so, instead of only what the garbage looked like; one that shows only later (bytes left
/// at the end of the message) is told by the table.
template <class S, class Context, class Read>
void hint_registry(Context& context, Read&& read) {
  objects_of(context).read_without_registry(typeid(S));
  try {
    read();
  } catch (const error& e) {
    error hinted(e.code(), e.detail() + " (" + no_registry_text(typeid(S)) + ")", e.offset());
    if (!e.path().empty()) hinted.prepend_field(e.path());
    throw hinted;
  }
}

/// What a format's read_pointer tells the graph (the handler of core/pointers.hpp), for a pointer
/// read into `out`: a shared_ptr, a unique_ptr or an observer's slot. `owning` is false when `out`
/// stands in for a weak_ptr: the object outlives the read only if a pointer that owns it does.
template <class Archive, class Pointer>
class pointer_reading {
 public:
  using S = std::remove_const_t<typename Pointer::element_type>;
  /// What the allocation budget is charged per body a format's sequence of bodies announces.
  using body_type = pending_load;

  pointer_reading(Archive& ar, Pointer& out, ownership owner, bool owning)
      : ar_(ar), out_(out), owner_(owner), owning_(owning) {}

  /// Looked up when a new object is met, not for every null or reference.
  bool typed() noexcept { return types() != nullptr; }

  void reference(std::uint64_t number, std::size_t at) { refer(ar_, out_, number, at, owning_); }

  template <class ReadBodies>
  void fresh(const object_type_read& type, std::optional<std::uint64_t> number, std::size_t at,
             ReadBodies&& read_bodies) {
    if (number) {
      const std::size_t expected = objects_of(ar_.context()).objects();
      if (*number != expected)
        ar_.fail_at(errc::invalid_value,
                    error_text({"\"$id\" is ", *number, " where ", expected, " comes next"}), at);
    }
    const derived_entry<S>* e = types() != nullptr ? find_type(ar_, *types(), type) : nullptr;
    const made_object<S> made = make_object<S>(ar_, owner_, e, at);
    adopt(out_, made);
    const auto enter = [&] { enter_object(ar_, owner_, made, owning_, read_bodies); };
    if constexpr (std::is_polymorphic_v<S>) {
      // Without a registry, a writer's type tag reads as the start of a body: say why.
      if (types() == nullptr && !number) return hint_registry<S>(ar_.context(), enter);
    }
    enter();
  }

  template <class A>
  void read_all_bodies(A& ar) {
    static_assert(std::is_same_v<A, Archive>, "bodies are read by the archive that queued them");
    run_queued_bodies(ar);
  }
  template <class A>
  bool read_one_body(A& element) {
    static_assert(std::is_same_v<A, Archive>, "bodies are read by the archive that queued them");
    body_queue<pending_load>& queue = objects_of(ar_.context()).queue();
    if (queue.empty()) return false;
    const pending_load next = queue.pop();
    next.run(&element, next.object);
    return true;
  }
  bool bodies_left() { return !objects_of(ar_.context()).queue().empty(); }

 private:
  Archive& ar_;
  Pointer& out_;
  ownership owner_;
  bool owning_;
  bool looked_up_ = false;
  const derived_types<S>* types_ = nullptr;

  const derived_types<S>* types() noexcept {
    if (!looked_up_) {
      types_ = registry_types<S>(ar_);
      looked_up_ = true;
    }
    return types_;
  }
};

/// Reads a pointer into `out` (see pointer_reading).
template <class Archive, class Pointer>
void load_pointer(Archive& ar, Pointer& out, ownership owner, bool owning = true) {
  out.reset();
  pointer_reading<Archive, Pointer> reading(ar, out, owner, owning);
  ar.read_pointer(owner, reading);
}

}  // namespace bale::detail
