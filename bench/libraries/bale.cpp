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
  // The exact size is known first, so bale writes straight into the mapped file: no buffer.
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    bench::write_mapped_file(path, bale::serialized_size(value),
                             [&](std::span<std::byte> out) { bale::serialize_to(out, value); });
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value) {
    const bench::mapped_file file(path);
    bale::deserialize(file.bytes(), value);
  }
};

const bench::library_registration registration([] { bench::generic_cases<bale_binary>(); });

}  // namespace
