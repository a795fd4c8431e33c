// SPDX-License-Identifier: BSL-1.0
// Case 10 for bale: the scene through a registry of its shapes, passed to the call with bale::with.
// Nodes, materials and the scene are aggregates (reflected); the shapes have virtual functions, so
// BALE_REFLECT names their members.
#include <bale/all.hpp>
#include <bale/registry.hpp>

#include "cases/scene.hpp"
#include "common/generic_cases.hpp"

BALE_REFLECT(cases::sphere, radius)
BALE_REFLECT(cases::box, extent)
BALE_REFLECT(cases::rounded_box, extent, corner)
BALE_REFLECT(cases::mesh_instance, mesh, lod)

namespace {

const auto shapes = bale::registry<cases::shape>{}
                        .add<cases::sphere>("sphere")
                        .add<cases::box>("box")
                        .add<cases::rounded_box>("rounded_box")
                        .add<cases::mesh_instance>("mesh_instance");

template <class Format, const char* Name>
struct bale_graph {
  static constexpr const char* name = Name;
  static constexpr bool text = false;

  static std::vector<std::byte> write(const cases::scene& value) {
    return bale::serialize<Format>(bale::with(value, shapes));
  }
  static void read(std::span<const char> bytes, cases::scene& value) {
    auto into = bale::with(value, shapes);
    bale::deserialize<Format>(std::as_bytes(bytes), into);
  }
};

constexpr char binary_name[] = "bale";
constexpr char compact_name[] = "bale_compact";

const bench::library_registration registration([] {
  bench::memory_cases<bale_graph<bale::binary, binary_name>>("scene_graph", &cases::scene_graph,
                                                             bench::cost::fast);
  bench::memory_cases<bale_graph<bale::compact, compact_name>>("scene_graph", &cases::scene_graph,
                                                               bench::cost::fast);
});

}  // namespace
