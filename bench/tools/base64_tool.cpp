// SPDX-License-Identifier: BSL-1.0
// bale_base64_tool encode|decode FILE: case 9's whole-process row for bale, a program as small as
// coreutils' base64, so that the two start up alike.
#include <cstdio>

#include "common/base64_tool.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fputs("usage: bale_base64_tool encode|decode FILE\n", stderr);
    return 2;
  }
  return bench::base64_tool(argv[1], argv[2]);
}
