// SPDX-License-Identifier: BSL-1.0
// first error: bale::required_members or bale::former_names names a member the type does not have
// names: Account
#include <bale/bale.hpp>

#include <array>
#include <string>
#include <string_view>
struct Account {
  std::string owner;
  long long cents = 0;
};
template <>
inline constexpr auto bale::required_members<Account> = std::array<std::string_view, 1>{"id"};
int main() {
  return static_cast<int>(bale::serialize(Account{}).size());
}
