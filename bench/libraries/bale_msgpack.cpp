// SPDX-License-Identifier: BSL-1.0
// bale's MessagePack format in every generic case, beside msgpack-cxx (libraries/msgpack.cpp):
// in memory and through save_file / load_file (no fsync, like the peers). A translation unit of
// its own, so that its instantiations do not change how GCC inlines the binary and compact rows.
#include <bale/all.hpp>
#include <bale/file/file.hpp>

#include "cases/monster.hpp"
#include "common/generic_cases.hpp"

namespace {

struct bale_msgpack {
  static constexpr const char* name = "bale_msgpack";
  static constexpr bool text = false;

  static bale::file_options file_options() {
    bale::file_options options;
    options.sync = false;
    return options;
  }
  template <class T>
  static std::vector<std::byte> write(const T& value) {
    return bale::serialize<bale::msgpack>(value);
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value) {
    bale::deserialize<bale::msgpack>(bytes, value);
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    bale::save_file<bale::msgpack>(path, value, file_options());
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value) {
    bale::load_file<T, bale::msgpack>(path, value, file_options());
  }
};

const bench::library_registration registration([] {
  bench::generic_cases<bale_msgpack>();
  bench::memory_cases<bale_msgpack>("monsters", &cases::monsters, bench::cost::fast);
});

}  // namespace
