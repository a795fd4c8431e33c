// SPDX-License-Identifier: BSL-1.0
// msgpack-cxx 4.1: msgpack::pack into an sbuffer, msgpack::unpack and convert back.
#include <fstream>
#include <msgpack.hpp>

#include "cases/monster.hpp"
#include "common/generic_cases.hpp"

MSGPACK_ADD_ENUM(cases::colour);

namespace msgpack {
MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {
  namespace adaptor {
  // Case 13's types, each an array of its members.
  template <class T>
  struct member_array {
    template <class Stream>
    packer<Stream>& operator()(packer<Stream>& o, const T& value) const {
      members(value, [&](const auto&... m) {
        o.pack_array(sizeof...(m));
        (o.pack(m), ...);
      });
      return o;
    }
    const msgpack::object& operator()(const msgpack::object& o, T& value) const {
      members(value, [&](auto&... m) {
        if (o.type != msgpack::type::ARRAY || o.via.array.size != sizeof...(m))
          throw msgpack::type_error();
        std::size_t i = 0;
        (o.via.array.ptr[i++].convert(m), ...);
      });
      return o;
    }
    template <class V, class F>
    static void members(V& p, F&& f) {
      if constexpr (std::is_same_v<std::remove_const_t<V>, cases::point3>)
        f(p.x, p.y, p.z);
      else if constexpr (std::is_same_v<std::remove_const_t<V>, cases::weapon>)
        f(p.name, p.damage);
      else
        f(p.position, p.mana, p.hp, p.name, p.inventory, p.tint, p.weapons, p.equipped, p.path);
    }
  };
  template <>
  struct pack<cases::point3> : member_array<cases::point3> {};
  template <>
  struct convert<cases::point3> : member_array<cases::point3> {};
  template <>
  struct pack<cases::weapon> : member_array<cases::weapon> {};
  template <>
  struct convert<cases::weapon> : member_array<cases::weapon> {};
  template <>
  struct pack<cases::monster> : member_array<cases::monster> {};
  template <>
  struct convert<cases::monster> : member_array<cases::monster> {};
  template <>
  struct pack<cases::seed_element> {
    template <class Stream>
    packer<Stream>& operator()(packer<Stream>& o, const cases::seed_element& e) const {
      o.pack_array(3);
      o.pack(e.vec);
      o.pack(e.i);
      o.pack(e.f);
      return o;
    }
  };
  template <>
  struct convert<cases::seed_element> {
    const msgpack::object& operator()(const msgpack::object& o, cases::seed_element& e) const {
      if (o.type != msgpack::type::ARRAY || o.via.array.size != 3) throw msgpack::type_error();
      o.via.array.ptr[0].convert(e.vec);
      o.via.array.ptr[1].convert(e.i);
      o.via.array.ptr[2].convert(e.f);
      return o;
    }
  };
  template <>
  struct pack<cases::sparse_row> {
    template <class Stream>
    packer<Stream>& operator()(packer<Stream>& o, const cases::sparse_row& r) const {
      o.pack_array(2);
      o.pack(r.columns);
      o.pack(r.values);
      return o;
    }
  };
  template <>
  struct convert<cases::sparse_row> {
    const msgpack::object& operator()(const msgpack::object& o, cases::sparse_row& r) const {
      if (o.type != msgpack::type::ARRAY || o.via.array.size != 2) throw msgpack::type_error();
      o.via.array.ptr[0].convert(r.columns);
      o.via.array.ptr[1].convert(r.values);
      return o;
    }
  };
  }  // namespace adaptor
}
}  // namespace msgpack

namespace {

struct msgpack_cxx {
  static constexpr const char* name = "msgpack";
  static constexpr bool text = false;

  template <class T>
  static msgpack::sbuffer write(const T& value) {
    msgpack::sbuffer buffer;
    msgpack::pack(buffer, value);
    return buffer;
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value) {
    const msgpack::object_handle handle = msgpack::unpack(bytes.data(), bytes.size());
    handle.get().convert(value);
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    std::ofstream os(path, std::ios::binary);
    msgpack::pack(os, value);
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value) {
    const bench::mapped_file file(path);
    read(file.bytes(), value);
  }
};

const bench::library_registration registration([] {
  bench::generic_cases<msgpack_cxx>();
  bench::memory_cases<msgpack_cxx>("monsters", &cases::monsters, bench::cost::fast);
});

}  // namespace
