// SPDX-License-Identifier: BSL-1.0
// Case 10 for Boost.Serialization: its binary archive, pointers tracked (its default for pointers),
// the shapes registered with the archive (register_type: no class names written, no global export).
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/array.hpp>
#include <boost/serialization/base_object.hpp>
#include <boost/serialization/shared_ptr.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/unique_ptr.hpp>
#include <boost/serialization/vector.hpp>
#include <sstream>

#include "cases/scene.hpp"
#include "common/generic_cases.hpp"
#include "common/membuf.hpp"

namespace boost::serialization {

template <class Archive>
void serialize(Archive&, cases::shape&, unsigned) {}
template <class Archive>
void serialize(Archive& ar, cases::sphere& s, unsigned) {
  ar& base_object<cases::shape>(s);
  ar& s.radius;
}
template <class Archive>
void serialize(Archive& ar, cases::box& b, unsigned) {
  ar& base_object<cases::shape>(b);
  ar& b.extent;
}
template <class Archive>
void serialize(Archive& ar, cases::rounded_box& b, unsigned) {
  ar& base_object<cases::box>(b);
  ar& b.corner;
}
template <class Archive>
void serialize(Archive& ar, cases::mesh_instance& m, unsigned) {
  ar& base_object<cases::shape>(m);
  ar& m.mesh;
  ar& m.lod;
}
template <class Archive>
void serialize(Archive& ar, cases::material& m, unsigned) {
  ar& m.name;
  ar& m.color;
  ar& m.roughness;
}
template <class Archive>
void serialize(Archive& ar, cases::node& n, unsigned) {
  ar& n.position;
  ar& n.surface;
  ar& n.geometry;
  ar& n.children;
}
template <class Archive>
void serialize(Archive& ar, cases::scene& s, unsigned) {
  ar.template register_type<cases::sphere>();
  ar.template register_type<cases::box>();
  ar.template register_type<cases::rounded_box>();
  ar.template register_type<cases::mesh_instance>();
  ar& s.materials;
  ar& s.root;
}

}  // namespace boost::serialization

namespace {

struct boost_graph {
  static constexpr const char* name = "boost_binary";
  static constexpr bool text = false;

  static std::string write(const cases::scene& value) {
    std::ostringstream os(std::ios::binary);
    {
      boost::archive::binary_oarchive ar(os);
      ar << value;
    }
    return std::move(os).str();
  }
  static void read(std::span<const char> bytes, cases::scene& value) {
    bench::memory_streambuf buffer(bytes);
    std::istream is(&buffer);
    boost::archive::binary_iarchive ar(is);
    ar >> value;
  }
};

const bench::library_registration registration([] {
  bench::memory_cases<boost_graph>("scene_graph", &cases::scene_graph, bench::cost::fast);
});

}  // namespace
