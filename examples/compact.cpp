// SPDX-License-Identifier: BSL-1.0
// The compact format: the same types, fewer bytes. Integers are varints (zigzag for signed ones),
// and two opt-ins shrink typical data further: small_float and omit_defaults.
#include <bale/bale.hpp>
#include <bale/compact/format.hpp>
#include <bale/compress/small_float.hpp>

#include <cstdio>
#include <string>
#include <vector>

struct particle {
  std::int32_t id = 0;
  bale::small_float<float> charge;  // 0, +-0.5, +-1 ... +-63.5 take one byte, others stay exact
  float mass = 1.0f;
  std::string label;
  std::vector<std::int64_t> history;
  bool operator==(const particle&) const = default;
};
// Members equal to their default value are not written at all (in every format).
template <>
inline constexpr bool bale::omit_defaults<particle> = true;

int main() {
  std::vector<particle> particles;
  for (std::int32_t i = 0; i < 1000; ++i)
    particles.push_back({i, i % 3 - 1.0f, 1.0f, i % 10 == 0 ? "tagged" : "", {i, -i, 7}});

  const auto binary = bale::serialize(particles);
  const auto compact = bale::serialize<bale::compact>(particles);
  std::printf("binary %zu bytes, compact %zu bytes\n", binary.size(), compact.size());
  if (compact.size() * 2 > binary.size()) return 1;

  // The size is known before writing, as for binary: one allocation.
  if (bale::serialized_size<bale::compact>(particles) != compact.size()) return 1;
  return bale::deserialize<std::vector<particle>, bale::compact>(compact) == particles ? 0 : 1;
}
