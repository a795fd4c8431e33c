// SPDX-License-Identifier: BSL-1.0
// Case 11 for bale: reading data of an older layout. "read" decodes with the data's own schema (as
// case 5 does); "read_resolved" decodes the same bytes into the newer layout through
// bale::deserialize_as, which resolves the two schemas member by member.
#include <bale/all.hpp>
#include <bale/schema/resolve.hpp>

#include "cases/evolution.hpp"
#include "common/generic_cases.hpp"

namespace {

template <class Format, class Old, class New>
void evolution_rows(const std::string& case_name, const char* library,
                    const std::vector<Old>& (*input)(), bool (*same)(const Old&, const New&)) {
  bench::add(case_name + "/" + library + "/read", [input](benchmark::State& state) {
    const auto& value = input();
    const auto bytes = bale::serialize<Format>(value);
    std::vector<Old> back;
    for (auto _ : state) {
      back.clear();
      bale::deserialize<Format>(bytes, back);
      benchmark::DoNotOptimize(back.data());
    }
    bench::require(state, back == value, "decoded value differs");
    bench::report(state, cases::payload_bytes(value), bytes.size());
  });
  bench::add(case_name + "/" + library + "/read_resolved", [input, same](benchmark::State& state) {
    const auto& value = input();
    const auto bytes = bale::serialize<Format>(value);
    const std::string& schema = bale::schema_of<std::vector<Old>>().text();
    std::vector<New> back;
    for (auto _ : state) {
      back.clear();
      bale::deserialize_as<std::vector<New>, Format>(bytes, schema, back);
      benchmark::DoNotOptimize(back.data());
    }
    bool ok = back.size() == value.size();
    for (std::size_t i = 0; ok && i < back.size(); ++i) ok = same(value[i], back[i]);
    bench::require(state, ok, "resolved value differs");
    bench::report(state, cases::payload_bytes(value), bytes.size());
  });
}

const bench::library_registration registration([] {
  evolution_rows<bale::binary>("seed_evolution", "bale", &cases::seed_elements, &cases::same_seed);
  evolution_rows<bale::compact>("seed_evolution", "bale_compact", &cases::seed_elements,
                                &cases::same_seed);
  evolution_rows<bale::binary>("records_evolution", "bale", &cases::units, &cases::same_unit);
  evolution_rows<bale::compact>("records_evolution", "bale_compact", &cases::units,
                                &cases::same_unit);
});

}  // namespace
