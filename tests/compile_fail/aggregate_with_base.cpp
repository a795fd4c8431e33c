// SPDX-License-Identifier: BSL-1.0
// first error: this aggregate has a base class
// names: labelled_point
#include <bale/bale.hpp>
struct point {
  double x = 0, y = 0;
};
struct labelled_point : point {
  int label = 0;
};
int main() {
  return static_cast<int>(bale::serialize(labelled_point{}).size());
}
