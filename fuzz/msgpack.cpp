// SPDX-License-Identifier: BSL-1.0
// The MessagePack reader on arbitrary bytes: try_deserialize never throws, never crashes, never
// allocates past the limits. What it accepts writes back to bytes that read again and write the
// same bytes once more. Each input is read as the message type (a map per struct) and as a
// hand-described type with named values, which the reader finds by skipping over a map.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "message.hpp"

namespace {

struct named_values {
  std::optional<std::string> name;
  std::vector<std::int64_t> values;
  fuzz::point where;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name), bale::field("values", values), bale::field("where", where));
  }
};

template <class T>
void check(std::span<const std::byte> input) {
  bale::limits lim;
  lim.max_allocation = 1U << 24;
  auto value = bale::try_deserialize<T, bale::msgpack>(input, lim);
  if (!value) {
    if (value.error().offset() > input.size()) std::abort();
    return;
  }
  const std::vector<std::byte> once = bale::serialize<bale::msgpack>(*value);
  if (bale::serialized_size<bale::msgpack>(*value) != once.size()) std::abort();
  auto again = bale::try_deserialize<T, bale::msgpack>(once);
  if (!again || bale::serialize<bale::msgpack>(*again) != once) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A copy of exactly `size` bytes, so that a read past the end is caught by AddressSanitizer.
  const std::vector<std::byte> input(fuzz::bytes_of(data, size).begin(),
                                     fuzz::bytes_of(data, size).end());
  check<fuzz::message>(input);
  check<named_values>(input);
  return 0;
}
