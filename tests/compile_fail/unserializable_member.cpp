// SPDX-License-Identifier: BSL-1.0
// first error: this member of a reflected type cannot be serialized
// names: Account
// names: std::mutex
#include <bale/bale.hpp>
#include <mutex>
struct Account {
  std::string owner;
  std::mutex lock;
};
int main() {
  Account a;
  return static_cast<int>(bale::serialize(a).size());
}
