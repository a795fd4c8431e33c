// SPDX-License-Identifier: BSL-1.0
#pragma once
// How a pointer is written, for shared_ptr, weak_ptr, unique_ptr (bale/types/memory.hpp) and
// observers of objects they own (bale/types/observer.hpp) alike: null, a reference to an object
// met earlier in the message, or a new object, whose body joins the message's queue
// (graph/object_table.hpp). The first pointer met outside the queue's loop writes every body the
// queue then holds, breadth first. The format puts each into its own form through the contract's
// pointer verbs (core/pointers.hpp); docs/graphs.md has the forms with examples.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/serializer.hpp"
#include "bale/graph/object_table.hpp"
#include "bale/graph/polymorphic.hpp"

namespace bale::detail {

using ownership = pointer_role;

/// What a pointer about to be written points at: the object's most-derived address, its type,
/// how its body is written, and, for a type read through a registry, the registry's entry.
struct object_to_write {
  const void* address;
  const std::type_info* type;
  void (*save)(void* archive, const void* object);
  std::string_view type_name;  // empty: no type tag
  std::uint32_t type_id;
};

template <class Archive, class S>
void save_exact(void* archive, const void* object) {
  (*static_cast<Archive*>(archive))(*static_cast<const S*>(object));
}
template <class Archive, class S>
void load_exact(void* archive, void* object) {
  (*static_cast<Archive*>(archive))(*static_cast<S*>(object));
}

template <class Archive, class S>
object_to_write describe(Archive& ar, const S* pointer) {
  if constexpr (!std::is_polymorphic_v<S>) {
    return {pointer, &typeid(S), &save_exact<Archive, S>, {}, 0};
  } else {
    const std::type_info& dynamic = typeid(*pointer);
    if (const derived_types<S>* types = installed_types<S, Archive>(ar.context())) {
      const derived_entry<S>* e = types->find(dynamic);
      if (e == nullptr)
        ar.fail(errc::wrong_type, "a pointer to " + readable_name(typeid(S)) + " holds a " +
                                      readable_name(dynamic) +
                                      ", which no registry given to this call lists");
      return {e->most_derived(pointer), e->type, e->save, e->name, e->id};
    }
    if (dynamic != typeid(S))
      ar.fail(errc::wrong_type, "a pointer to " + readable_name(typeid(S)) + " holds a " +
                                    readable_name(dynamic) +
                                    ": write it with a registry that lists it (bale::with)");
    if constexpr (std::is_abstract_v<S>) {
      return {pointer, &typeid(S), nullptr, {}, 0};  // unreachable: an abstract S is never dynamic
    } else {
      return {pointer, &typeid(S), &save_exact<Archive, S>, {}, 0};
    }
  }
}

/// Writes (or reads) what the queue holds, in order, with the archive that filled it; returns
/// how many bodies.
template <class Archive>
std::uint32_t run_queued_bodies(Archive& ar) {
  auto& queue = objects_of(ar.context()).queue();
  std::uint32_t count = 0;
  within_field("$objects", [&] {
    while (!queue.empty()) {
      const auto next = queue.pop();
      within_index(count, [&] { next.run(&ar, next.object); });
      ++count;
    }
  });
  return count;
}

/// The type tag a new object's pointer carries: none for the pointer's static type; else the
/// registry's name and id, and its index among the types this message has named.
template <class Archive>
object_type type_of(Archive& ar, const object_to_write& object) {
  if (object.type_name.empty()) return {};
  const auto [index, first] = objects_of(ar.context()).type_index(*object.type);
  return {true, object.type_name, object.type_id, index, first};
}

template <class Archive>
[[noreturn, gnu::cold]] void fail_too_many_objects(const Archive& ar) {
  ar.fail(errc::element_limit, error_text({"more than ", ar.context().limits().max_objects,
                                           " objects (limits::max_objects)"}));
}

template <class Archive>
[[noreturn, gnu::cold]] void fail_met_as(const Archive& ar, const object_writer_table::found& met,
                                         const std::type_info& type) {
  if (met.how == met_as::out_of_order)
    ar.fail(errc::invalid_value,
            "a save() met its pointers in another order than when its size was counted: it must "
            "write the same value every time");
  if (met.how == met_as::owned_twice)
    ar.fail(errc::invalid_value,
            error_text({"object ", met.number, " (a ", readable_name(type),
                        ") has two owners: a unique_ptr owns it and another pointer "
                        "owns it too"}));
  if (met.how == met_as::owns_itself)
    ar.fail(errc::invalid_value,
            error_text({"object ", met.number, " (a ", readable_name(type),
                        ") owns itself: its unique_ptr is inside a body the object owns, through "
                        "pointers an observer of it reached first"}));
  ar.fail(errc::wrong_type, "two pointers of different types (" + readable_name(*met.type) + ", " +
                                readable_name(type) +
                                ") share one address: an aliasing shared_ptr is not supported");
}

/// Writes a pointer: one that owns (or shares) its object, or an observer of one.
template <class Archive, class S>
[[gnu::noinline]] void save_pointer(Archive& ar, const S* pointer, ownership owner) {
  if (pointer == nullptr) {
    ar.write_null_pointer(owner);
    return;
  }
  const object_to_write object = describe(ar, pointer);
  object_writer_table& table = objects_of(ar.context());
  const object_writer_table::found met = table.identify(object.address, *object.type, owner);
  if (met.how != met_as::fresh) {
    if (met.how > met_as::claim || *met.type != *object.type) fail_met_as(ar, met, *object.type);
    ar.write_object_reference(owner, met.number, met.how == met_as::claim);
    return;
  }
  if (table.objects() > ar.context().limits().max_objects || met.number > 0xFFFF'FFFDU)
    fail_too_many_objects(ar);
  const object_type type = type_of(ar, object);
  const auto write_bodies = [&] { return run_queued_bodies(ar); };
  body_queue<pending_save>& queue = table.queue();
  if (queue.draining()) {
    queue.push({met.number, object.address, object.save});
    ar.write_new_object(owner, met.number, type, false, write_bodies);
    return;
  }
  const typename body_queue<pending_save>::drain_guard draining(queue);
  queue.push({met.number, object.address, object.save});
  ar.write_new_object(owner, met.number, type, true, write_bodies);
}

}  // namespace bale::detail
