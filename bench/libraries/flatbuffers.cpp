// SPDX-License-Identifier: BSL-1.0
// FlatBuffers 2.0.8: a FlatBufferBuilder fills the tables; reading verifies the buffer (as its
// documentation asks for data from elsewhere) and reads every field into the C++ types, once
// ("read") and twice ("read_twice", as a program that accesses the buffer in place twice would).
#include "bench_generated.h"
#include "cases/monster.hpp"
#include "common/schema_cases.hpp"

namespace {

namespace fb = bench::fb;

template <class Table>
const Table& verified_root(std::span<const char> bytes) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  flatbuffers::Verifier verifier(data, bytes.size());
  if (!verifier.VerifyBuffer<Table>(nullptr))
    throw std::runtime_error("flatbuffers: verification failed");
  return *flatbuffers::GetRoot<Table>(data);
}

struct flatbuffers_codec {
  static constexpr const char* name = "flatbuffers";

  static flatbuffers::DetachedBuffer encode(const std::vector<double>& v) {
    flatbuffers::FlatBufferBuilder builder(v.size() * sizeof(double) + 64);
    const auto values = builder.CreateVector(v);
    builder.Finish(fb::CreateDoubleArray(builder, values));
    return builder.Release();
  }
  static void decode(std::span<const char> bytes, std::vector<double>& v) {
    const auto* values = verified_root<fb::DoubleArray>(bytes).values();
    v.assign(values->begin(), values->end());
  }

  static flatbuffers::DetachedBuffer encode(const std::vector<cases::seed_element>& elements) {
    flatbuffers::FlatBufferBuilder builder(elements.size() * sizeof(fb::SeedElement) + 64);
    std::vector<fb::SeedElement> structs;
    structs.reserve(elements.size());
    for (const auto& e : elements)
      structs.emplace_back(flatbuffers::span<const float, 4>(e.vec), e.i, e.f);
    const auto vector = builder.CreateVectorOfStructs(structs);
    builder.Finish(fb::CreateSeedElements(builder, vector));
    return builder.Release();
  }
  static void decode(std::span<const char> bytes, std::vector<cases::seed_element>& elements) {
    const auto* in = verified_root<fb::SeedElements>(bytes).elements();
    elements.resize(in->size());
    for (flatbuffers::uoffset_t k = 0; k < in->size(); ++k) {
      const fb::SeedElement* s = in->Get(k);
      auto& e = elements[k];
      for (flatbuffers::uoffset_t j = 0; j < 4; ++j) e.vec[j] = s->vec()->Get(j);
      e.i = s->i();
      e.f = s->f();
    }
  }

  static flatbuffers::DetachedBuffer encode(const cases::tuple_message& t) {
    flatbuffers::FlatBufferBuilder builder(128);
    const auto c = builder.CreateVector(std::get<2>(t));
    const auto d = builder.CreateString(std::get<3>(t));
    builder.Finish(fb::CreateTupleMessage(builder, std::get<0>(t), std::get<1>(t), c, d));
    return builder.Release();
  }
  static void decode(std::span<const char> bytes, cases::tuple_message& t) {
    const auto& in = verified_root<fb::TupleMessage>(bytes);
    std::get<0>(t) = in.a();
    std::get<1>(t) = in.b();
    std::get<2>(t).assign(in.c()->begin(), in.c()->end());
    std::get<3>(t).assign(in.d()->c_str(), in.d()->size());
  }

  static flatbuffers::DetachedBuffer encode(const cases::sparse_matrix& m) {
    flatbuffers::FlatBufferBuilder builder(1024);
    std::vector<flatbuffers::Offset<fb::SparseRow>> rows;
    rows.reserve(m.size());
    for (const auto& row : m) {
      const auto columns = builder.CreateVector(row.columns);
      const auto values = builder.CreateVector(row.values);
      rows.push_back(fb::CreateSparseRow(builder, columns, values));
    }
    const auto vector = builder.CreateVector(rows);
    builder.Finish(fb::CreateSparseMatrix(builder, vector));
    return builder.Release();
  }
  static void decode(std::span<const char> bytes, cases::sparse_matrix& m) {
    const auto* rows = verified_root<fb::SparseMatrix>(bytes).rows();
    m.resize(rows->size());
    for (flatbuffers::uoffset_t r = 0; r < rows->size(); ++r) {
      const auto* row = rows->Get(r);
      m[r].columns.assign(row->columns()->begin(), row->columns()->end());
      m[r].values.assign(row->values()->begin(), row->values()->end());
    }
  }

