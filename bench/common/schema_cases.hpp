// SPDX-License-Identifier: BSL-1.0
#pragma once
// The cases for schema libraries (protobuf, FlatBuffers, Cap'n Proto). A codec converts between the
// C++ value and the library's own message: write = fill the message and encode it to bytes,
// read = decode the bytes and fill the C++ value (every field read once), both timed, as a program
// that keeps its data in C++ types would have to do.
//   template <class T> Buffer encode(const T&);  template <class T> void decode(span<const char>,
//   T&);

#include <filesystem>
#include <span>
#include <string>

#include "cases/monster.hpp"
#include "common/generic_cases.hpp"

namespace bench {

/// Adapts a schema codec for one type to the generic library interface.
template <class Codec>
struct schema_library {
  static constexpr const char* name = Codec::name;
  static constexpr bool text = false;
  template <class T>
  static auto write(const T& value) {
    return Codec::encode(value);
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value) {
    Codec::decode(bytes, value);
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    const auto bytes = Codec::encode(value);
    write_whole_file(path, bytes.data(), bytes.size());
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value) {
    const mapped_file file(path);
    Codec::decode(file.bytes(), value);
  }
};

/// The cases every schema library supports.
template <class Codec>
void schema_cases() {
  using lib = schema_library<Codec>;
  memory_cases<lib>("double_array", &cases::double_array, cost::fast);
  file_cases<lib>("double_array", &cases::double_array, cost::fast);
  tuple_case<lib>();
  memory_cases<lib>("seed_struct", &cases::seed_elements, cost::fast);
  file_cases<lib>("seed_struct", &cases::seed_elements, cost::fast);
  memory_cases<lib>("hps_double_array", &cases::hps_doubles, cost::fast);
  memory_cases<lib>("hps_sparse_matrix", &cases::hps_sparse, cost::fast);
  memory_cases<lib>("hps_hash_map", &cases::hps_map, cost::fast);
  memory_cases<lib>("monsters", &cases::monsters, cost::fast);
}

}  // namespace bench
