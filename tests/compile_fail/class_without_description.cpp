// SPDX-License-Identifier: BSL-1.0
// first error: this class is not an aggregate
// names: Account
#include <bale/bale.hpp>
class Account {
 public:
  Account() = default;

 private:
  std::string owner_;
  long long cents_ = 0;
};
int main() {
  return static_cast<int>(bale::serialize(Account{}).size());
}
