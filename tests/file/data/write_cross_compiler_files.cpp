// SPDX-License-Identifier: BSL-1.0
// Writes tome.<compiler>.bale and tome.<compiler>.bales (a record file) for the cross-compiler
// test. Built by hand with each compiler, from the repository root:
//   g++ -std=c++20 -Iinclude tests/file/data/write_cross_compiler_files.cpp -o /tmp/w && /tmp/w gcc
//   clang++ -std=c++20 -Iinclude tests/file/data/write_cross_compiler_files.cpp -o /tmp/w && /tmp/w
//   clang
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>

#include <string>

#include "cross_compiler.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string base = std::string("tests/file/data/tome.") + argv[1];
  bale::save_file<bale::compact>(base + ".bale", cross::sample());
  bale::record_writer<cross::tome> records(base + ".bales");
  records.write(cross::sample());
  records.write(cross::tome{});
  records.close();
  return 0;
}
