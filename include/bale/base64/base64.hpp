// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::base64 with its vector kernels: on x86-64 the widest the CPU has is chosen when the
// program starts: AVX-512 VBMI (48 bytes encoded and 64 characters decoded per step, both
// alphabets), else AVX2 (24 bytes and 32 characters; decoding the standard alphabet); elsewhere,
// or with options::vectorized = false, the table codecs of bale/base64/codec.hpp. Including this
// header in any one translation unit gives the kernels to every base64 of the program, JSON's
// byte arrays included.
//
//   std::string text = bale::base64::encode(bytes);                  // "aGVsbG8="
//   std::vector<std::byte> back = bale::base64::decode(text);
//   bale::base64::encode(bytes, {bale::base64::alphabet::url, false});  // "aGVsbG8"

#include "bale/base64/codec.hpp"
#include "bale/base64/detail/avx2.hpp"
#include "bale/base64/detail/avx512.hpp"

namespace bale::base64::detail {

#if defined(BALE_BASE64_AVX2)
inline bool install_vector_kernels() noexcept {
  static constexpr auto with_widest = [](kernel widest) {
    return vector_kernels{widest, bale::detail::base64_encode_avx2,
                          bale::detail::base64_decode_avx2, bale::detail::base64_encode_avx512,
                          bale::detail::base64_decode_avx512};
  };
  static constexpr vector_kernels avx512 = with_widest(kernel::avx512);
  static constexpr vector_kernels avx2 = with_widest(kernel::avx2);
  __builtin_cpu_init();  // this may run before the compiler's own constructor that does it
  if (__builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw"))
    installed_kernels = &avx512;
  else if (__builtin_cpu_supports("avx2"))
    installed_kernels = &avx2;
  return true;
}
// Runs once, before main, however many translation units include this header.
inline const bool vector_kernels_installed = install_vector_kernels();
#endif

}  // namespace bale::base64::detail
