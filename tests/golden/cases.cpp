// SPDX-License-Identifier: BSL-1.0
#include "golden/cases.hpp"

#include <unistd.h>

#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <bale/json/format.hpp>
#include <bale/mpi/detail/header.hpp>
#include <bale/msgpack/format.hpp>
#include <bale/schema/message.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "golden/values.hpp"

namespace golden {
namespace {

namespace fs = std::filesystem;
using bytes_t = std::vector<std::byte>;

void require(bool condition, const std::string& what) {
  if (!condition) throw std::runtime_error(what);
}

/// The value as JSON: two values are the same when their JSON is (every member, in order).
template <class T>
std::string as_json(const T& value) {
  return bale::to_json(value);
}
std::string as_json(const scene& value) {
  return bale::to_json(bale::with(value, shapes()));
}

template <class T>
void require_same(const T& read, const T& expected) {
  const std::string got = as_json(read), want = as_json(expected);
  require(got == want, "read " + got + ", expected " + want);
}

// Identity, which JSON does not show: the same objects, the cycle, the observers' targets.
void require_same(const graph& read, const graph& expected) {
  require(as_json(read) == as_json(expected), "graph values differ: " + as_json(read));
  require(read.nodes.size() == 3 && read.nodes[0] == read.nodes[2], "shared identity lost");
  const auto& a = read.nodes[0];
  const auto& b = read.nodes[1];
  require(a->next == b && b->back.lock() == a, "next or back lost");
  require(a->seen.get() == b.get() && b->seen.get() == a.get(), "node observers lost");
  require(read.watch.get() == read.counter.get() && read.counter, "observer of counter lost");
}
void require_same(const scene& read, const scene& expected) {
  require(as_json(read) == as_json(expected), "scene values differ: " + as_json(read));
  require(dynamic_cast<const circle*>(read.owned.at(0).get()) != nullptr, "not a circle");
  require(dynamic_cast<const polygon*>(read.shared.at(0).get()) != nullptr, "not a polygon");
  require(read.shared.at(0) == read.shared.at(2), "shared identity lost");
}

// Arrays: the same extents and elements, index by index, whatever the storage order.
void require_same(const arrays& read, const arrays& expected) {
  require(read.rows == expected.rows, "the rank-2 array differs");
  require(read.columns == expected.columns, "the rank-3 array differs");
}

/// Writes and reads T, with the registry where T holds polymorphic pointers.
template <class T>
decltype(auto) wrap(T& value) {
  if constexpr (std::is_same_v<std::remove_const_t<T>, scene>)
    return bale::with(value, shapes());
  else
    return (value);
}

template <class Format, class T>
golden_case value_case(std::string folder, std::string name, T (*make)()) {
  return {folder + "/" + name,
          [make] {
            const T value = make();
            return bale::serialize<Format>(wrap(value));
          },
          [make](std::span<const std::byte> bytes) {
            T read{};
            decltype(auto) into = wrap(read);
            bale::deserialize<Format>(bytes, into);
            require_same(read, make());
          }};
}

// A strided view of a column-major array, written column by column (the layout nearest its
// memory) and read into an array of C order.
template <class Format>
golden_case strided_array_case(std::string folder) {
  using range = boost::multi_array_types::index_range;
  static const auto part = boost::indices[range(0, 4, 2)][range()][range(1, 3)];
  return {folder + "/strided_array",
          [] {
            const arrays value = make_arrays();
            return bale::serialize<Format>(value.columns[part]);
          },
          [](std::span<const std::byte> bytes) {
            boost::multi_array<double, 3> read;
            bale::deserialize<Format>(bytes, read);
            const arrays value = make_arrays();
            require(read == value.columns[part], "the strided view differs");
          }};
}

template <class Format>
void add_values(std::vector<golden_case>& out, const std::string& folder) {
  out.push_back(value_case<Format>(folder, "scalars", make_scalars));
  out.push_back(value_case<Format>(folder, "sequences", make_sequences));
  out.push_back(value_case<Format>(folder, "associative", make_associative));
  out.push_back(value_case<Format>(folder, "sums", make_sums));
  out.push_back(value_case<Format>(folder, "nested", make_nested));
  out.push_back(value_case<Format>(folder, "described", make_described));
  out.push_back(value_case<Format>(folder, "settings", make_settings));
  out.push_back(value_case<Format>(folder, "graph", make_graph));
  out.push_back(value_case<Format>(folder, "scene", make_scene));
  out.push_back(value_case<Format>(folder, "arrays", make_arrays));
  out.push_back(strided_array_case<Format>(folder));
}

/// A scratch file, removed when done.
class scratch_file {
 public:
  scratch_file()
      : path_(fs::temp_directory_path() /
              ("bale_golden_" + std::to_string(::getpid()) + "_" + std::to_string(next_++))) {}
  ~scratch_file() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  scratch_file(const scratch_file&) = delete;
  scratch_file& operator=(const scratch_file&) = delete;
  const fs::path& path() const { return path_; }
  bytes_t contents() const {
    std::ifstream in(path_, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes_t out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
  }
  void fill(std::span<const std::byte> bytes) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }

