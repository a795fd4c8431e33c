// SPDX-License-Identifier: BSL-1.0
// first error: bale: cannot count the members of this aggregate
// A reference member cannot be counted (nor read into): bale refuses rather than count too few.
#include <bale/bale.hpp>
struct holder {
  int n;
  int& target;
  double x;
};
int main() {
  int t = 0;
  return static_cast<int>(bale::serialize(holder{1, t, 2.0}).size());
}
