// SPDX-License-Identifier: BSL-1.0
// Case 7: how to decode an array of integers in the compact format. 10^6 int32 values drawn three
// ways (all small, geometric, full range), decoded by:
//   checked   - one varint at a time through the checked scalar path (a plain loop);
//   fast_run  - bale's run decoder (8 bytes at a time, 8 one-byte values together), what
//               deserialize<std::vector<int>, bale::compact> uses;
//   streamvbyte_scalar / streamvbyte_ssse3 - a block layout measured as the alternative: a 2-bit
//               length per value in control bytes, then the data bytes (4 values per control byte);
//   memcpy    - the 4 MB of raw int32 copied, for scale.
// The sizes go in the same table: the block layout spends a quarter byte more on every small value.
#include <bale/all.hpp>

#include <array>
#include <cstring>
#include <random>

#include "common/harness.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

enum class spread { small, geometric, full };

const std::vector<std::int32_t>& values(spread s) {
  static std::array<std::vector<std::int32_t>, 3> cache;
  auto& v = cache[static_cast<int>(s)];
  if (v.empty()) {
    v.resize(bench::scaled(1'000'000, 1000));
    std::mt19937_64 rng(7 + static_cast<int>(s));
    std::geometric_distribution<std::int32_t> geometric(0.02);
    std::uniform_int_distribution<std::int32_t> small(-60, 60);
    std::uniform_int_distribution<std::int32_t> full(std::numeric_limits<std::int32_t>::min(),
                                                     std::numeric_limits<std::int32_t>::max());
    for (auto& x : v) {
      if (s == spread::small) x = small(rng);
      if (s == spread::geometric) x = (rng() & 1 ? 1 : -1) * geometric(rng);
      if (s == spread::full) x = full(rng);
    }
  }
  return v;
}

// ---- the block layout (measured, not chosen) ----
std::uint32_t zigzag32(std::int32_t v) {
  return (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31);
}
std::int32_t unzigzag32(std::uint32_t v) {
  return static_cast<std::int32_t>(v >> 1) ^ -static_cast<std::int32_t>(v & 1);
}

std::vector<std::uint8_t> streamvbyte_encode(const std::vector<std::int32_t>& in) {
  const std::size_t n = in.size();
  const std::size_t control_bytes = (n + 3) / 4;
  std::vector<std::uint8_t> out(control_bytes + 4 * n + 16);  // +16: the SIMD decoder reads ahead
  std::uint8_t* data = out.data() + control_bytes;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t z = zigzag32(in[i]);
    const unsigned length = z < (1u << 8) ? 1 : z < (1u << 16) ? 2 : z < (1u << 24) ? 3 : 4;
    out[i / 4] = static_cast<std::uint8_t>(out[i / 4] | ((length - 1) << (2 * (i % 4))));
    std::memcpy(data, &z, length);
    data += length;
  }
  out.resize(static_cast<std::size_t>(data - out.data()) + 16);
  return out;
}

void streamvbyte_decode_scalar(const std::uint8_t* in, std::int32_t* out, std::size_t n) {
  const std::uint8_t* data = in + (n + 3) / 4;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned length = ((in[i / 4] >> (2 * (i % 4))) & 3) + 1;
    std::uint32_t z = 0;
    std::memcpy(&z, data, length);
    data += length;
    out[i] = unzigzag32(z);
  }
}

#if defined(__x86_64__)
struct shuffle_tables {
  alignas(16) std::uint8_t masks[256][16];
  std::uint8_t lengths[256];
  shuffle_tables() {
    for (unsigned control = 0; control < 256; ++control) {
      unsigned at = 0;
      for (unsigned k = 0; k < 4; ++k) {
        const unsigned length = ((control >> (2 * k)) & 3) + 1;
        for (unsigned b = 0; b < 4; ++b)
          masks[control][4 * k + b] = b < length ? static_cast<std::uint8_t>(at + b) : 0x80;
        at += length;
      }
      lengths[control] = static_cast<std::uint8_t>(at);
    }
  }
};

