// bale: the binary and compact formats in every case; files through save_file / load_file (header,
// checksum, atomic replace; no fsync, like the peers), and compressed files with LZ4 and zstd.
#include <bale/bale.hpp>
#include <bale/file/file.hpp>

#include "common/generic_cases.hpp"

namespace {

template <class Format, const char* Name, bale::codec Compression = bale::codec::none>
struct bale_library {
  static constexpr const char* name = Name;
  static constexpr bool text = false;

  static bale::file_options file_options() {
    bale::file_options options;
    options.sync = false;
    options.compression = Compression;
    return options;
  }
  template <class T>
  static std::vector<std::byte> write(const T& value) {
    return bale::serialize<Format>(value);
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value) {
    bale::deserialize<Format>(bytes, value);
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    bale::save_file<Format>(path, value, file_options());
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value) {
    bale::load_file<T, Format>(path, value, file_options());
  }
};

constexpr char binary_name[] = "bale";
constexpr char compact_name[] = "bale_compact";
constexpr char lz4_name[] = "bale_lz4";
constexpr char zstd_name[] = "bale_zstd";
using bale_binary = bale_library<bale::binary, binary_name>;
using bale_compact = bale_library<bale::compact, compact_name>;
using bale_lz4 = bale_library<bale::binary, lz4_name, bale::codec::lz4>;
using bale_zstd = bale_library<bale::binary, zstd_name, bale::codec::zstd>;

// Into memory the caller keeps: serialize_to a buffer of the right size, deserialize into a vector
// that keeps its capacity. The pure copy, next to memcpy's.
void reused_cases() {
  bench::add("double_array/bale/write_reused", [](benchmark::State& state) {
    const auto& value = cases::double_array();
    std::vector<std::byte> out(bale::serialized_size(value));
    for (auto _ : state) {
      bale::serialize_to(out, value);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    bench::require(state, bale::deserialize<std::vector<double>>(out) == value,
                   "decoded value differs");
    bench::report(state, cases::payload_bytes(value), out.size());
  });
  bench::add("double_array/bale/read_reused", [](benchmark::State& state) {
    const auto& value = cases::double_array();
    const auto bytes = bale::serialize(value);
    std::vector<double> back(value.size());
    for (auto _ : state) {
      bale::deserialize(bytes, back);
      benchmark::DoNotOptimize(back.data());
      benchmark::ClobberMemory();
    }
    bench::require(state, back == value, "decoded value differs");
    bench::report(state, cases::payload_bytes(value), bytes.size());
  });
}

const bench::library_registration registration([] {
  reused_cases();
  bench::generic_cases<bale_binary>();
  bench::generic_cases<bale_compact>();
  for (auto* input : {&cases::seed_elements}) {
    bench::file_cases<bale_lz4>("seed_struct", input, bench::cost::fast);
    bench::file_cases<bale_zstd>("seed_struct", input, bench::cost::fast);
  }
  bench::file_cases<bale_lz4>("double_array", &cases::double_array, bench::cost::fast);
  bench::file_cases<bale_zstd>("double_array", &cases::double_array, bench::cost::fast);
});

}  // namespace
