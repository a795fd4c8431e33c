// SPDX-License-Identifier: BSL-1.0
// Compression: a whole buffer through LZ4 or zstd, and a compressed file. Link bale::lz4 and
// bale::zstd (CMake) or define BALE_WITH_LZ4 / BALE_WITH_ZSTD and link -llz4 / -lzstd.
//   bale_compression [directory]
#include <bale/bale.hpp>
#include <bale/compress/compress.hpp>
#include <bale/file/file.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

struct reading {
  std::uint32_t sensor;
  float value;
};

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path();

  std::vector<reading> readings;
  for (std::uint32_t i = 0; i < 100000; ++i) readings.push_back({i % 16, 20.0f + float(i % 7)});
  const std::vector<std::byte> bytes = bale::serialize(readings);

  // Chosen while the program runs (an error if that codec is not compiled in) ...
  const std::vector<std::byte> fast = bale::compress(bytes, bale::codec::lz4);
  // ... or named at compile time: this line does not build without zstd.
  const std::vector<std::byte> small = bale::compress<bale::codec::zstd>(bytes, 19);
  std::printf("%zu bytes, lz4 %zu, zstd -19 %zu\n", bytes.size(), fast.size(), small.size());
  // decompress reads the codec from the frame and checks its checksum.
  if (bale::decompress(fast) != bytes || bale::decompress(small) != bytes) return 1;

  // A compressed file: load_file reads whatever codec its header names.
  bale::file_options options;
  options.compression = bale::codec::zstd;
  options.level = 3;
  bale::save_file(dir / "readings.bale", readings, options);
  const auto back = bale::load_file<std::vector<reading>>(dir / "readings.bale");
  if (back.size() != readings.size() || back[99999].value != readings[99999].value) return 1;
  std::printf("file of %ju bytes\n",
              static_cast<std::uintmax_t>(fs::file_size(dir / "readings.bale")));
  return 0;
}
