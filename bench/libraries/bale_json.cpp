// SPDX-License-Identifier: BSL-1.0
// bale's text side: JSON in case 8, base64 in case 9 (the vectorized codec and the portable one).
#include <bale/all.hpp>

#include "common/base64_cases.hpp"
#include "common/json_cases.hpp"

namespace {

struct bale_json {
  static constexpr const char* name = "bale";
  static constexpr bool can_write = true;
  template <class T>
  static std::string write(const T& value) {
    return bale::to_json(value);
  }
  template <class T>
  static void read(const std::string& text, T& value) {
    bale::from_json(text, value);
  }
};

// The codec with the widest kernel the CPU runs (what encode_to and decode_to choose), with the
// AVX2 kernel, and with the portable one.
enum class base64_codec { best, avx2, portable };
template <base64_codec Codec>
struct bale_base64 {
  static constexpr const char* name = Codec == base64_codec::best   ? "bale"
                                      : Codec == base64_codec::avx2 ? "bale_avx2"
                                                                    : "bale_portable";
  static bale::base64::detail::kernel kernel() {
    using bale::base64::detail::kernel;
    return Codec == base64_codec::best   ? bale::base64::detail::best_kernel()
           : Codec == base64_codec::avx2 ? kernel::avx2
                                         : kernel::portable;
  }
  static void encode(std::span<const std::byte> in, std::string& out) {
    out.resize(bale::base64::encoded_size(in.size()));
    bale::base64::detail::encode_with(kernel(), in, out.data(), {});
  }
  static void decode(std::string_view in, std::vector<std::byte>& out) {
    out.resize(bale::base64::decoded_size(in));
    bale::base64::detail::decode_with(kernel(), in, out.data(), {});
  }
};

const bench::library_registration registration([] {
  bench::json_cases<bale_json>();
  bench::json_floors();
  bench::base64_cases<bale_base64<base64_codec::best>>();
  if (bale::base64::detail::best_kernel() >= bale::base64::detail::kernel::avx2)
    bench::base64_cases<bale_base64<base64_codec::avx2>>();
  bench::base64_cases<bale_base64<base64_codec::portable>>();
});

}  // namespace
