// SPDX-License-Identifier: BSL-1.0
// Cap'n Proto 0.9.2: a MallocMessageBuilder fills the structs, messageToFlatArray encodes; reading
// uses a FlatArrayMessageReader (with a traversal limit that fits the message) and reads every
// field into the C++ types.
#include <capnp/message.h>
#include <capnp/serialize.h>

#include "bench.capnp.h"
#include "cases/monster.hpp"
#include "common/schema_cases.hpp"

namespace {

namespace cp = bench::cp;

// Cap'n Proto's flat array is in words; the benchmark wants bytes.
struct word_buffer {
  kj::Array<capnp::word> words;
  const char* data() const { return reinterpret_cast<const char*>(words.begin()); }
  std::size_t size() const { return words.size() * sizeof(capnp::word); }
};

word_buffer finish(capnp::MallocMessageBuilder& message) {
  return {capnp::messageToFlatArray(message)};
}

template <class Root, class F>
void with_root(std::span<const char> bytes, F&& read) {
  if (reinterpret_cast<std::uintptr_t>(bytes.data()) % sizeof(capnp::word) != 0 ||
      bytes.size() % sizeof(capnp::word) != 0)
    throw std::runtime_error("capnp: input is not whole aligned words");
  const kj::ArrayPtr<const capnp::word> words(reinterpret_cast<const capnp::word*>(bytes.data()),
                                              bytes.size() / sizeof(capnp::word));
  capnp::ReaderOptions options;
  options.traversalLimitInWords = words.size() + 1024;
  capnp::FlatArrayMessageReader reader(words, options);
  read(reader.getRoot<Root>());
}

struct capnp_codec {
  static constexpr const char* name = "capnp";

  static word_buffer encode(const std::vector<double>& v) {
    capnp::MallocMessageBuilder message;
    auto list = message.initRoot<cp::DoubleArray>().initValues(static_cast<unsigned>(v.size()));
    for (unsigned k = 0; k < v.size(); ++k) list.set(k, v[k]);
    return finish(message);
  }
  static void decode(std::span<const char> bytes, std::vector<double>& v) {
    with_root<cp::DoubleArray>(bytes, [&](cp::DoubleArray::Reader root) {
      const auto values = root.getValues();
      v.resize(values.size());
      for (unsigned k = 0; k < values.size(); ++k) v[k] = values[k];
    });
  }

  static word_buffer encode(const std::vector<cases::seed_element>& elements) {
    capnp::MallocMessageBuilder message;
    auto list =
        message.initRoot<cp::SeedElements>().initElements(static_cast<unsigned>(elements.size()));
    for (unsigned k = 0; k < elements.size(); ++k) {
      auto out = list[k];
      const auto& e = elements[k];
      out.setV0(e.vec[0]);
      out.setV1(e.vec[1]);
      out.setV2(e.vec[2]);
      out.setV3(e.vec[3]);
      out.setI(e.i);
      out.setF(e.f);
    }
    return finish(message);
  }
  static void decode(std::span<const char> bytes, std::vector<cases::seed_element>& elements) {
    with_root<cp::SeedElements>(bytes, [&](cp::SeedElements::Reader root) {
      const auto list = root.getElements();
      elements.resize(list.size());
      for (unsigned k = 0; k < list.size(); ++k) {
        const auto in = list[k];
        elements[k] = {{in.getV0(), in.getV1(), in.getV2(), in.getV3()}, in.getI(), in.getF()};
      }
    });
  }

  static word_buffer encode(const cases::tuple_message& t) {
    capnp::MallocMessageBuilder message;
    auto root = message.initRoot<cp::TupleMessage>();
    root.setA(std::get<0>(t));
    root.setB(std::get<1>(t));
    root.setC(kj::arrayPtr(std::get<2>(t).data(), std::get<2>(t).size()));
    root.setD(std::get<3>(t));
    return finish(message);
  }
  static void decode(std::span<const char> bytes, cases::tuple_message& t) {
    with_root<cp::TupleMessage>(bytes, [&](cp::TupleMessage::Reader root) {
      std::get<0>(t) = root.getA();
      std::get<1>(t) = root.getB();
      const auto c = root.getC();
      std::get<2>(t).assign(c.begin(), c.end());
      const auto d = root.getD();
      std::get<3>(t).assign(d.cStr(), d.size());
    });
  }

