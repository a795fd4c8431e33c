// SPDX-License-Identifier: BSL-1.0
// first error: this type has save() but no load()
// names: reading
#include <bale/bale.hpp>
struct reading {  // an aggregate: its members could be reflected, but its save() says otherwise
  double value = 0;
  template <class Archive>
  void save(Archive& ar) const {
    ar(value);
  }
};
int main() {
  return static_cast<int>(bale::serialize(reading{}).size());
}
