// SPDX-License-Identifier: BSL-1.0
// Case 13, monsters: bale binary and compact beside code written by hand for exactly bale binary's
// bytes, which makes every check bale makes (the bounds of the output, every length against the
// bytes left, an allocation budget) and no other. Writing into a kept buffer (write_reused), a new
// buffer (write) and a fixed array (write_fixed); reading into a new list (read) and a kept one
// (read_reused). The peers' rows come from their own files.
#include <bale/all.hpp>

#include <cstring>
#include <stdexcept>

#include "cases/monster.hpp"
#include "common/checked_input.hpp"
#include "common/harness.hpp"

namespace {

using cases::monster;
using cases::monster_list;
using cases::point3;
using cases::weapon;

// ---- the hand-written writer: a growing buffer or a fixed one, each put checked ----

class growing_output {
 public:
  explicit growing_output(std::vector<std::byte>& out)
      : out_(out), data_(out.data()), capacity_(out.capacity()) {
    out_.resize(capacity_);
    data_ = out_.data();
  }
  void put(const void* p, std::size_t n) {
    if (n > capacity_ - size_) [[unlikely]]
      grow(n);
    std::memcpy(data_ + size_, p, n);
    size_ += n;
  }
  void finish() { out_.resize(size_); }

 private:
  [[gnu::noinline]] void grow(std::size_t n) {
    capacity_ = std::max(2 * capacity_, size_ + n);
    out_.resize(capacity_);
    data_ = out_.data();
  }
  std::vector<std::byte>& out_;
  std::byte* data_;
  std::size_t size_ = 0;
  std::size_t capacity_;
};

class fixed_output {
 public:
  explicit fixed_output(std::span<std::byte> out) : at_(out.data()), end_(at_ + out.size()) {}
  void put(const void* p, std::size_t n) {
    if (n > static_cast<std::size_t>(end_ - at_)) [[unlikely]]
      throw std::length_error("output too small");
    std::memcpy(at_, p, n);
    at_ += n;
  }
  void finish() {}

