// SPDX-License-Identifier: BSL-1.0
// bale: the binary and compact formats in every case; files through save_file / load_file (header,
// checksum, atomic replace; no fsync, like the peers), and compressed files with LZ4 and zstd.
#include <bale/all.hpp>
#include <bale/file/file.hpp>

#include "common/generic_cases.hpp"

// Case 5 with bale's type-aware options, as a user would declare them: the floats as small_float
// (common values in one byte) and members left at their defaults not written.
struct seed_element_typed {
  bale::small_float<float> vec[4];
  int i = 0;
  bale::small_float<float> f;
  bool operator==(const seed_element_typed&) const = default;
};
template <>
inline constexpr bool bale::omit_defaults<seed_element_typed> = true;

namespace {

// The same values as the plain struct's, converted once outside the timed region.
template <const std::vector<cases::seed_element>& (*Input)()>
const std::vector<seed_element_typed>& typed() {
  static const std::vector<seed_element_typed> values = [] {
    std::vector<seed_element_typed> out;
    for (const auto& e : Input())
      out.push_back({{e.vec[0], e.vec[1], e.vec[2], e.vec[3]}, e.i, e.f});
    return out;
  }();
  return values;
}

template <class Format, const char* Name, bale::codec Compression = bale::codec::none,
          bool VerifyChecksum = true>
struct bale_library {
  static constexpr const char* name = Name;
  static constexpr bool text = false;

  static bale::file_options file_options() {
    bale::file_options options;
    options.sync = false;
    options.compression = Compression;
    options.verify_checksum = VerifyChecksum;
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
constexpr char typed_name[] = "bale_compact_typed";
constexpr char unverified_name[] = "bale_unverified";
using bale_binary = bale_library<bale::binary, binary_name>;
using bale_compact = bale_library<bale::compact, compact_name>;
using bale_lz4 = bale_library<bale::binary, lz4_name, bale::codec::lz4>;
using bale_zstd = bale_library<bale::binary, zstd_name, bale::codec::zstd>;
using bale_compact_typed = bale_library<bale::compact, typed_name>;
// load_file with verify_checksum = false: what the CRC32C pass costs.
using bale_unverified = bale_library<bale::binary, unverified_name, bale::codec::none, false>;

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
  // Case 5's other distributions (generic_cases has the uniform one) and every variant of it.
  using cases::seed_spread;
  for (const auto& [case_name, input] : cases::seed_distributions) {
    if (input != cases::seed_distributions[0].input) {
      bench::memory_cases<bale_binary>(case_name, input, bench::cost::fast);
      bench::file_cases<bale_binary>(case_name, input, bench::cost::fast);
      bench::file_cases<bale_compact>(case_name, input, bench::cost::fast);
    }
    bench::file_cases<bale_lz4>(case_name, input, bench::cost::fast);
    bench::file_cases<bale_zstd>(case_name, input, bench::cost::fast);
  }
  bench::file_cases<bale_compact_typed>(
      "seed_struct", &typed<cases::seed_elements_drawn<seed_spread::uniform>>, bench::cost::fast);
  bench::file_cases<bale_compact_typed>("seed_struct_constant",
                                        &typed<cases::seed_elements_drawn<seed_spread::constant>>,
                                        bench::cost::fast);
  bench::file_cases<bale_compact_typed>("seed_struct_small",
                                        &typed<cases::seed_elements_drawn<seed_spread::small>>,
                                        bench::cost::fast);
  bench::file_cases<bale_unverified>("seed_struct", &cases::seed_elements, bench::cost::fast);
  bench::file_cases<bale_unverified>("double_array", &cases::double_array, bench::cost::fast);
  bench::file_cases<bale_lz4>("double_array", &cases::double_array, bench::cost::fast);
  bench::file_cases<bale_zstd>("double_array", &cases::double_array, bench::cost::fast);
});

}  // namespace
