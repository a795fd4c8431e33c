// SPDX-License-Identifier: BSL-1.0
// msgpack-cxx 4.1: msgpack::pack into an sbuffer, msgpack::unpack and convert back.
#include <fstream>
#include <msgpack.hpp>

#include "common/generic_cases.hpp"

namespace msgpack {
MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {
  namespace adaptor {
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

const bench::library_registration registration([] { bench::generic_cases<msgpack_cxx>(); });

}  // namespace
