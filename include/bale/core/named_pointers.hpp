// SPDX-License-Identifier: BSL-1.0
#pragma once
// The pointer verbs (core/pointers.hpp) for every format that names things (JSON, MessagePack),
// written with the contract's other verbs: null; {"$ref": n} for an earlier object (or a unique
// pointer's claim on one that observers met first); {"$id": n, "$type": name, "$objects": [...]}
// for a new object, "$type" only for a registry's type and "$objects", the queued bodies, only at
// the outermost pointer. A format's verbs call these; its own verbs make the bytes.

#include <cstdint>
#include <optional>
#include <string_view>

#include "bale/core/error.hpp"
#include "bale/core/pointers.hpp"
#include "bale/core/serializer.hpp"

namespace bale::detail {

/// The queued bodies as one value: a sequence whose length is known once written
/// (write_deferred_sequence), read back one body per element.
template <class WriteBodies>
struct bodies_to_write {
  WriteBodies& write;
};
template <class Handler>
struct bodies_to_read {
  Handler& handler;
};

template <class Archive>
void write_named_null(Archive& ar) {
  ar.write_optional(false, [] {});
}

template <class Archive>
void write_named_reference(Archive& ar, std::uint32_t number) {
  ar.write_optional(
      true, [&] { ar.write_composite([&] { ar.write_field("$ref", std::uint64_t{number}); }); });
}

template <class Archive, class WriteBodies>
void write_named_new_object(Archive& ar, std::uint32_t number, const object_type& type,
                            bool outermost, WriteBodies& write_bodies) {
  ar.write_optional(true, [&] {
    ar.write_composite([&] {
      ar.write_field("$id", std::uint64_t{number});
      if (type.tagged) ar.write_field("$type", type.name);
      if (outermost) ar.write_field("$objects", bodies_to_write<WriteBodies>{write_bodies});
    });
  });
}

template <class Archive, class Handler>
void read_named_pointer(Archive& ar, Handler& handler);

/// The pointer verbs of a format that names things: its writer derives from
/// named_pointer_writer<itself>, its reader from named_pointer_reader<itself>.
template <class Archive>
class named_pointer_writer {
 public:
  void write_null_pointer(pointer_role) { write_named_null(self()); }
  void write_object_reference(pointer_role, std::uint32_t number, bool) {
    write_named_reference(self(), number);
  }
  template <class F>
  void write_new_object(pointer_role, std::uint32_t number, const object_type& type, bool outermost,
                        F&& write_bodies) {
    write_named_new_object(self(), number, type, outermost, write_bodies);
  }

 private:
  Archive& self() noexcept { return static_cast<Archive&>(*this); }
};
template <class Archive>
class named_pointer_reader {
 public:
  template <class Handler>
  void read_pointer(pointer_role, Handler& handler) {
    read_named_pointer(static_cast<Archive&>(*this), handler);
  }
};

template <class Archive, class Handler>
void read_named_pointer(Archive& ar, Handler& handler) {
  ar.read_optional([&] {
    ar.read_composite([&] {
      const std::size_t at = ar.offset();
      std::optional<std::uint64_t> reference;
      std::optional<std::uint64_t> number;
      ar.read_field("$ref", reference);
      ar.read_field("$id", number);
      if (reference.has_value() == number.has_value())
        ar.fail_at(errc::invalid_value, "a pointer is {\"$ref\": n} or {\"$id\": n, ...}", at);
      if (reference) return handler.reference(*reference, at);
      object_type_read type;
      type.by_name = true;
      type.at = at;
      if (handler.typed()) ar.read_field("$type", type.name);
      handler.fresh(type, number, at, [&] {
        bodies_to_read<Handler> bodies{handler};
        ar.read_field("$objects", bodies);
      });
    });
  });
}

}  // namespace bale::detail

namespace bale {

template <class WriteBodies>
struct serializer<detail::bodies_to_write<WriteBodies>> {
  template <class Archive>
  static void save(Archive& ar, const detail::bodies_to_write<WriteBodies>& bodies) {
    ar.write_deferred_sequence(bodies.write);
  }
};

template <class Handler>
struct serializer<detail::bodies_to_read<Handler>> {
  template <class Archive>
  static void load(Archive& ar, detail::bodies_to_read<Handler>& bodies) {
    Handler& handler = bodies.handler;
    ar.template read_sequence<typename Handler::body_type>(
        [](std::size_t) {},
        [&](Archive& element) {
          if (!handler.read_one_body(element))
            ar.fail(errc::invalid_value, "more object bodies than new objects before them");
        });
    if (handler.bodies_left()) ar.fail(errc::invalid_value, "fewer object bodies than new objects");
  }
};

}  // namespace bale