 private:
  static inline int next_ = 0;
  fs::path path_;
};

template <class Format, class T>
golden_case file_case(std::string name, T (*make)(), bale::codec compression, bool exact) {
  return {"file/" + name,
          [make, compression] {
            scratch_file f;
            bale::save_file<Format>(f.path(), make(), {.compression = compression, .sync = false});
            return f.contents();
          },
          [make](std::span<const std::byte> bytes) {
            scratch_file f;
            f.fill(bytes);
            require_same(bale::load_file<T>(f.path()), make());
          },
          exact};
}

// A version 1 file (before schemas): the header, then the binary payload. Its type check is the
// writing compiler's spelling of the type, so it is read with check_type off, as another
// compiler's version 1 file must be; and today's writer writes none, so it is read only.
golden_case version_1_file() {
  return {"file/scalars_version_1.bale",
          [] {
            const bytes_t payload = bale::serialize(make_scalars());
            bytes_t out(bale::detail::file_header_size + payload.size());
            bale::detail::write_header(out.data(), {bale::binary::id, bale::codec::none,
                                                    bale::detail::type_fingerprint<scalars>(),
                                                    payload.size(), payload.size(), 0});
            out[4] = std::byte{1};
            std::memcpy(out.data() + bale::detail::file_header_size, payload.data(),
                        payload.size());
            bale::detail::put_u32(out.data() + 32, bale::detail::crc32c(std::span(payload)));
            bale::detail::put_u32(out.data() + 36,
                                  bale::detail::crc32c(std::span<const std::byte>(out.data(), 36)));
            return out;
          },
          [](std::span<const std::byte> bytes) {
            scratch_file f;
            f.fill(bytes);
            require_same(bale::load_file<scalars>(f.path(), {.check_type = false}), make_scalars());
          },
          false};
}

template <class Format>
golden_case record_case(std::string name) {
  return {"records/" + name,
          [] {
            scratch_file f;
            {
              bale::record_writer<described, Format> out(f.path());
              out.write(make_described());
              out.write(described{});
            }
            return f.contents();
          },
          [](std::span<const std::byte> bytes) {
            scratch_file f;
            f.fill(bytes);
            bale::record_reader<described, Format> in(f.path());
            const auto first = in.next();
            const auto second = in.next();
            require(first && second && !in.next(), "not two records");
            require_same(*first, make_described());
            require_same(*second, described{});
          }};
}

golden_case framed_case(std::string name, bool with_schema) {
  return {"framed/" + name,
          [with_schema] {
            return bale::serialize_framed(make_described(), {.with_schema = with_schema});
          },
          [](std::span<const std::byte> bytes) {
            bale::schema_cache cache;
            require_same(bale::deserialize_framed<described>(bytes, cache), make_described());
          }};
}

// A bale::mpi message as it travels in one piece: the 32-byte header, then the binary payload.
golden_case mpi_case() {
  namespace mpi = bale::mpi::detail;
  return {"mpi/described",
          [] {
            bytes_t out(mpi::header_size);
            bale::serialize_into(out, make_described());
            mpi::write_header(out.data(), {bale::binary::id, mpi::flag_fingerprint,
                                           mpi::message_fingerprint<described>(),
                                           out.size() - mpi::header_size, std::uint64_t{1} << 26});
            return out;
          },
          [](std::span<const std::byte> bytes) {
            const mpi::header h = mpi::read_header(bytes);
            require(h.format == bale::binary::id && h.flags == mpi::flag_fingerprint, "header");
            require(h.fingerprint == mpi::message_fingerprint<described>(), "fingerprint");
            require_same(bale::deserialize<described>(bytes.subspan(mpi::header_size)),
                         make_described());
          }};
}

}  // namespace

std::vector<golden_case> all_cases() {
  std::vector<golden_case> out;
  add_values<bale::binary>(out, "binary");
  add_values<bale::compact>(out, "compact");
  add_values<bale::json>(out, "json");
  add_values<bale::msgpack>(out, "msgpack");
  out.push_back(file_case<bale::binary>("described.bale", make_described, bale::codec::none, true));
  out.push_back(
      file_case<bale::compact>("described_compact.bale", make_described, bale::codec::none, true));
  out.push_back(file_case<bale::binary>("sequences.bale", make_sequences, bale::codec::none, true));
#ifdef BALE_WITH_LZ4
  out.push_back(
      file_case<bale::binary>("described_lz4.bale", make_described, bale::codec::lz4, false));
#endif
#ifdef BALE_WITH_ZSTD
  out.push_back(
      file_case<bale::compact>("described_zstd.bale", make_described, bale::codec::zstd, false));
#endif
  out.push_back(version_1_file());
  out.push_back(record_case<bale::binary>("described.bales"));
  out.push_back(record_case<bale::compact>("described_compact.bales"));
  out.push_back(framed_case("with_schema", true));
  out.push_back(framed_case("fingerprint_only", false));
  out.push_back(mpi_case());
  return out;
}

}  // namespace golden
