// SPDX-License-Identifier: BSL-1.0
#pragma once
// How a pointer is written and read, for shared_ptr, weak_ptr, unique_ptr (bale/types/memory.hpp)
// and observers of objects they own (bale/types/observer.hpp) alike: null, a reference to an
// object met earlier in the message, or a new object, whose body joins the message's queue
// (core/object_table.hpp). The first pointer met outside the queue's loop writes or reads every
// body the queue then holds, breadth first.
//
// Byte formats: a shared pointer or an observer is a u32 tag (0 null, 1 new, n >= 2 the object
// numbered n - 2); a unique one a state byte (0 null, 1 new, 2 then a u32 number: it owns an
// object an observer met first). A new object of a type read through a registry then has a
// type tag (u32: 0 then the type's u32 id for a type new to the message, k >= 1 for the message's
// k-th type); the outermost pointer then has the bodies, one after another, with no count.
// Self-describing formats: null, {"$ref": n} (a reference, or a unique one's claim), or
// {"$id": n, "$type": name, "$objects": [...]}, the last only at the outermost pointer.
// docs/graphs.md has it all with examples.

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

/// Stands for the queued bodies as one value of a self-describing format.
struct queued_bodies {};

template <class Archive>
void write_type_tag(Archive& ar, const object_to_write& object) {
  if (object.type_name.empty()) return;
  if constexpr (Archive::self_describing) {
    ar.write_field("$type", object.type_name);
  } else {
    const auto [index, first_time] = objects_of(ar.context()).type_index(*object.type);
    if (first_time) {
      ar.write_scalar(std::uint32_t{0});
      ar.write_scalar(object.type_id);
    } else {
      ar.write_scalar(index + 1);
    }
  }
}

template <class Archive>
void write_reference(Archive& ar, std::uint32_t number) {
  if constexpr (Archive::self_describing)
    ar.write_optional(
        true, [&] { ar.write_composite([&] { ar.write_field("$ref", std::uint64_t{number}); }); });
  else
    ar.write_scalar(std::uint32_t{number + 2});
}

template <class Archive>
void write_new_object(Archive& ar, ownership owner, std::uint32_t number,
                      const object_to_write& object, bool outermost) {
  if constexpr (Archive::self_describing) {
    ar.write_optional(true, [&] {
      ar.write_composite([&] {
        ar.write_field("$id", std::uint64_t{number});
        write_type_tag(ar, object);
        if (outermost) ar.write_field("$objects", queued_bodies{});
      });
    });
  } else {
    if (owner == ownership::unique)
      ar.write_scalar(std::uint8_t{1});
    else
      ar.write_scalar(std::uint32_t{1});
    write_type_tag(ar, object);
    if (outermost) run_queued_bodies(ar);
  }
}

template <class Archive>
void write_null(Archive& ar, ownership owner) {
  if constexpr (Archive::self_describing)
    ar.write_optional(false, [] {});
  else if (owner == ownership::unique)
    ar.write_scalar(std::uint8_t{0});
  else
    ar.write_scalar(std::uint32_t{0});
}

template <class Archive>
[[noreturn, gnu::cold]] void fail_too_many_objects(const Archive& ar) {
  ar.fail(errc::element_limit, error_text({"more than ", ar.context().limits().max_objects,
                                           " objects (limits::max_objects)"}));
}

/// A unique_ptr's claim on an object an observer met first: in bytes, the state byte 2 where
/// 0 is null and 1 a new object, then the object's number.
template <class Archive>
void write_claim(Archive& ar, ownership owner, std::uint32_t number) {
  if (Archive::self_describing || owner != ownership::unique) {
    write_reference(ar, number);
  } else {
    ar.write_scalar(std::uint8_t{2});
    ar.write_scalar(number);
  }
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
void save_pointer(Archive& ar, const S* pointer, ownership owner) {
  if (pointer == nullptr) {
    write_null(ar, owner);
    return;
  }
  const object_to_write object = describe(ar, pointer);
  object_writer_table& table = objects_of(ar.context());
  const object_writer_table::found met = table.identify(object.address, *object.type, owner);
  if (met.how != met_as::fresh) {
    if (met.how > met_as::claim || *met.type != *object.type) fail_met_as(ar, met, *object.type);
    if (met.how == met_as::claim)
      write_claim(ar, owner, met.number);
    else
      write_reference(ar, met.number);
    return;
  }
  if (table.objects() > ar.context().limits().max_objects || met.number > 0xFFFF'FFFDU)
    fail_too_many_objects(ar);
  body_queue<pending_save>& queue = table.queue();
  if (queue.draining()) {
    queue.push({met.number, object.address, object.save});
    write_new_object(ar, owner, met.number, object, false);
    return;
  }
  const typename body_queue<pending_save>::drain_guard draining(queue);
  queue.push({met.number, object.address, object.save});
  write_new_object(ar, owner, met.number, object, true);
}

}  // namespace bale::detail

namespace bale {

template <>
struct serializer<detail::queued_bodies> {
  template <class Archive>
  static void save(Archive& ar, const detail::queued_bodies&) {
    ar.write_deferred_sequence([&] { return detail::run_queued_bodies(ar); });
  }
  template <class Archive>
  static void load(Archive& ar, detail::queued_bodies&) {
    detail::body_queue<detail::pending_load>& queue = objects_of(ar.context()).queue();
    ar.template read_sequence<detail::pending_load>(
        [](std::size_t) {},
        [&](Archive& element) {
          if (queue.empty())
            ar.fail(errc::invalid_value, "more object bodies than new objects before them");
          const detail::pending_load next = queue.pop();
          next.run(&element, next.object);
        });
    if (!queue.empty()) ar.fail(errc::invalid_value, "fewer object bodies than new objects");
  }
};

}  // namespace bale
