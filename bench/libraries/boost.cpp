// SPDX-License-Identifier: BSL-1.0
// Boost.Serialization 1.74: binary, text and XML archives, used as its documentation shows
// (archives over standard streams; serialize(ar, value, version) for user types).
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/archive/text_iarchive.hpp>
#include <boost/archive/text_oarchive.hpp>
#include <boost/archive/xml_iarchive.hpp>
#include <boost/archive/xml_oarchive.hpp>
#include <boost/serialization/array.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/unordered_map.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
#include <fstream>
#include <sstream>

#include "cases/monster.hpp"
#include "common/generic_cases.hpp"
#include "common/membuf.hpp"

namespace boost::serialization {

template <class Archive, class... Ts>
void serialize(Archive& ar, std::tuple<Ts...>& t, unsigned) {
  std::apply([&](auto&... e) { ((ar & boost::serialization::make_nvp("e", e)), ...); }, t);
}
template <class Archive>
void serialize(Archive& ar, cases::seed_element& e, unsigned) {
  ar& make_nvp("vec", e.vec);
  ar& make_nvp("i", e.i);
  ar& make_nvp("f", e.f);
}
template <class Archive>
void serialize(Archive& ar, cases::sparse_row& r, unsigned) {
  ar& make_nvp("columns", r.columns);
  ar& make_nvp("values", r.values);
}
template <class Archive>
void serialize(Archive& ar, cases::point3& p, unsigned) {
  ar& make_nvp("x", p.x);
  ar& make_nvp("y", p.y);
  ar& make_nvp("z", p.z);
}
template <class Archive>
void serialize(Archive& ar, cases::weapon& w, unsigned) {
  ar& make_nvp("name", w.name);
  ar& make_nvp("damage", w.damage);
}
template <class Archive>
void serialize(Archive& ar, cases::monster& m, unsigned) {
  ar& make_nvp("position", m.position);
  ar& make_nvp("mana", m.mana);
  ar& make_nvp("hp", m.hp);
  ar& make_nvp("name", m.name);
  ar& make_nvp("inventory", m.inventory);
  ar& make_nvp("tint", m.tint);
  ar& make_nvp("weapons", m.weapons);
  ar& make_nvp("equipped", m.equipped);
  ar& make_nvp("path", m.path);
}

}  // namespace boost::serialization

namespace {

template <class OArchive, class IArchive, const char* Name, bool Text>
struct boost_archive {
  static constexpr const char* name = Name;
  static constexpr bool text = Text;

  template <class T>
  static std::string write(const T& value) {
    std::ostringstream os(std::ios::binary);
    {
      OArchive ar(os);
      ar << boost::serialization::make_nvp("value", value);
    }
    return std::move(os).str();
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value) {
    bench::memory_streambuf buffer(bytes);
    std::istream is(&buffer);
    IArchive ar(is);
    ar >> boost::serialization::make_nvp("value", value);
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    std::ofstream os(path, std::ios::binary);
    OArchive ar(os);
    ar << boost::serialization::make_nvp("value", value);
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value) {
    std::ifstream is(path, std::ios::binary);
    IArchive ar(is);
    ar >> boost::serialization::make_nvp("value", value);
  }
};

constexpr char binary_name[] = "boost_binary";
constexpr char text_name[] = "boost_text";
constexpr char xml_name[] = "boost_xml";
using boost_binary = boost_archive<boost::archive::binary_oarchive, boost::archive::binary_iarchive,
                                   binary_name, false>;
using boost_text =
    boost_archive<boost::archive::text_oarchive, boost::archive::text_iarchive, text_name, true>;
using boost_xml =
    boost_archive<boost::archive::xml_oarchive, boost::archive::xml_iarchive, xml_name, true>;

const bench::library_registration registration([] {
  bench::generic_cases<boost_binary>();
  bench::generic_cases<boost_text>();
  bench::generic_cases<boost_xml>();
  bench::memory_cases<boost_binary>("monsters", &cases::monsters, bench::cost::fast);
});

}  // namespace
