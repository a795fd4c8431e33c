// SPDX-License-Identifier: BSL-1.0
// first error: bale: an enum without a fixed underlying type holds only the values
// Its values cannot be checked as they are read without its enumerators, which only a list of
// names shows.
#include <bale/bale.hpp>
enum shade { light, dark };
int main() {
  return static_cast<int>(bale::serialize(dark).size());
}
