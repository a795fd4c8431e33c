// SPDX-License-Identifier: BSL-1.0
// Arrays of any rank (bale/arrays/) in every format, the first byte picking the format: decoding
// never throws; what decodes writes back to the exact size, and those bytes read again and write
// the same bytes (a column-major array read into a row-major one writes row-major).
#include <cstdlib>
#include <string>
#include <string_view>

#include "arrays.hpp"
#include "message.hpp"

namespace {

template <class Format>
void check(const std::vector<std::byte>& input) {
  auto decoded = bale::try_deserialize<fuzz::arrays, Format>(input);
  if (!decoded) return;
  const auto again = bale::serialize<Format>(*decoded);
  if (bale::serialized_size<Format>(*decoded) != again.size()) std::abort();
  auto twice = bale::try_deserialize<fuzz::arrays, Format>(again);
  if (!twice || bale::serialize<Format>(*twice) != again) std::abort();
}

void check_json(std::string_view text) {
  auto decoded = bale::try_from_json<fuzz::arrays>(text);
  if (!decoded) return;
  const std::string again = bale::to_json(*decoded);
  auto twice = bale::try_from_json<fuzz::arrays>(again);
  if (!twice || bale::to_json(*twice) != again) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::vector<std::byte> input(fuzz::bytes_of(data + 1, size - 1).begin(),
                                     fuzz::bytes_of(data + 1, size - 1).end());
  switch (static_cast<fuzz::array_format>(data[0] % 4)) {
    case fuzz::array_format::binary:
      check<bale::binary>(input);
      break;
    case fuzz::array_format::compact:
      check<bale::compact>(input);
      break;
    case fuzz::array_format::msgpack:
      check<bale::msgpack>(input);
      break;
    case fuzz::array_format::json:
      check_json(std::string_view(reinterpret_cast<const char*>(input.data()), input.size()));
      break;
  }
  return 0;
}
