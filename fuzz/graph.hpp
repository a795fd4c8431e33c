// SPDX-License-Identifier: BSL-1.0
#pragma once
// The pointer graph the graph fuzzer reads: shared identity, weak back references, owning
// pointers inside shared objects, and observers of objects owned at any depth. Only the values
// read hold shared_ptrs: a cycle of owners refused late in a message is freed by no one (see
// limitations.md), which the leak checker would report against the library's known bound.

#include <bale/all.hpp>
#include <cstdint>
#include <memory>
#include <set>
#include <vector>

namespace fuzz {

struct gnode {
  std::int32_t value = 0;
  std::unique_ptr<gnode> next;  // shared_ptrs only in graph::nodes: no owning cycle can form
  std::weak_ptr<gnode> back;
  std::unique_ptr<std::int32_t> own;
  bale::observer<gnode> seen;
  bale::observer<std::int32_t> watch;
};

struct graph {
  std::vector<std::shared_ptr<gnode>> nodes;
  std::unique_ptr<gnode> root;
  std::weak_ptr<gnode> any;
  bale::observer<gnode> focus;
  bale::observer<std::int32_t> count;
};

/// Reads every object and every observer's target a read graph holds: under AddressSanitizer,
/// an observer left dangling by a read that succeeded is a heap-use-after-free here.
inline std::int64_t touch(const graph& g) {
  std::int64_t sum = 0;
  std::set<const gnode*> seen;
  std::vector<const gnode*> todo;
  const auto visit = [&](const gnode* n) {
    if (n != nullptr && seen.insert(n).second) todo.push_back(n);
  };
  for (const auto& n : g.nodes) visit(n.get());
  visit(g.root.get());
  if (const auto locked = g.any.lock()) visit(locked.get());
  visit(g.focus.get());
  if (g.count) sum += *g.count;
  while (!todo.empty()) {
    const gnode* n = todo.back();
    todo.pop_back();
    sum += n->value;
    if (n->own) sum += *n->own;
    if (n->watch) sum += *n->watch;
    visit(n->next.get());
    if (const auto locked = n->back.lock()) visit(locked.get());
    visit(n->seen.get());
  }
  return sum;
}

}  // namespace fuzz
