// SPDX-License-Identifier: BSL-1.0
#pragma once
// Case 10: an object graph. A scene of 10^6 nodes: a tree eight wide in which one node in ten also
// holds a leaf that another parent holds (an instance), every node a shared material (256 of
// them) and an owned polymorphic shape (four types, one two levels below the base). The libraries
// that track pointers (bale, Boost, cereal) must give back the same sharing, not copies.

#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/harness.hpp"

namespace cases {

struct shape {
  virtual ~shape() = default;
  virtual bool same(const shape& other) const = 0;
  virtual std::size_t value_bytes() const = 0;
};
template <class Derived>
bool same_as(const Derived& self, const shape& other) {
  const auto* o = dynamic_cast<const Derived*>(&other);
  return o && typeid(other) == typeid(Derived) && *o == self;
}
struct sphere : shape {
  double radius = 0;
  bool same(const shape& other) const override { return same_as(*this, other); }
  std::size_t value_bytes() const override { return sizeof radius; }
  bool operator==(const sphere& o) const { return radius == o.radius; }
};
struct box : shape {
  std::array<double, 3> extent{};
  bool same(const shape& other) const override { return same_as(*this, other); }
  std::size_t value_bytes() const override { return sizeof extent; }
  bool operator==(const box& o) const { return extent == o.extent; }
};
struct rounded_box : box {
  double corner = 0;
  bool same(const shape& other) const override { return same_as(*this, other); }
  std::size_t value_bytes() const override { return sizeof extent + sizeof corner; }
  bool operator==(const rounded_box& o) const { return extent == o.extent && corner == o.corner; }
};
struct mesh_instance : shape {
  std::uint32_t mesh = 0;
  std::uint32_t lod = 0;
  bool same(const shape& other) const override { return same_as(*this, other); }
  std::size_t value_bytes() const override { return sizeof mesh + sizeof lod; }
  bool operator==(const mesh_instance& o) const { return mesh == o.mesh && lod == o.lod; }
};

struct material {
  std::string name;
  std::array<float, 4> color{};
  float roughness = 0;
  bool operator==(const material&) const = default;
};

struct node {
  std::array<float, 3> position{};
  std::shared_ptr<material> surface;
  std::unique_ptr<shape> geometry;
  std::vector<std::shared_ptr<node>> children;
};

struct scene {
  std::vector<std::shared_ptr<material>> materials;
  std::shared_ptr<node> root;
};

namespace scene_detail {

/// Pairs the objects of two graphs: an object met again must pair with the same partner.
class identity_map {
 public:
  bool pair(const void* a, const void* b, bool& first_visit) {
    const auto [at, inserted] = forward_.emplace(a, b);
    const auto [back_at, back_inserted] = backward_.emplace(b, a);
    first_visit = inserted;
    return inserted == back_inserted && at->second == b && back_at->second == a;
  }

 private:
  std::unordered_map<const void*, const void*> forward_, backward_;
};

inline bool same_node_values(const node& a, const node& b) {
  if (a.position != b.position || a.children.size() != b.children.size()) return false;
  if (!a.geometry || !b.geometry || !a.geometry->same(*b.geometry)) return false;
  return a.surface && b.surface && *a.surface == *b.surface;
}

}  // namespace scene_detail

/// Equal values and the same sharing: every pointer pair maps one object to one object.
inline bool operator==(const scene& a, const scene& b) {
  scene_detail::identity_map ids;
  bool first = false;
  if (a.materials.size() != b.materials.size()) return false;
  for (std::size_t i = 0; i < a.materials.size(); ++i)
    if (!ids.pair(a.materials[i].get(), b.materials[i].get(), first) || !first ||
        !(*a.materials[i] == *b.materials[i]))
      return false;
  if (!a.root || !b.root) return a.root == b.root;
  std::vector<std::pair<const node*, const node*>> stack{{a.root.get(), b.root.get()}};
  if (!ids.pair(a.root.get(), b.root.get(), first)) return false;
  while (!stack.empty()) {
    const auto [x, y] = stack.back();
    stack.pop_back();
    if (!scene_detail::same_node_values(*x, *y)) return false;
    if (!ids.pair(x->surface.get(), y->surface.get(), first) || first) return false;
    for (std::size_t i = 0; i < x->children.size(); ++i) {
      if (!ids.pair(x->children[i].get(), y->children[i].get(), first)) return false;
      if (first) stack.emplace_back(x->children[i].get(), y->children[i].get());
    }
  }
  return true;
}

inline std::unique_ptr<shape> random_shape(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> size(0.1, 10.0);
  switch (rng() % 4) {
    case 0: {
      auto s = std::make_unique<sphere>();
      s->radius = size(rng);
      return s;
    }
    case 1: {
      auto b = std::make_unique<box>();
      b->extent = {size(rng), size(rng), size(rng)};
      return b;
    }
    case 2: {
      auto r = std::make_unique<rounded_box>();
      r->extent = {size(rng), size(rng), size(rng)};
      r->corner = size(rng) / 10;
      return r;
    }
    default: {
      auto m = std::make_unique<mesh_instance>();
      m->mesh = static_cast<std::uint32_t>(rng() % 5000);
      m->lod = static_cast<std::uint32_t>(rng() % 4);
      return m;
    }
  }
}

inline scene make_scene(std::size_t node_count) {
  std::mt19937_64 rng(10);
  std::uniform_real_distribution<float> unit(-1, 1);
  scene s;
  for (int i = 0; i < 256; ++i)
    s.materials.push_back(std::make_shared<material>(material{
        "material_" + std::to_string(i), {unit(rng), unit(rng), unit(rng), 1}, unit(rng)}));
  std::vector<std::shared_ptr<node>> nodes(node_count);
  for (auto& n : nodes) {
    n = std::make_shared<node>();
    n->position = {unit(rng), unit(rng), unit(rng)};
    n->surface = s.materials[rng() % s.materials.size()];
    n->geometry = random_shape(rng);
  }
  constexpr std::size_t width = 8;
  for (std::size_t i = 1; i < node_count; ++i) nodes[(i - 1) / width]->children.push_back(nodes[i]);
  // Leaves (no children of their own) are the instances, so the graph stays acyclic.
  const std::size_t first_leaf = node_count > 1 ? (node_count - 2) / width + 1 : 0;
  for (std::size_t i = 0; i < first_leaf; i += 10)
    nodes[i]->children.push_back(nodes[first_leaf + rng() % (node_count - first_leaf)]);
  s.root = nodes.empty() ? nullptr : nodes[0];
  return s;
}

inline const scene& scene_graph() {
  static const scene value = make_scene(bench::scaled(1'000'000, 200));
  return value;
}

namespace scene_detail {
inline std::size_t payload_of(const scene& s) {
  std::size_t bytes = s.materials.size() * (sizeof(material) - sizeof(std::string));
  for (const auto& m : s.materials) bytes += m->name.size();
  std::unordered_map<const node*, bool> seen;
  std::vector<const node*> stack{s.root.get()};
  while (!stack.empty()) {
    const node* n = stack.back();
    stack.pop_back();
    if (!n || !seen.emplace(n, true).second) continue;
    bytes += sizeof n->position + n->geometry->value_bytes();
    for (const auto& child : n->children) stack.push_back(child.get());
  }
  return bytes;
}
}  // namespace scene_detail

/// The payload of a scene: each node's position and shape, each material's values; no pointers.
inline std::size_t payload_bytes(const scene& s) {
  static const std::size_t of_scene_graph = scene_detail::payload_of(scene_graph());
  return &s == &scene_graph() ? of_scene_graph : scene_detail::payload_of(s);
}

}  // namespace cases