 private:
  std::byte* at_;
  std::byte* end_;
};

template <class Out, class T>
void put(Out& out, const T& value) {
  out.put(&value, sizeof value);
}
template <class Out, class Range>
void put_run(Out& out, const Range& r) {
  put(out, std::uint64_t{r.size()});
  out.put(r.data(), r.size() * sizeof(*r.data()));
}
template <class Out>
void put_weapon(Out& out, const weapon& w) {
  put_run(out, w.name);
  put(out, w.damage);
}

template <class Out>
void write_monsters(const monster_list& list, Out& out) {
  put(out, std::uint64_t{list.size()});
  for (const monster& m : list) {
    put(out, m.position);
    put(out, m.mana);
    put(out, m.hp);
    put_run(out, m.name);
    put_run(out, m.inventory);
    put(out, m.tint);
    put(out, std::uint64_t{m.weapons.size()});
    for (const weapon& w : m.weapons) put_weapon(out, w);
    put_weapon(out, m.equipped);
    put_run(out, m.path);
  }
  out.finish();
}

// ---- the hand-written reader: every length against the bytes left, every allocation charged ----

void get_weapon(bench::checked_input& in, weapon& w) {
  in.get_run(w.name);
  w.damage = in.get<std::int16_t>();
}

void read_monsters(std::span<const std::byte> bytes, monster_list& list) {
  bench::checked_input in(bytes);
  list.resize(in.count(49, sizeof(monster)));  // a monster takes at least 49 bytes
  for (monster& m : list) {
    m.position = in.get<point3>();
    m.mana = in.get<std::int16_t>();
    m.hp = in.get<std::int16_t>();
    in.get_run(m.name);
    in.get_run(m.inventory);
    const auto tint = in.get<std::uint8_t>();
    if (tint > 2) throw std::runtime_error("colour");
    m.tint = static_cast<cases::colour>(tint);
    m.weapons.resize(in.count(10, sizeof(weapon)));
    for (weapon& w : m.weapons) get_weapon(in, w);
    get_weapon(in, m.equipped);
    in.get_run(m.path);
  }
  if (!in.done()) throw std::runtime_error("trailing bytes");
}

// ---- the rows ----

struct way {
  void (*write_reused)(const monster_list&, std::vector<std::byte>&);
  std::vector<std::byte> (*write)(const monster_list&);
  std::size_t (*write_fixed)(const monster_list&, std::span<std::byte>);
  void (*read)(std::span<const std::byte>, monster_list&);
};

void rows(const std::string& library, const way& w, std::vector<std::byte> (*reference)()) {
  const std::string name = "monsters/" + library;
  bench::add(name + "/write_reused", [w, reference](benchmark::State& state) {
    const auto& list = cases::monsters();
    std::vector<std::byte> out;
    for (auto _ : state) {
      w.write_reused(list, out);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    bench::require(state, out == reference(), "other bytes than expected");
    bench::report(state, cases::payload_bytes(list), out.size());
  });
  bench::add(name + "/write", [w, reference](benchmark::State& state) {
    const auto& list = cases::monsters();
    std::size_t size = 0;
    for (auto _ : state) {
      const auto out = w.write(list);
      size = out.size();
      benchmark::DoNotOptimize(out.data());
    }
    bench::require(state, w.write(list) == reference(), "other bytes than expected");
    bench::report(state, cases::payload_bytes(list), size);
  });
  bench::add(name + "/write_fixed", [w, reference](benchmark::State& state) {
    const auto& list = cases::monsters();
    std::vector<std::byte> out(reference().size());
    for (auto _ : state) {
      benchmark::DoNotOptimize(w.write_fixed(list, out));
      benchmark::ClobberMemory();
    }
    bench::require(state, out == reference(), "other bytes than expected");
    bench::report(state, cases::payload_bytes(list), out.size());
  });
  bench::add(name + "/read", [w, reference](benchmark::State& state) {
    const auto& list = cases::monsters();
    const auto bytes = reference();
    monster_list back;
    for (auto _ : state) {
      back = monster_list{};
      w.read(bytes, back);
      benchmark::DoNotOptimize(back.data());
    }
    bench::require(state, back == list, "decoded value differs");
    bench::report(state, cases::payload_bytes(list), bytes.size());
  });
  bench::add(name + "/read_reused", [w, reference](benchmark::State& state) {
    const auto& list = cases::monsters();
    const auto bytes = reference();
    monster_list back;
    for (auto _ : state) {
      w.read(bytes, back);
      benchmark::DoNotOptimize(back.data());
      benchmark::ClobberMemory();
    }
    bench::require(state, back == list, "decoded value differs");
    bench::report(state, cases::payload_bytes(list), bytes.size());
  });
}

template <class Format>
std::vector<std::byte> bale_bytes() {
  static const std::vector<std::byte> bytes = bale::serialize<Format>(cases::monsters());
  return bytes;
}

template <class Format>
constexpr way bale_way{[](const monster_list& list, std::vector<std::byte>& out) {
                         bale::serialize_assign<Format>(out, list);
                       },
                       [](const monster_list& list) { return bale::serialize<Format>(list); },
                       [](const monster_list& list, std::span<std::byte> out) {
                         return bale::serialize_to<Format>(out, list);
                       },
                       [](std::span<const std::byte> bytes, monster_list& list) {
                         bale::deserialize<Format>(bytes, list);
                       }};

constexpr way handwritten_way{[](const monster_list& list, std::vector<std::byte>& out) {
                                growing_output sink(out);
                                write_monsters(list, sink);
                              },
                              [](const monster_list& list) {
                                std::vector<std::byte> out;
                                growing_output sink(out);
                                write_monsters(list, sink);
                                return out;
                              },
                              [](const monster_list& list, std::span<std::byte> out) {
                                fixed_output sink(out);
                                write_monsters(list, sink);
                                return out.size();
                              },
                              &read_monsters};

const bench::library_registration registration([] {
  rows("handwritten", handwritten_way, &bale_bytes<bale::binary>);
  rows("bale", bale_way<bale::binary>, &bale_bytes<bale::binary>);
  rows("bale_compact", bale_way<bale::compact>, &bale_bytes<bale::compact>);
});

}  // namespace
