// SPDX-License-Identifier: BSL-1.0
// cereal 1.3: binary, portable binary and JSON archives, used as its documentation shows.
#include <cereal/archives/binary.hpp>
#include <cereal/archives/json.hpp>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/tuple.hpp>
#include <cereal/types/unordered_map.hpp>
#include <cereal/types/vector.hpp>
#include <fstream>
#include <sstream>

#include "cases/monster.hpp"
#include "common/generic_cases.hpp"
#include "common/membuf.hpp"

namespace cases {
template <class Archive>
void serialize(Archive& ar, seed_element& e) {
  ar(cereal::make_nvp("vec", e.vec), cereal::make_nvp("i", e.i), cereal::make_nvp("f", e.f));
}
template <class Archive>
void serialize(Archive& ar, sparse_row& r) {
  ar(cereal::make_nvp("columns", r.columns), cereal::make_nvp("values", r.values));
}
template <class Archive>
void serialize(Archive& ar, point3& p) {
  ar(cereal::make_nvp("x", p.x), cereal::make_nvp("y", p.y), cereal::make_nvp("z", p.z));
}
template <class Archive>
void serialize(Archive& ar, weapon& w) {
  ar(cereal::make_nvp("name", w.name), cereal::make_nvp("damage", w.damage));
}
template <class Archive>
void serialize(Archive& ar, monster& m) {
  ar(cereal::make_nvp("position", m.position), cereal::make_nvp("mana", m.mana),
     cereal::make_nvp("hp", m.hp), cereal::make_nvp("name", m.name),
     cereal::make_nvp("inventory", m.inventory), cereal::make_nvp("tint", m.tint),
     cereal::make_nvp("weapons", m.weapons), cereal::make_nvp("equipped", m.equipped),
     cereal::make_nvp("path", m.path));
}
}  // namespace cases

namespace {

template <class OArchive, class IArchive, const char* Name, bool Text>
struct cereal_archive {
  static constexpr const char* name = Name;
  static constexpr bool text = Text;

  template <class T>
  static std::string write(const T& value) {
    std::ostringstream os(std::ios::binary);
    {
      OArchive ar(os);
      ar(cereal::make_nvp("value", value));
    }
    return std::move(os).str();
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value) {
    bench::memory_streambuf buffer(bytes);
    std::istream is(&buffer);
    IArchive ar(is);
    ar(cereal::make_nvp("value", value));
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    std::ofstream os(path, std::ios::binary);
    OArchive ar(os);
    ar(cereal::make_nvp("value", value));
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value) {
    std::ifstream is(path, std::ios::binary);
    IArchive ar(is);
    ar(cereal::make_nvp("value", value));
  }
};

constexpr char binary_name[] = "cereal_binary";
constexpr char portable_name[] = "cereal_portable";
constexpr char json_name[] = "cereal_json";
using cereal_binary =
    cereal_archive<cereal::BinaryOutputArchive, cereal::BinaryInputArchive, binary_name, false>;
using cereal_portable = cereal_archive<cereal::PortableBinaryOutputArchive,
                                       cereal::PortableBinaryInputArchive, portable_name, false>;
using cereal_json =
    cereal_archive<cereal::JSONOutputArchive, cereal::JSONInputArchive, json_name, true>;

const bench::library_registration registration([] {
  bench::generic_cases<cereal_binary>();
  bench::generic_cases<cereal_portable>();
  bench::generic_cases<cereal_json>();
  bench::memory_cases<cereal_binary>("monsters", &cases::monsters, bench::cost::fast);
});

}  // namespace
