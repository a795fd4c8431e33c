// SPDX-License-Identifier: BSL-1.0
// Case 10 for cereal: its binary archive; polymorphic shapes need cereal's global registration
// (CEREAL_REGISTER_TYPE at namespace scope), which writes each type's name once per archive.
#include <cereal/archives/binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/memory.hpp>
#include <cereal/types/polymorphic.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <sstream>

#include "cases/scene.hpp"
#include "common/generic_cases.hpp"
#include "common/membuf.hpp"

namespace cases {
template <class Archive>
void serialize(Archive& ar, sphere& s) {
  ar(s.radius);
}
template <class Archive>
void serialize(Archive& ar, box& b) {
  ar(b.extent);
}
template <class Archive>
void serialize(Archive& ar, rounded_box& b) {
  ar(cereal::base_class<box>(&b), b.corner);
}
template <class Archive>
void serialize(Archive& ar, mesh_instance& m) {
  ar(m.mesh, m.lod);
}
template <class Archive>
void serialize(Archive& ar, material& m) {
  ar(m.name, m.color, m.roughness);
}
template <class Archive>
void serialize(Archive& ar, node& n) {
  ar(n.position, n.surface, n.geometry, n.children);
}
template <class Archive>
void serialize(Archive& ar, scene& s) {
  ar(s.materials, s.root);
}
}  // namespace cases

CEREAL_REGISTER_TYPE(cases::sphere)
CEREAL_REGISTER_TYPE(cases::box)
CEREAL_REGISTER_TYPE(cases::rounded_box)
CEREAL_REGISTER_TYPE(cases::mesh_instance)
CEREAL_REGISTER_POLYMORPHIC_RELATION(cases::shape, cases::sphere)
CEREAL_REGISTER_POLYMORPHIC_RELATION(cases::shape, cases::box)
CEREAL_REGISTER_POLYMORPHIC_RELATION(cases::shape, cases::mesh_instance)

namespace {

struct cereal_graph {
  static constexpr const char* name = "cereal_binary";
  static constexpr bool text = false;

  static std::string write(const cases::scene& value) {
    std::ostringstream os(std::ios::binary);
    {
      cereal::BinaryOutputArchive ar(os);
      ar(value);
    }
    return std::move(os).str();
  }
  static void read(std::span<const char> bytes, cases::scene& value) {
    bench::memory_streambuf buffer(bytes);
    std::istream is(&buffer);
    cereal::BinaryInputArchive ar(is);
    ar(value);
  }
};

const bench::library_registration registration([] {
  bench::memory_cases<cereal_graph>("scene_graph", &cases::scene_graph, bench::cost::fast);
});

}  // namespace
