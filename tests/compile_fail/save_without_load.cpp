// SPDX-License-Identifier: BSL-1.0
// first error: this type has save() but no load()
// names: Account
#include <bale/bale.hpp>
class Account {
 public:
  template <class Archive>
  void save(Archive& ar) const {
    ar(owner_, cents_);
  }

 private:
  std::string owner_;
  long long cents_ = 0;
};
int main() {
  return static_cast<int>(bale::serialize(Account{}).size());
}
