// SPDX-License-Identifier: BSL-1.0
// first error: add 'friend struct bale::access;' inside the class
// names: Account
#include <bale/bale.hpp>
class Account {
  template <class Archive>
  void serialize(Archive& ar) {
    ar(owner_, cents_);
  }
  std::string owner_;
  long long cents_ = 0;
};
int main() {
  return static_cast<int>(bale::serialize(Account{}).size());
}
