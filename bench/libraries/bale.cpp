// bale binary in every case. Files are read from a read-only mapping, never through a stream.
#include <bale/bale.hpp>

#include "common/generic_cases.hpp"

namespace {

struct bale_binary {
  static constexpr const char* name = "bale";
  static constexpr bool text = false;

  template <class T>
  static std::vector<std::byte> write(const T& value) {
    return bale::serialize(value);
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value) {
    bale::deserialize(bytes, value);
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    const auto bytes = bale::serialize(value);
    bench::write_whole_file(path, bytes.data(), bytes.size());
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value) {
    const bench::mapped_file file(path);
    bale::deserialize(file.bytes(), value);
  }
};

const bench::library_registration registration([] { bench::generic_cases<bale_binary>(); });

}  // namespace
