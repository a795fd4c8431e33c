// SPDX-License-Identifier: BSL-1.0
// Writes the golden files of the current format version: write_golden DIR writes each case to
// DIR/<case name>. Run it once when BALE_FORMAT_VERSION is raised, into a new
// tests/golden/format-N/, and commit what it writes; the files of earlier versions stay.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>

#include "golden/cases.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  try {
    for (const golden::golden_case& c : golden::all_cases()) {
      const auto bytes = c.write();
      c.read(bytes);  // never commit a file that today's reader cannot read
      const auto path = dir / c.name;
      std::filesystem::create_directories(path.parent_path());
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
      if (!out) throw std::runtime_error("cannot write " + path.string());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "write_golden: %s\n", e.what());
    return 1;
  }
  return 0;
}
