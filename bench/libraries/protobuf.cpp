// SPDX-License-Identifier: BSL-1.0
// protobuf 3.21: generated messages, SerializeToString / ParseFromArray, filled from and read back
// into the C++ types.
#include "bench.pb.h"
#include "cases/evolution.hpp"
#include "cases/monster.hpp"
#include "common/schema_cases.hpp"

namespace {

struct protobuf_codec {
  static constexpr const char* name = "protobuf";

  static std::string encode(const std::vector<double>& v) {
    bench::pb::DoubleArray message;
    message.mutable_values()->Add(v.begin(), v.end());
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, std::vector<double>& v) {
    bench::pb::DoubleArray message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    v.assign(message.values().begin(), message.values().end());
  }

  static std::string encode(const std::vector<cases::seed_element>& elements) {
    bench::pb::SeedElements message;
    message.mutable_elements()->Reserve(static_cast<int>(elements.size()));
    for (const auto& e : elements) {
      auto* out = message.add_elements();
      out->mutable_vec()->Add(std::begin(e.vec), std::end(e.vec));
      out->set_i(e.i);
      out->set_f(e.f);
    }
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, std::vector<cases::seed_element>& elements) {
    bench::pb::SeedElements message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    elements.resize(static_cast<std::size_t>(message.elements_size()));
    for (int k = 0; k < message.elements_size(); ++k) {
      const auto& in = message.elements(k);
      auto& e = elements[static_cast<std::size_t>(k)];
      if (in.vec_size() != 4) throw std::runtime_error("vec");
      std::copy(in.vec().begin(), in.vec().end(), e.vec);
      e.i = in.i();
      e.f = in.f();
    }
  }

  static std::string encode(const cases::tuple_message& t) {
    bench::pb::TupleMessage message;
    message.set_a(std::get<0>(t));
    message.set_b(std::get<1>(t));
    message.set_c(std::string(std::get<2>(t).begin(), std::get<2>(t).end()));
    message.set_d(std::get<3>(t));
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, cases::tuple_message& t) {
    bench::pb::TupleMessage message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    std::get<0>(t) = message.a();
    std::get<1>(t) = message.b();
    std::get<2>(t).assign(message.c().begin(), message.c().end());
    std::get<3>(t) = message.d();
  }

  static std::string encode(const cases::sparse_matrix& m) {
    bench::pb::SparseMatrix message;
    for (const auto& row : m) {
      auto* out = message.add_rows();
      out->mutable_columns()->Add(row.columns.begin(), row.columns.end());
      out->mutable_values()->Add(row.values.begin(), row.values.end());
    }
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, cases::sparse_matrix& m) {
    bench::pb::SparseMatrix message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    m.resize(static_cast<std::size_t>(message.rows_size()));
    for (int r = 0; r < message.rows_size(); ++r) {
      const auto& in = message.rows(r);
      m[static_cast<std::size_t>(r)].columns.assign(in.columns().begin(), in.columns().end());
      m[static_cast<std::size_t>(r)].values.assign(in.values().begin(), in.values().end());
    }
  }

  static std::string encode(const cases::hash_map& map) {
    bench::pb::HashMap message;
    auto& entries = *message.mutable_entries();
    for (const auto& [key, value] : map) entries[key] = value;
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, cases::hash_map& map) {
    bench::pb::HashMap message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    map.clear();
    map.reserve(static_cast<std::size_t>(message.entries_size()));
    for (const auto& [key, value] : message.entries()) map.emplace(key, value);
  }

