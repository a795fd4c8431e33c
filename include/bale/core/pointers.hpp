// SPDX-License-Identifier: BSL-1.0
#pragma once
// The pointer verbs of the archive contract. The graph layer (bale/graph/) numbers the objects
// that pointers reach, checks every number it reads and keeps the bodies still to come; a format
// only puts the four things a pointer can be into its own form and reads them back:
//
//   null               write_null_pointer(role)
//   an earlier object  write_object_reference(role, number, claim)
//   a new object       write_new_object(role, number, type, outermost, write_bodies)
//   any of them        read_pointer(role, handler)
//
// A new object's body is not written where its pointer is: the outermost pointer of a graph
// writes every queued body after its own new object (write_bodies() writes them and returns how
// many), so a list of any length is written in a loop. Formats that name things share one form
// (core/named_pointers.hpp); the byte formats' form is in packed/.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bale {

/// Who a pointer is: the owner of its object (unique_ptr, owning_ptr), one of its shared owners
/// (shared_ptr, weak_ptr), or an observer (bale::observer) of an object owned elsewhere.
enum class pointer_role : std::uint8_t { unique, shared, observer };

/// The type of a new object, as the graph hands it to a writer: none (the pointer's static type),
/// or a type of a registry given to the call, with its name, its id, and its index among the
/// types this message has named (first: whether this is the message's first object of it).
struct object_type {
  bool tagged = false;
  std::string_view name;
  std::uint32_t id = 0;
  std::uint32_t index = 0;
  bool first = false;
};

/// A new object's type as a reader found it, for the graph to check: by name (formats that name
/// things), or by a tag (the index among the message's types plus one; 0 for a type named for
/// the first time, whose id follows).
struct object_type_read {
  bool by_name = false;
  std::optional<std::string> name;
  std::uint32_t tag = 0;
  std::uint32_t id = 0;
  std::size_t at = 0;  // where the type began, for errors
};

}  // namespace bale

namespace bale::detail {
// The graph and the formats, inside detail, name them unqualified.
using bale::object_type;
using bale::object_type_read;
using bale::pointer_role;
}  // namespace bale::detail

// What read_pointer(role, handler) may call on the graph's handler, `h`:
//   h.typed()                        whether a new object's type follows (a registry lists the
//                                    pointer's type)
//   h.reference(number, at)          the pointer is to earlier object `number`
//   h.fresh(type, number, at, bodies)  a new object: `type` is an object_type_read (empty unless
//                                    typed()), `number` its number if the format stores one
//                                    (std::optional<std::uint64_t>), `bodies()` reads the queued
//                                    bodies where this format keeps them, if this pointer is the
//                                    outermost one
//   h.read_all_bodies(ar)            reads every queued body from `ar`, one after another
//   h.read_one_body(ar)              reads the next queued body from `ar`; false if none is left
//   h.bodies_left()                  whether bodies are still queued
