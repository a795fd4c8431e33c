// bale's text side: JSON in case 8, base64 in case 9 (the vectorized codec and the portable one).
#include <bale/bale.hpp>

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

template <bool Vectorized>
struct bale_base64 {
  static constexpr const char* name = Vectorized ? "bale" : "bale_portable";
  static bale::base64::options options() {
    bale::base64::options opt;
    opt.vectorized = Vectorized;
    return opt;
  }
  static void encode(std::span<const std::byte> in, std::string& out) {
    out.resize(bale::base64::encoded_size(in.size(), options()));
    bale::base64::encode_to(in, out.data(), options());
  }
  static void decode(std::string_view in, std::vector<std::byte>& out) {
    out.resize(bale::base64::decoded_size(in, options()));
    bale::base64::decode_to(in, out.data(), options());
  }
};

const bench::library_registration registration([] {
  bench::json_cases<bale_json>();
  bench::json_floors();
  bench::base64_cases<bale_base64<true>>();
  bench::base64_cases<bale_base64<false>>();
});

}  // namespace
