// SPDX-License-Identifier: BSL-1.0
// Files: save a value atomically with a checksum, load it back, and see what a damaged file gives.
//   bale_files [directory]
#include <bale/bale.hpp>
#include <bale/file/file.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

struct simulation_state {
  std::uint64_t step = 0;
  std::vector<double> temperature;
  std::map<std::string, double> parameters;
};

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path();
  const fs::path path = dir / "state.bale";

  simulation_state state{42, std::vector<double>(1000, 293.15), {{"dt", 1e-3}, {"viscosity", 0.8}}};
  // Written to a temporary file, synced, then renamed over `path`: a crash leaves the old file.
  bale::save_file(path, state);
  // The header says binary, which type and how long; the payload's CRC32C is checked first.
  const auto back = bale::load_file<simulation_state>(path);
  if (back.step != 42 || back.temperature != state.temperature) return 1;

  // The compact format in a file: load_file reads whichever format the header names.
  bale::save_file<bale::compact>(dir / "state.compact.bale", state);
  std::printf("binary %ju bytes, compact %ju bytes\n",
              static_cast<std::uintmax_t>(fs::file_size(path)),
              static_cast<std::uintmax_t>(fs::file_size(dir / "state.compact.bale")));
  if (bale::load_file<simulation_state>(dir / "state.compact.bale").parameters != state.parameters)
    return 1;

  // Flip one byte of the payload: the checksum catches it, as an error value with try_load_file.
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(100);
    file.put('\x7f');
  }
  const bale::result<simulation_state> damaged = bale::try_load_file<simulation_state>(path);
  if (damaged) return 1;
  std::printf("damaged file: %s\n", damaged.error().what());
  return 0;
}
