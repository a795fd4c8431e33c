// SPDX-License-Identifier: BSL-1.0
// first error: the type first, then the format
#include <bale/bale.hpp>
#include <bale/file/file.hpp>

int main() {
  return bale::load_file<bale::compact, int>("x.bale");
}