  static word_buffer encode(const cases::sparse_matrix& m) {
    capnp::MallocMessageBuilder message;
    auto rows = message.initRoot<cp::SparseMatrix>().initRows(static_cast<unsigned>(m.size()));
    for (unsigned r = 0; r < m.size(); ++r) {
      auto columns = rows[r].initColumns(static_cast<unsigned>(m[r].columns.size()));
      for (unsigned k = 0; k < m[r].columns.size(); ++k) columns.set(k, m[r].columns[k]);
      auto values = rows[r].initValues(static_cast<unsigned>(m[r].values.size()));
      for (unsigned k = 0; k < m[r].values.size(); ++k) values.set(k, m[r].values[k]);
    }
    return finish(message);
  }
  static void decode(std::span<const char> bytes, cases::sparse_matrix& m) {
    with_root<cp::SparseMatrix>(bytes, [&](cp::SparseMatrix::Reader root) {
      const auto rows = root.getRows();
      m.resize(rows.size());
      for (unsigned r = 0; r < rows.size(); ++r) {
        const auto columns = rows[r].getColumns();
        m[r].columns.resize(columns.size());
        for (unsigned k = 0; k < columns.size(); ++k) m[r].columns[k] = columns[k];
        const auto values = rows[r].getValues();
        m[r].values.resize(values.size());
        for (unsigned k = 0; k < values.size(); ++k) m[r].values[k] = values[k];
      }
    });
  }

  static word_buffer encode(const cases::hash_map& map) {
    capnp::MallocMessageBuilder message;
    auto entries = message.initRoot<cp::HashMap>().initEntries(static_cast<unsigned>(map.size()));
    unsigned k = 0;
    for (const auto& [key, value] : map) {
      entries[k].setKey(key);
      entries[k].setValue(value);
      ++k;
    }
    return finish(message);
  }
  static void decode(std::span<const char> bytes, cases::hash_map& map) {
    with_root<cp::HashMap>(bytes, [&](cp::HashMap::Reader root) {
      const auto entries = root.getEntries();
      map.clear();
      map.reserve(entries.size());
      for (const auto entry : entries) {
        const auto key = entry.getKey();
        map.emplace(std::string(key.cStr(), key.size()), entry.getValue());
      }
    });
  }

  static void encode_weapon(const cases::weapon& w, cp::Weapon::Builder out) {
    out.setName(kj::StringPtr(w.name.c_str(), w.name.size()));
    out.setDamage(w.damage);
  }
  static void encode_point(const cases::point3& p, cp::Point3::Builder out) {
    out.setX(p.x);
    out.setY(p.y);
    out.setZ(p.z);
  }
  static word_buffer encode(const cases::monster_list& list) {
    capnp::MallocMessageBuilder message;
    auto monsters =
        message.initRoot<cp::Monsters>().initMonsters(static_cast<unsigned>(list.size()));
    for (unsigned k = 0; k < list.size(); ++k) {
      const auto& m = list[k];
      auto out = monsters[k];
      encode_point(m.position, out.initPosition());
      out.setMana(m.mana);
      out.setHp(m.hp);
      out.setName(kj::StringPtr(m.name.c_str(), m.name.size()));
      out.setInventory(kj::arrayPtr(m.inventory.data(), m.inventory.size()));
      out.setColour(static_cast<std::uint8_t>(m.tint));
      auto weapons = out.initWeapons(static_cast<unsigned>(m.weapons.size()));
      for (unsigned j = 0; j < m.weapons.size(); ++j) encode_weapon(m.weapons[j], weapons[j]);
      encode_weapon(m.equipped, out.initEquipped());
      auto path = out.initPath(static_cast<unsigned>(m.path.size()));
      for (unsigned j = 0; j < m.path.size(); ++j) encode_point(m.path[j], path[j]);
    }
    return finish(message);
  }
  static void decode_weapon(cp::Weapon::Reader in, cases::weapon& w) {
    const auto name = in.getName();
    w.name.assign(name.cStr(), name.size());
    w.damage = in.getDamage();
  }
  static cases::point3 decode_point(cp::Point3::Reader p) { return {p.getX(), p.getY(), p.getZ()}; }
  static void decode(std::span<const char> bytes, cases::monster_list& list) {
    with_root<cp::Monsters>(bytes, [&](cp::Monsters::Reader root) {
      const auto monsters = root.getMonsters();
      list.resize(monsters.size());
      for (unsigned k = 0; k < monsters.size(); ++k) {
        const auto in = monsters[k];
        auto& m = list[k];
        m.position = decode_point(in.getPosition());
        m.mana = in.getMana();
        m.hp = in.getHp();
        const auto name = in.getName();
        m.name.assign(name.cStr(), name.size());
        const auto inventory = in.getInventory();
        m.inventory.assign(inventory.begin(), inventory.end());
        m.tint = static_cast<cases::colour>(in.getColour());
        const auto weapons = in.getWeapons();
        m.weapons.resize(weapons.size());
        for (unsigned j = 0; j < weapons.size(); ++j) decode_weapon(weapons[j], m.weapons[j]);
        decode_weapon(in.getEquipped(), m.equipped);
        const auto path = in.getPath();
        m.path.resize(path.size());
        for (unsigned j = 0; j < path.size(); ++j) m.path[j] = decode_point(path[j]);
      }
    });
  }
};

const bench::library_registration registration([] { bench::schema_cases<capnp_codec>(); });

}  // namespace
