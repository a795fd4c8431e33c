// SPDX-License-Identifier: BSL-1.0
// first error: save() must be const
// names: Account
#include <bale/bale.hpp>
class Account {
 public:
  template <class Archive>
  void save(Archive& ar) {
    ar(owner_, cents_);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(owner_, cents_);
  }

 private:
  std::string owner_;
  long long cents_ = 0;
};
int main() {
  return static_cast<int>(bale::serialize(Account{}).size());
}
