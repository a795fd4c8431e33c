// SPDX-License-Identifier: BSL-1.0
// first error: cannot_read_member
// names: check_can_read
#include <bale/bale.hpp>
#include <bale/schema/can_read.hpp>
#include <string>
namespace v1 {
struct hero {
  std::string name;
  int power = 0;
};
}  // namespace v1
namespace v2 {
struct hero {
  std::string name;
  std::string power;  // another kind of value: data of v1 does not read into it
};
}  // namespace v2
static_assert(bale::check_can_read<v2::hero, v1::hero>());
int main() {}