  static flatbuffers::DetachedBuffer encode(const cases::hash_map& map) {
    flatbuffers::FlatBufferBuilder builder(1024);
    std::vector<flatbuffers::Offset<fb::HashEntry>> entries;
    entries.reserve(map.size());
    for (const auto& [key, value] : map) {
      const auto k = builder.CreateString(key);
      entries.push_back(fb::CreateHashEntry(builder, k, value));
    }
    const auto vector = builder.CreateVector(entries);
    builder.Finish(fb::CreateHashMap(builder, vector));
    return builder.Release();
  }
  static void decode(std::span<const char> bytes, cases::hash_map& map) {
    const auto* entries = verified_root<fb::HashMap>(bytes).entries();
    map.clear();
    map.reserve(entries->size());
    for (const auto* entry : *entries) map.emplace(entry->key()->str(), entry->value());
  }

  static flatbuffers::Offset<fb::Weapon> encode_weapon(flatbuffers::FlatBufferBuilder& builder,
                                                       const cases::weapon& w) {
    return fb::CreateWeapon(builder, builder.CreateString(w.name), w.damage);
  }
  static fb::Point3 point(const cases::point3& p) { return {p.x, p.y, p.z}; }
  static flatbuffers::DetachedBuffer encode(const cases::monster_list& list) {
    flatbuffers::FlatBufferBuilder builder(1024);
    std::vector<flatbuffers::Offset<fb::Monster>> monsters;
    std::vector<flatbuffers::Offset<fb::Weapon>> weapons;
    std::vector<fb::Point3> path;
    monsters.reserve(list.size());
    for (const auto& m : list) {
      const auto name = builder.CreateString(m.name);
      const auto inventory = builder.CreateVector(m.inventory);
      weapons.clear();
      for (const auto& w : m.weapons) weapons.push_back(encode_weapon(builder, w));
      const auto weapon_list = builder.CreateVector(weapons);
      const auto equipped = encode_weapon(builder, m.equipped);
      path.clear();
      for (const auto& p : m.path) path.push_back(point(p));
      const auto path_list = builder.CreateVectorOfStructs(path);
      const auto position = point(m.position);
      monsters.push_back(fb::CreateMonster(builder, &position, m.mana, m.hp, name, inventory,
                                           static_cast<std::uint8_t>(m.tint), weapon_list, equipped,
                                           path_list));
    }
    builder.Finish(fb::CreateMonsters(builder, builder.CreateVector(monsters)));
    return builder.Release();
  }
  static void decode_weapon(const fb::Weapon* in, cases::weapon& w) {
    if (in == nullptr || in->name() == nullptr) throw std::runtime_error("weapon");
    w.name.assign(in->name()->c_str(), in->name()->size());
    w.damage = in->damage();
  }
  static cases::point3 decode_point(const fb::Point3& p) { return {p.x(), p.y(), p.z()}; }
  static void decode(std::span<const char> bytes, cases::monster_list& list) {
    const auto* in = verified_root<fb::Monsters>(bytes).monsters();
    if (in == nullptr) throw std::runtime_error("monsters");
    list.resize(in->size());
    for (flatbuffers::uoffset_t k = 0; k < in->size(); ++k) {
      const fb::Monster* from = in->Get(k);
      auto& m = list[k];
      if (from->position() == nullptr || from->name() == nullptr || from->inventory() == nullptr ||
          from->weapons() == nullptr || from->path() == nullptr)
        throw std::runtime_error("monster");
      m.position = decode_point(*from->position());
      m.mana = from->mana();
      m.hp = from->hp();
      m.name.assign(from->name()->c_str(), from->name()->size());
      m.inventory.assign(from->inventory()->begin(), from->inventory()->end());
      m.tint = static_cast<cases::colour>(from->colour());
      m.weapons.resize(from->weapons()->size());
      for (flatbuffers::uoffset_t j = 0; j < from->weapons()->size(); ++j)
        decode_weapon(from->weapons()->Get(j), m.weapons[j]);
      decode_weapon(from->equipped(), m.equipped);
      m.path.resize(from->path()->size());
      for (flatbuffers::uoffset_t j = 0; j < from->path()->size(); ++j)
        m.path[j] = decode_point(*from->path()->Get(j));
    }
  }
};

// Reads every field twice: the cost of using the buffer in place twice.
struct flatbuffers_twice : flatbuffers_codec {
  template <class T>
  static void decode(std::span<const char> bytes, T& value) {
    flatbuffers_codec::decode(bytes, value);
    flatbuffers_codec::decode(bytes, value);
  }
};

const bench::library_registration registration([] {
  bench::schema_cases<flatbuffers_codec>();
  using twice = bench::schema_library<flatbuffers_twice>;
  bench::read_case<twice>("double_array", &cases::double_array, "read_twice");
  bench::read_case<twice>("seed_struct", &cases::seed_elements, "read_twice");
  bench::read_case<twice>("hps_double_array", &cases::hps_doubles, "read_twice");
  bench::read_case<twice>("hps_sparse_matrix", &cases::hps_sparse, "read_twice");
  bench::read_case<twice>("hps_hash_map", &cases::hps_map, "read_twice");
  bench::read_case<twice>("monsters", &cases::monsters, "read_twice");
});

}  // namespace
