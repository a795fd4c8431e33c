// SPDX-License-Identifier: BSL-1.0
// Case 12, small records: 100,000 of a name, a path of 0 to 4 small structs, an enum, flags and
// an optional owner, written into a kept buffer and read into a kept vector. The baseline is code
// written by hand for exactly these types that produces bale binary's bytes and reads them with
// the checks bale makes (common/checked_input.hpp); bale's rows are beside it.
#include <bale/all.hpp>

#include <cstring>
#include <stdexcept>

#include "cases/evolution.hpp"
#include "common/checked_input.hpp"
#include "common/harness.hpp"

namespace {

using cases::unit;
using cases::waypoint;

// Appends to a kept buffer, growing it geometrically.
class byte_writer {
 public:
  explicit byte_writer(std::vector<std::byte>& out) : out_(out) { out_.clear(); }
  template <class T>
  void put(const T& value) {
    put_bytes(&value, sizeof(T));
  }
  void put_bytes(const void* data, std::size_t n) {
    const std::size_t at = out_.size();
    out_.resize(at + n);
    std::memcpy(out_.data() + at, data, n);
  }

 private:
  std::vector<std::byte>& out_;
};

void write_units(const std::vector<unit>& units, std::vector<std::byte>& out) {
  byte_writer w(out);
  w.put(std::uint64_t{units.size()});
  for (const unit& u : units) {
    w.put(std::uint64_t{u.name.size()});
    w.put_bytes(u.name.data(), u.name.size());
    w.put(std::uint64_t{u.path.size()});
    for (const waypoint& p : u.path) {
      w.put(p.x);
      w.put(p.y);
      w.put(p.wait);
    }
    w.put(static_cast<std::uint8_t>(u.kind));
    w.put(u.flags);
    w.put(static_cast<std::uint8_t>(u.owner.has_value()));
    if (u.owner) w.put(*u.owner);
  }
}

void read_units(std::span<const std::byte> bytes, std::vector<unit>& units) {
  bench::checked_input r(bytes);
  units.resize(r.count(22, sizeof(unit)));  // a record takes at least 22 bytes
  for (unit& u : units) {
    r.get_run(u.name);
    u.path.resize(r.count(10, sizeof(waypoint)));
    for (waypoint& p : u.path) {
      p.x = r.get<float>();
      p.y = r.get<float>();
      p.wait = r.get<std::int16_t>();
    }
    const auto kind = r.get<std::uint8_t>();
    if (kind > 2) throw std::runtime_error("kind");
    u.kind = static_cast<cases::unit_kind>(kind);
    u.flags = r.get<std::uint32_t>();
    const auto present = r.get<std::uint8_t>();
    if (present > 1) throw std::runtime_error("flag");
    if (present != 0)
      u.owner = r.get<std::uint32_t>();
    else
      u.owner.reset();
  }
  if (!r.done()) throw std::runtime_error("trailing bytes");
}

template <class Write, class Read>
void rows(const char* library, Write write, Read read) {
  const std::string name = std::string("small_records/") + library;
  bench::add(name + "/write", [write](benchmark::State& state) {
    const auto& units = cases::units();
    std::vector<std::byte> out;
    for (auto _ : state) {
      write(units, out);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    bench::require(state, out == bale::serialize(units), "other bytes than bale binary's");
    bench::report(state, cases::payload_bytes(units), out.size());
  });
  bench::add(name + "/read", [read](benchmark::State& state) {
    const auto& units = cases::units();
    const auto bytes = bale::serialize(units);
    std::vector<unit> back;
    for (auto _ : state) {
      read(bytes, back);
      benchmark::DoNotOptimize(back.data());
      benchmark::ClobberMemory();
    }
    bench::require(state, back == units, "decoded value differs");
    bench::report(state, cases::payload_bytes(units), bytes.size());
  });
}

const bench::library_registration registration([] {
  rows("handwritten", &write_units, &read_units);
  rows(
      "bale",
      [](const std::vector<unit>& units, std::vector<std::byte>& out) {
        bale::serialize_assign(out, units);
      },
      [](std::span<const std::byte> bytes, std::vector<unit>& units) {
        bale::deserialize(bytes, units);
      });
});

}  // namespace