  static void encode_weapon(const cases::weapon& w, bench::pb::Weapon& out) {
    out.set_name(w.name);
    out.set_damage(w.damage);
  }
  static void encode_point(const cases::point3& p, bench::pb::Point3& out) {
    out.set_x(p.x);
    out.set_y(p.y);
    out.set_z(p.z);
  }
  static std::string encode(const cases::monster_list& list) {
    bench::pb::Monsters message;
    message.mutable_monsters()->Reserve(static_cast<int>(list.size()));
    for (const auto& m : list) {
      auto* out = message.add_monsters();
      encode_point(m.position, *out->mutable_position());
      out->set_mana(m.mana);
      out->set_hp(m.hp);
      out->set_name(m.name);
      out->set_inventory(m.inventory.data(), m.inventory.size());
      out->set_colour(static_cast<std::uint32_t>(m.tint));
      for (const auto& w : m.weapons) encode_weapon(w, *out->add_weapons());
      encode_weapon(m.equipped, *out->mutable_equipped());
      for (const auto& p : m.path) encode_point(p, *out->add_path());
    }
    return message.SerializeAsString();
  }
  static void decode_weapon(const bench::pb::Weapon& in, cases::weapon& w) {
    w.name = in.name();
    w.damage = static_cast<std::int16_t>(in.damage());
  }
  static cases::point3 decode_point(const bench::pb::Point3& in) {
    return {in.x(), in.y(), in.z()};
  }
  static void decode(std::span<const char> bytes, cases::monster_list& list) {
    bench::pb::Monsters message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    list.resize(static_cast<std::size_t>(message.monsters_size()));
    for (int k = 0; k < message.monsters_size(); ++k) {
      const auto& in = message.monsters(k);
      auto& m = list[static_cast<std::size_t>(k)];
      m.position = decode_point(in.position());
      m.mana = static_cast<std::int16_t>(in.mana());
      m.hp = static_cast<std::int16_t>(in.hp());
      m.name = in.name();
      m.inventory.assign(in.inventory().begin(), in.inventory().end());
      m.tint = static_cast<cases::colour>(in.colour());
      m.weapons.resize(static_cast<std::size_t>(in.weapons_size()));
      for (int j = 0; j < in.weapons_size(); ++j)
        decode_weapon(in.weapons(j), m.weapons[static_cast<std::size_t>(j)]);
      decode_weapon(in.equipped(), m.equipped);
      m.path.resize(static_cast<std::size_t>(in.path_size()));
      for (int j = 0; j < in.path_size(); ++j)
        m.path[static_cast<std::size_t>(j)] = decode_point(in.path(j));
    }
  }
};

// Case 11: protobuf reading the older messages with the newer .proto (unknown fields kept aside,
// absent ones at their defaults), beside reading them with their own.
void encode_units(const std::vector<cases::unit>& units, bench::pb::Units& message) {
  for (const auto& u : units) {
    auto* out = message.add_units();
    out->set_name(u.name);
    for (const auto& p : u.path) {
      auto* w = out->add_path();
      w->set_x(p.x);
      w->set_y(p.y);
      w->set_wait(p.wait);
    }
    out->set_kind(static_cast<std::uint32_t>(u.kind));
    out->set_flags(u.flags);
    if (u.owner) out->set_owner(*u.owner);
  }
}
template <class Unit>
void read_unit_fields(const Unit& in, auto& u) {
  u.name = in.name();
  u.path.resize(static_cast<std::size_t>(in.path_size()));
  for (int k = 0; k < in.path_size(); ++k) {
    const auto& w = in.path(k);
    u.path[static_cast<std::size_t>(k)] = {w.x(), w.y(), static_cast<std::int16_t>(w.wait())};
  }
  u.kind = static_cast<cases::unit_kind>(in.kind());
  u.flags = in.flags();
}

template <class Message, class Value, class Decode>
void evolution_row(const std::string& name, const std::string& bytes,
                   const std::vector<Value>& expected, Decode decode) {
  bench::add(name, [&expected, bytes, decode](benchmark::State& state) {
    using Read = std::remove_cvref_t<decltype(decode(std::declval<const Message&>()))>;
    Read back;
    for (auto _ : state) {
      Message message;
      if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        throw std::runtime_error("parse");
      back = decode(message);
      benchmark::DoNotOptimize(back.data());
    }
    bool ok = back.size() == expected.size();
    for (std::size_t i = 0; ok && i < back.size(); ++i) {
      if constexpr (std::is_same_v<typename Read::value_type, Value>)
        ok = back[i] == expected[i];
      else if constexpr (std::is_same_v<Value, cases::seed_element>)
        ok = cases::same_seed(expected[i], back[i]);
      else
        ok = cases::same_unit(expected[i], back[i]);
    }
    bench::require(state, ok, "decoded value differs");
    bench::report(state, cases::payload_bytes(expected), bytes.size());
  });
}

void evolution_rows() {
  const auto& seeds = cases::seed_elements();
  const std::string seed_bytes = protobuf_codec::encode(seeds);
  evolution_row<bench::pb::SeedElements>(
      "seed_evolution/protobuf/read", seed_bytes, seeds, [](const bench::pb::SeedElements& m) {
        std::vector<cases::seed_element> out(static_cast<std::size_t>(m.elements_size()));
        for (int k = 0; k < m.elements_size(); ++k) {
          const auto& in = m.elements(k);
          auto& e = out[static_cast<std::size_t>(k)];
          if (in.vec_size() != 4) throw std::runtime_error("vec");
          std::copy(in.vec().begin(), in.vec().end(), e.vec);
          e.i = in.i();
          e.f = in.f();
        }
        return out;
      });
  evolution_row<bench::pb::SeedElementsV2>(
      "seed_evolution/protobuf/read_resolved", seed_bytes, seeds,
      [](const bench::pb::SeedElementsV2& m) {
        std::vector<cases::seed_element_v2> out(static_cast<std::size_t>(m.elements_size()));
        for (int k = 0; k < m.elements_size(); ++k) {
          const auto& in = m.elements(k);
          auto& e = out[static_cast<std::size_t>(k)];
          if (in.vec_size() != 4) throw std::runtime_error("vec");
          std::copy(in.vec().begin(), in.vec().end(), e.vec);
          e.i = in.i();
          e.health = in.has_health() ? in.health() : 1.0f;
          e.team = static_cast<std::uint8_t>(in.team());
        }
        return out;
      });
  const auto& units = cases::units();
  bench::pb::Units written;
  encode_units(units, written);
  const std::string unit_bytes = written.SerializeAsString();
  evolution_row<bench::pb::Units>(
      "records_evolution/protobuf/read", unit_bytes, units, [](const bench::pb::Units& m) {
        std::vector<cases::unit> out(static_cast<std::size_t>(m.units_size()));
        for (int k = 0; k < m.units_size(); ++k) {
          const auto& in = m.units(k);
          auto& u = out[static_cast<std::size_t>(k)];
          read_unit_fields(in, u);
          if (in.has_owner()) u.owner = in.owner();
        }
        return out;
      });
  evolution_row<bench::pb::UnitsV2>(
      "records_evolution/protobuf/read_resolved", unit_bytes, units,
      [](const bench::pb::UnitsV2& m) {
        std::vector<cases::unit_v2> out(static_cast<std::size_t>(m.units_size()));
        for (int k = 0; k < m.units_size(); ++k) {
          const auto& in = m.units(k);
          auto& u = out[static_cast<std::size_t>(k)];
          read_unit_fields(in, u);
          u.level = in.has_level() ? static_cast<std::uint16_t>(in.level()) : std::uint16_t{1};
          u.tags.assign(in.tags().begin(), in.tags().end());
        }
        return out;
      });
}

const bench::library_registration registration([] {
  bench::schema_cases<protobuf_codec>();
  evolution_rows();
});

}  // namespace
