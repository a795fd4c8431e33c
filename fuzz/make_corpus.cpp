// SPDX-License-Identifier: BSL-1.0
// Writes the seed corpus: valid messages for each fuzz target, so fuzzing starts from real
// structure. Run from the repository root: build/fuzz/fuzz/fuzz_make_corpus
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <bale/compress/compress.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <bale/json/format.hpp>
#include <bale/mpi/detail/header.hpp>
#include <bale/schema/message.hpp>

#include "graph.hpp"
#include "message.hpp"
#ifdef BALE_FUZZ_ARRAYS
#include "arrays.hpp"
#endif

namespace {

void write(const std::string& target, const std::string& name,
           const std::vector<std::byte>& bytes) {
  const std::filesystem::path dir = std::filesystem::path("fuzz/corpus") / target;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}
void write(const std::string& target, const std::string& name, std::string_view text) {
  write(target, name,
        std::vector<std::byte>(reinterpret_cast<const std::byte*>(text.data()),
                               reinterpret_cast<const std::byte*>(text.data() + text.size())));
}

std::vector<std::byte> file_bytes(const std::filesystem::path& path, std::uint8_t mode) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> chars((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes{std::byte{mode}};
  for (const char c : chars) bytes.push_back(static_cast<std::byte>(c));
  return bytes;
}

// A record file with an index, as bale::mpi::save_file writes it from one rank, read by the
// file target's record reader (mode 1).
std::vector<std::byte> indexed_records(const fuzz::message& m, int count) {
  std::vector<std::byte> bytes{std::byte{1}};
  std::vector<std::byte> file = bale::detail::record_file_head<fuzz::message, bale::binary>(
      bale::wire_versions::indexed_record_file);
  std::vector<std::uint64_t> offsets;
  for (int k = 0; k < count; ++k) {
    offsets.push_back(file.size());
    bale::detail::append_record<bale::binary>(file, m);
  }
  const std::uint64_t records_end = file.size();
  const std::vector<std::uint64_t> counts{static_cast<std::uint64_t>(count)};
  const std::vector<std::byte> head = bale::detail::record_index_head(counts);
  file.insert(file.end(), head.begin(), head.end());
  bale::detail::append_record_offsets(file, offsets, 0);
  bale::detail::append_record_index_end(file, records_end, 0, records_end);
  bytes.insert(bytes.end(), file.begin(), file.end());
  return bytes;
}

fuzz::shape make_shape(std::uint32_t id, int variant) {
  fuzz::shape s{id,
                {id * 10, "maker"},
                {{1, 2, "p", true}, {3.5, -4, "", false}},
                std::nullopt,
                {},
                {{"w", 1.5}},
                nullptr,
                {1, 2, 3},
                {true, false, true},
                {},
                {},
                nullptr,
                nullptr};
  if (variant == 1) s.extra = std::int64_t{-7};
  if (variant == 2) s.extra = std::vector<std::uint16_t>{1, 2, 3};
  if (variant == 3) s.extra = std::u32string(U"abc");
  if (id % 2 == 0) s.note = "note";
  return s;
}

// A framed message of format version 1: its schema named by the 64-bit fingerprint.
template <class T>
std::vector<std::byte> format_1_frame(const T& value, bool with_text) {
  const bale::type_schema& schema = bale::schema_of<T>();
  std::vector<std::byte> bytes(9 + (with_text ? 4 + schema.text().size() : 0));
  bytes[0] = with_text ? std::byte{2} : std::byte{1};
  bale::detail::put_u64(bytes.data() + 1, schema.fingerprint());
  if (with_text) {
    bale::detail::put_u32(bytes.data() + 9, static_cast<std::uint32_t>(schema.text().size()));
    std::memcpy(bytes.data() + 13, schema.text().data(), schema.text().size());
  }
  const std::vector<std::byte> payload = bale::serialize(value);
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  return bytes;
}

// A bale::mpi message whose payload is all in it, after the byte that picks the receiver.
template <class T>
std::vector<std::byte> mpi_message(int receiver, const T& value) {
  namespace wire = bale::mpi::detail;
  const std::vector<std::byte> payload = bale::serialize(value);
  std::vector<std::byte> bytes(1 + wire::header_size);
  bytes[0] = static_cast<std::byte>(receiver);
  wire::write_header(bytes.data() + 1, {bale::binary::id, wire::flag_fingerprint,
                                        wire::message_fingerprint<T>(), payload.size(), 1u << 30});
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  return bytes;
}

#ifdef BALE_FUZZ_ARRAYS
// Each format's bytes after the byte that picks it.
void write_arrays() {
  fuzz::arrays value;
  auto& [rows, columns, fixed, cube] = value;
  rows.resize(2, 3);
  rows << 1, -2, 3, 400, -500, 6;
  columns.resize(3, 2);
  columns << 0.5F, 1, 2, 3, 4, 5;
  fixed << 1, 2, 3, 4, 5, 6;
  cube.resize(boost::extents[2][2][3]);
  for (std::size_t i = 0; i < cube.num_elements(); ++i)
    cube.data()[i] = static_cast<std::uint8_t>(i);
  const auto prefixed = [](fuzz::array_format format, std::span<const std::byte> bytes) {
    std::vector<std::byte> out{static_cast<std::byte>(format)};
    out.insert(out.end(), bytes.begin(), bytes.end());
    return out;
  };
  write("arrays", "binary", prefixed(fuzz::array_format::binary, bale::serialize(value)));
  write("arrays", "compact",
        prefixed(fuzz::array_format::compact, bale::serialize<bale::compact>(value)));
  write("arrays", "msgpack",
        prefixed(fuzz::array_format::msgpack, bale::serialize<bale::msgpack>(value)));
  const std::string text = bale::to_json(value);
  write("arrays", "json", prefixed(fuzz::array_format::json, std::as_bytes(std::span(text))));
}
#endif

}  // namespace

int main() {
  for (const int checked : {0, 4}) {
    const std::string suffix = checked ? "_checked" : "";
    write("mpi_message", "doubles" + suffix,
          mpi_message(checked | 0, std::vector<double>(100, 1.5)));
    fuzz::message shapes;
    shapes.push_back(make_shape(1, 1));
    shapes.push_back(make_shape(2, 3));
    write("mpi_message", "shapes" + suffix, mpi_message(checked | 1, shapes));
    write("mpi_message", "text" + suffix, mpi_message(checked | 2, std::string("hello")));
    write("mpi_message", "whole_array" + suffix,
          mpi_message(checked | 3, std::vector<double>(40, -2.0)));
  }
  for (int n = 0; n < 4; ++n) {
    fuzz::message m;
    for (int i = 0; i < n; ++i) m.push_back(make_shape(static_cast<std::uint32_t>(i), i));
    if (n == 3) {
      m[0].child = std::make_unique<fuzz::shape>(make_shape(9, 2));
      const auto shared = std::make_shared<fuzz::point>(fuzz::point{5, 6, "shared", true});
      m[0].shared = {shared, nullptr, shared};
      m[2].shared = {shared};
      m[0].child->shared = {shared, std::make_shared<fuzz::point>()};
      m[1].seen = shared.get();      // met after its owner
      m[0].near = m[0].child.get();  // met before its owner
      m[2].near = m[0].child.get();
    }
    const auto bytes = bale::serialize(m);
    for (const char* target : {"deserialize", "try_deserialize"})
      write(target, "message" + std::to_string(n), bytes);
    write("msgpack", "message" + std::to_string(n), bale::serialize<bale::msgpack>(m));
    write("compact", "message" + std::to_string(n), bale::serialize<bale::compact>(m));
    for (auto c : {bale::codec::none, bale::codec::lz4, bale::codec::zstd})
      if (bale::codec_available(c))
        write("decompress", std::string(bale::to_string(c)) + std::to_string(n),
              bale::compress(bytes, c));
    // The file target's first byte picks the reader: 0 load_file, 2 without checksums, 1 records.
    const auto scratch = std::filesystem::temp_directory_path() / "bale_make_corpus";
    bale::save_file(scratch, m, {.compression = n == 3 ? bale::codec::zstd : bale::codec::none});
    write("file", "bale" + std::to_string(n), file_bytes(scratch, 0));
    write("file", "bale_unchecked" + std::to_string(n), file_bytes(scratch, 2));
    {
      bale::record_writer<fuzz::message> records(scratch);
      for (int k = 0; k <= n; ++k) records.write(m);
      records.close();
    }
    write("file", "records" + std::to_string(n), file_bytes(scratch, 1));
    write("file", "indexed" + std::to_string(n), indexed_records(m, n + 1));
    std::filesystem::remove(scratch);
    const std::string text = bale::to_json(m, {.pretty = n == 2});
    write("json", "message" + std::to_string(n) + ".json", text);
  }
  const fuzz::samples samples{{1, {0.5F, -2, 1e30F}, true, {{-0.0, 1e-300}}, 255, -1},
                              {-7, {}, false, {{3.25, 2}}, 0, 1LL << 60}};
  for (const bool pretty : {false, true}) {
    const std::string text = bale::to_json(samples, {.pretty = pretty});
    write("json", pretty ? "samples_pretty.json" : "samples.json", text);
  }
  // Arrays of integers long enough for the many-at-a-time reader, with every digit count.
  std::vector<std::vector<std::int16_t>> arrays{{}, {0}};
  for (int n = 0; n < 3; ++n) {
    std::vector<std::int16_t>& a = arrays.emplace_back();
    for (int i = 0; i < 40; ++i)
      a.push_back(static_cast<std::int16_t>((i * 7919 + n) % 65536 - 32768));
  }
  const std::string integers = bale::to_json(arrays);
  write("json", "integer_arrays.json", integers);
  fuzz::canonical c;
  std::get<0>(c) = {{1, 2, "a", true}};
  std::get<1>(c) = u"x";
  std::get<2>(c) = std::vector<std::vector<std::uint32_t>>{{1}, {}};
  std::get<3>(c) = std::make_unique<fuzz::point>(fuzz::point{0, 0, "p", false});
  std::get<4>(c) = std::bitset<20>(0x5A5);
  write("roundtrip", "canonical0", bale::serialize(c));
  write("roundtrip", "canonical1", bale::serialize(fuzz::canonical{}));
  std::vector<std::byte> several;
  const std::vector<std::uint32_t> numbers{1, 2, 3};
  bale::serialize_into(several, std::string_view("name"), std::span<const std::uint32_t>(numbers),
                       fuzz::point{1, 2, "x", true}, std::vector<fuzz::shape>{});
  write("reader", "several0", several);
  // Typeless reading: a schema, a zero byte, a payload; and files read with inspect (mode 8).
  fuzz::plain plain;
  std::get<0>(plain) = {{1, 2, "a", true}};
  std::get<1>(plain) = u"wide";
  std::get<2>(plain) = std::string("text");
  std::get<3>(plain).set(1).set(69);
  std::get<4>(plain) = {{"k", {1, -2}}, {"empty", {}}};
  std::get<5>(plain) = samples;
  const auto schema_input = [](const std::string& schema, const std::vector<std::byte>& payload) {
    std::vector<std::byte> input(reinterpret_cast<const std::byte*>(schema.data()),
                                 reinterpret_cast<const std::byte*>(schema.data() + schema.size()));
    input.push_back(std::byte{0});
    input.insert(input.end(), payload.begin(), payload.end());
    return input;
  };
  const std::string& schema = bale::schema_of<fuzz::plain>().text();
  for (const bool compact : {false, true}) {
    const auto payload = compact ? bale::serialize<bale::compact>(plain) : bale::serialize(plain);
    write("schema", compact ? "plain_compact" : "plain_binary", schema_input(schema, payload));
  }
  // An older layout of fuzz::plain's parts, resolved into it.
  using older =
      std::tuple<std::vector<fuzz::point>, std::u16string, std::variant<std::monostate>,
                 std::bitset<70>, std::map<std::string, std::vector<std::int16_t>>, fuzz::samples>;
  const older old{{{3, 4, "b", false}}, u"old", {}, {}, {{"k", {7}}}, samples};
  const std::string& old_schema = bale::schema_of<older>().text();
  for (const bool compact : {false, true}) {
    const auto payload = compact ? bale::serialize<bale::compact>(old) : bale::serialize(old);
    write("schema", compact ? "older_compact" : "older_binary", schema_input(old_schema, payload));
  }
  // A versioned type described by hand, in a record with a required member.
  const fuzz::stamped stamped{3, {{1, "a"}, {2, ""}}, "n"};
  write("schema", "stamped",
        schema_input(bale::schema_of<fuzz::stamped>().text(), bale::serialize(stamped)));
  // Framed messages (bale/schema/message.hpp): with their schema, and by its name only; and
  // frames of format version 1.
  write("schema", "framed_stamped", bale::serialize_framed(stamped, {.with_schema = true}));
  write("schema", "framed_plain",
        bale::serialize_framed<bale::compact>(plain, {.with_schema = true}));
  write("schema", "framed_digest", bale::serialize_framed(stamped));
  write("schema", "framed_format_1", format_1_frame(stamped, true));
  write("schema", "framed_fingerprint", format_1_frame(stamped, false));
  // Pointer graphs (fuzz/graph.cpp): every format, a read through its schema, a framed one.
  fuzz::graph g;
  auto a = std::make_shared<fuzz::gnode>();
  auto b = std::make_shared<fuzz::gnode>();
  a->value = 1, b->value = 2;
  a->next = std::make_unique<fuzz::gnode>();
  a->next->seen = b.get();
  b->back = a;
  b->own = std::make_unique<std::int32_t>(5);
  a->watch = b->own.get();
  a->seen = b.get();
  g.nodes = {a, b, a};
  g.root = std::make_unique<fuzz::gnode>();
  g.root->seen = a.get();
  g.any = b;
  g.focus = g.root.get();
  g.count = b->own.get();
  write("graph", "binary", bale::serialize(g));
  write("graph", "compact", bale::serialize<bale::compact>(g));
  write("graph", "msgpack", bale::serialize<bale::msgpack>(g));
  const std::string graph_json = bale::to_json(g);
  write("graph", "json", std::string_view(graph_json));
  write("graph", "resolved",
        schema_input(bale::schema_of<fuzz::graph>().text(), bale::serialize(g)));
  write("graph", "framed", bale::serialize_framed(g, {.with_schema = true}));
  const auto scratch = std::filesystem::temp_directory_path() / "bale_make_corpus";
  bale::save_file<bale::compact>(scratch, plain);
  write("file", "inspect", file_bytes(scratch, 8));
  write("file", "inspect_unchecked", file_bytes(scratch, 10));
  {
    bale::record_writer<fuzz::plain> records(scratch);
    records.write(plain);
    records.write(fuzz::plain{});
    records.close();
  }
  write("file", "inspect_records", file_bytes(scratch, 9));
  std::filesystem::remove(scratch);
#ifdef BALE_FUZZ_ARRAYS
  write_arrays();
#endif
  return 0;
}
