// SPDX-License-Identifier: BSL-1.0
// first error: this member is a raw pointer
// names: Node
#include <bale/bale.hpp>
struct Node {
  int value;
  Node* next;
};
int main() {
  return static_cast<int>(bale::serialize(Node{}).size());
}
