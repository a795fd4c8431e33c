// SPDX-License-Identifier: BSL-1.0
// first error: a type of the standard library is serialized by its bale/types/ header
// names: unordered_map
#include <bale/bale.hpp>
#include <unordered_map>
struct lookup {
  std::unordered_map<int, int> positions;
};
int main() {
  return static_cast<int>(bale::serialize(lookup{}).size());
}
