// SPDX-License-Identifier: BSL-1.0
// first error: the type first, then the format
// only error
#include <bale/bale.hpp>
#include <bale/compact/format.hpp>

int main() {
  const std::vector<std::byte> bytes = bale::serialize<bale::compact>(1);
  return bale::deserialize<bale::compact, int>(bytes);
}