__attribute__((target("ssse3"))) void streamvbyte_decode_ssse3(const std::uint8_t* in,
                                                               std::int32_t* out, std::size_t n) {
  static const shuffle_tables tables;
  const std::uint8_t* data = in + (n + 3) / 4;
  const __m128i one = _mm_set1_epi32(1);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const std::uint8_t control = in[i / 4];
    const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data));
    const __m128i z = _mm_shuffle_epi8(
        raw, _mm_load_si128(reinterpret_cast<const __m128i*>(tables.masks[control])));
    const __m128i v = _mm_xor_si128(_mm_srli_epi32(z, 1),
                                    _mm_sub_epi32(_mm_setzero_si128(), _mm_and_si128(z, one)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), v);
    data += tables.lengths[control];
  }
  for (; i < n; ++i) {
    const unsigned length = ((in[i / 4] >> (2 * (i % 4))) & 3) + 1;
    std::uint32_t z = 0;
    std::memcpy(&z, data, length);
    data += length;
    out[i] = unzigzag32(z);
  }
}
#endif

// ---- bale's compact varints, decoded one at a time through the checked scalar path ----
void decode_checked(std::span<const std::byte> bytes, std::vector<std::int32_t>& out) {
  bale::detail::read_context context(bale::limits{});
  bale::detail::packed_reader<bale::detail::compact_codec> reader(bytes, context);
  const std::uint64_t count = bale::detail::compact_codec::read_length(reader);
  out.resize(count);
  for (auto& v : out) reader.read_scalar(v);
}

const char* spread_name(spread s) {
  return s == spread::small ? "small" : s == spread::geometric ? "geometric" : "full";
}

template <class Decode>
void add_decoder(spread s, const std::string& method, std::size_t encoded_size, Decode decode) {
  const std::string name = std::string("int_decoders_") + spread_name(s) + "/" + method + "/read";
  bench::add(name, [s, encoded_size, decode](benchmark::State& state) {
    const auto& input = values(s);
    std::vector<std::int32_t> out;
    for (auto _ : state) {
      decode(out);
      benchmark::DoNotOptimize(out.data());
    }
    bench::require(state, out == input, "decoded values differ");
    bench::report(state, input.size() * sizeof(std::int32_t), encoded_size);
  });
}

void add_all() {
  for (const spread s : {spread::small, spread::geometric, spread::full}) {
    const auto& input = values(s);
    const auto compact =
        std::make_shared<std::vector<std::byte>>(bale::serialize<bale::compact>(input));
    const auto blocks = std::make_shared<std::vector<std::uint8_t>>(streamvbyte_encode(input));
    const std::size_t n = input.size();
    add_decoder(s, "checked", compact->size(),
                [compact](auto& out) { decode_checked(*compact, out); });
    add_decoder(s, "fast_run", compact->size(), [compact](auto& out) {
      bale::deserialize<bale::compact>(std::span<const std::byte>(*compact), out);
    });
    add_decoder(s, "streamvbyte_scalar", blocks->size() - 16, [blocks, n](auto& out) {
      out.resize(n);
      streamvbyte_decode_scalar(blocks->data(), out.data(), n);
    });
#if defined(__x86_64__)
    if (__builtin_cpu_supports("ssse3"))
      add_decoder(s, "streamvbyte_ssse3", blocks->size() - 16, [blocks, n](auto& out) {
        out.resize(n);
        streamvbyte_decode_ssse3(blocks->data(), out.data(), n);
      });
#endif
    add_decoder(s, "memcpy", n * sizeof(std::int32_t), [&input](auto& out) {
      out.resize(input.size());
      std::memcpy(out.data(), input.data(), input.size() * sizeof(std::int32_t));
    });
  }
}

const bench::library_registration registration(add_all);

}  // namespace
