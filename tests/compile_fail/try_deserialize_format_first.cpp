// SPDX-License-Identifier: BSL-1.0
// first error: the type first, then the format
// only error
#include <bale/bale.hpp>

int main() {
  const std::vector<std::byte> bytes = bale::serialize(1);
  return bale::try_deserialize<bale::binary, int>(bytes).has_value() ? 0 : 1;
}
