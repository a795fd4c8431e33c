// SPDX-License-Identifier: BSL-1.0
// first error: a raw pointer is not serialized
// names: int
#include <bale/bale.hpp>
int main() {
  int x = 1;
  int* p = &x;
  return static_cast<int>(bale::serialize(p).size());
}
