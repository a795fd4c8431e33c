// SPDX-License-Identifier: BSL-1.0
// bale-inspect [--schema-only] [--max-output BYTES] FILE...: what a .bale file or a record file
// holds, as one line of JSON per file, read without the C++ type from the schema the file carries:
//   {"file":"hero.bale","kind":"file","format":"binary","version":2,"compression":"none",
//    "fingerprint":"8c0f...","schema":{"record":[...]},"value":{...}}
//   {"file":"events.bales","kind":"records","format":"compact","version":2,
//    "schema":{...},"records":[{...},{...}]}
// An indexed record file (version 3, bale::mpi::save_file) adds its writers and record extents:
//    ...,"writers":[{"first":0,"count":2,"offset":120,"bytes":64},...],"extents":[[120,32],...]
// "value" is null where the content is not decoded by schema (JSON and MessagePack payloads,
// version 1 files, --schema-only); where only the C++ type can decode it (a type described by
// hand, a pointer), "undecoded" says why. What JSON cannot hold has a spelling of its own: a NaN
// or an infinity is the string "NaN", "Infinity" or "-Infinity"; a string that is not UTF-8 is
// {"not_utf8":"<its bytes in base64>"} (a member name: "not_utf8:<base64>").
// Every line is whole JSON: records are printed one at a time as they are read (memory for one
// record at a time), and a file found damaged after its line began ends the line with
// "error":"...", the error also going to stderr with the file's name. Exit status: 0 all
// printed, 1 a file missing or damaged (or over --max-output), 3 a sound file only its C++ type
// can decode, 2 wrong usage.

#include <bale/file/inspect.hpp>
#include <bale/json/format.hpp>

#include <bale/base64/codec.hpp>
#include <bale/json/detail/text.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

bool is_utf8(std::string_view s);

// A file name or a message as a JSON string; bytes that are not UTF-8 become U+FFFD.
std::string json_string(std::string_view s) {
  if (is_utf8(s)) return bale::to_json(std::string(s));
  std::string clean;
  for (std::size_t i = 0; i < s.size();) {
    const bool ascii = static_cast<unsigned char>(s[i]) < 0x80;
    const std::size_t length =
        ascii ? 1 : bale::detail::utf8_sequence(s.data() + i, s.data() + s.size());
    clean += length == 0 ? std::string_view("\xEF\xBF\xBD") : s.substr(i, length);
    i += length == 0 ? 1 : length;
  }
  return bale::to_json(clean);
}

std::string hex(std::uint64_t n) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(n));
  return json_string(text);
}

std::string field(const char* name, std::uint64_t n) {
  return "\"" + std::string(name) + "\":" + std::to_string(n);
}

// The schema text is JSON already: it goes out as an object, not as a string.
std::string schema_or_null(const std::string& text) {
  return text.empty() ? "null" : text;
}

// Exit statuses: what a script needs to tell apart.
constexpr int printed = 0, damaged = 1, usage = 2, needs_type = 3;

bool is_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = bale::detail::utf8_sequence(s.data() + i, s.data() + s.size());
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string base64_of(std::string_view s) {
  return bale::base64::encode(
      std::span<const std::byte>(reinterpret_cast<const std::byte*>(s.data()), s.size()));
}

// Rewrites what JSON cannot hold into the spellings the header comment gives.
void make_printable(bale::value& v) {
  auto& d = v.data();
  if (auto* number = std::get_if<double>(&d)) {
    if (std::isnan(*number))
      v = std::string("NaN");
    else if (std::isinf(*number))
      v = std::string(*number > 0 ? "Infinity" : "-Infinity");
  } else if (auto* text = std::get_if<std::string>(&d)) {
    if (!is_utf8(*text)) v = bale::value::object{{"not_utf8", bale::value(base64_of(*text))}};
  } else if (auto* elements = std::get_if<bale::value::array>(&d)) {
    for (bale::value& e : *elements) make_printable(e);
  } else if (auto* members = std::get_if<bale::value::object>(&d)) {
    for (auto& [name, member] : *members) {
      if (!is_utf8(name)) name = "not_utf8:" + base64_of(name);
      make_printable(member);
    }
  }
}

// Values decoded within the reading limits nest at most a few JSON levels per level read.
constexpr std::size_t print_depth = 4 * bale::limits{}.max_depth + 16;

std::string json_of(bale::value v) {
  make_printable(v);
  std::string text;
  bale::detail::growing_sink sink(text);
  bale::detail::write_context context(bale::limits{.max_depth = print_depth});
  bale::detail::json_writer<bale::detail::growing_sink> ar(sink, context, {});
  ar(v);
  bale::detail::end_message(ar);
  sink.finish();
  return text;
}

// One file's line, written in parts that are each whole: a part is built, then printed, and a
// line that cannot be finished ends with "error" and the closing brace.
class line_out {
 public:
  explicit line_out(std::size_t max_output) : left_(max_output) {}
  void add(const std::string& part) {
    if (part.size() > left_)
      throw bale::error(bale::errc::allocation_limit,
                        "its JSON is longer than --max-output allows");
    left_ -= part.size();
    std::cout << part;
    begun_ = true;
  }
  bool begun() const noexcept { return begun_; }

 private:
  std::size_t left_;
  bool begun_ = false;
};

int inspect_file(const char* path, bool schema_only, line_out& out) {
  const bale::file_inspection f = bale::inspect_file(path, {}, !schema_only);
  std::string line =
      "{\"file\":" + json_string(path) + ",\"kind\":\"file\",\"format\":" + json_string(f.format) +
      ",\"version\":" + std::to_string(f.version) +
      ",\"compression\":" + json_string(bale::to_string(f.compression)) +
      ",\"fingerprint\":" + hex(f.fingerprint) + ",\"schema\":" + schema_or_null(f.schema) +
      ",\"value\":" + (f.content ? json_of(*f.content) : "null");
  if (!f.undecoded.empty()) line += ",\"undecoded\":" + json_string(f.undecoded);
  out.add(line + "}\n");
  return f.undecoded.empty() ? printed : needs_type;
}

// An indexed record file's writers, each with its records [first, first + count) and their bytes
// [offset, offset + bytes), and every record's extent as [offset, bytes].
std::string index_of(const bale::record_inspector& records,
                     const std::vector<std::uint64_t>& offsets) {
  const std::vector<std::uint64_t>& first = records.first_of_writers();
  std::string out = ",\"writers\":[";
  for (std::size_t w = 0; w + 1 < first.size(); ++w) {
    const std::uint64_t begin = offsets[first[w]], end = offsets[first[w + 1]];
    out += (w == 0 ? "{" : ",{") + field("first", first[w]) + "," +
           field("count", first[w + 1] - first[w]) + "," + field("offset", begin) + "," +
           field("bytes", end - begin) + "}";
  }
  out += "],\"extents\":[";
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i)
    out += (i == 0 ? "[" : ",[") + std::to_string(offsets[i]) + "," +
           std::to_string(offsets[i + 1] - offsets[i]) + "]";
  return out + "]";
}

// The index must agree with the records read: record k starts at offsets[k], and the last ends
// at the last offset.
void check_against_index(const bale::record_inspector& records,
                         const std::vector<std::uint64_t>& offsets, std::size_t k) {
  if (k >= offsets.size() || records.position() != offsets[k])
    bale::detail::file_error(bale::errc::invalid_value, records.file_path(),
                             "has a record index that disagrees with its records",
                             records.position());
}

int inspect_records(const char* path, bool schema_only, line_out& out) {
  bale::record_inspector records(path);
  const std::vector<std::uint64_t> offsets =
      records.indexed() ? records.record_offsets() : std::vector<std::uint64_t>{};
  const std::string head = "{\"file\":" + json_string(path) +
                           ",\"kind\":\"records\",\"format\":" + json_string(records.format()) +
                           ",\"version\":" + std::to_string(unsigned{records.version()}) +
                           ",\"schema\":" + schema_or_null(records.schema()) + ",\"records\":";
  const std::string tail = (records.indexed() ? index_of(records, offsets) : std::string()) + "}\n";
  if (schema_only) {
    out.add(head + "null" + tail);
    return printed;
  }
  // The first record decides whether the records decode by schema at all.
  std::optional<bale::value> r;
  try {
    if (records.indexed()) check_against_index(records, offsets, 0);
    r = records.next();
  } catch (const bale::error& e) {
    if (e.code() != bale::errc::wrong_type) throw;
    out.add(head + "null" + tail.substr(0, tail.size() - 2) +
            ",\"undecoded\":" + json_string(e.what()) + "}\n");
    return needs_type;
  }
  out.add(head + "[");
  for (std::size_t k = 1; r; ++k) {
    out.add((k == 1 ? "" : ",") + json_of(*r));
    if (records.indexed()) check_against_index(records, offsets, k);
    r = records.next();
  }
  out.add("]" + tail);
  return printed;
}

constexpr const char* help_text =
    "usage: bale-inspect [--schema-only] [--max-output BYTES] FILE...\n"
    "Prints what each .bale file or record file holds as one line of JSON: its header, its\n"
    "schema, and its content decoded by that schema, without the C++ type; for a file written\n"
    "by bale::mpi::save_file also its writers and the extent of every record.\n"
    "\n"
    "  --schema-only       print the header and the schema, not the content\n"
    "  --max-output BYTES  the most a file's line may take (default 1 GiB): a larger one ends\n"
    "                      with \"error\", status 1\n"
    "  --help              print this text\n"
    "\n"
    "A NaN or an infinity prints as the string \"NaN\", \"Infinity\" or \"-Infinity\"; a string\n"
    "that is not UTF-8 as {\"not_utf8\":\"<base64 of its bytes>\"}. Every line is whole JSON: a\n"
    "file found damaged after its line began ends it with \"error\"; errors also go to stderr.\n"
    "\n"
    "Exit status: 0 every file printed; 1 a file missing, damaged or not a bale file;\n"
    "3 a sound file whose content only its C++ type decodes (a type described by hand, a\n"
    "pointer): its header and schema are printed, \"undecoded\" says why; 2 wrong usage.\n";

// "BALS" starts a record file; anything else is read as a .bale file (which says if it is not).
bool is_record_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, sizeof magic);
  return in && std::memcmp(magic, "BALS", 4) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool schema_only = false;
  std::size_t max_output = std::size_t{1} << 30;
  std::vector<const char*> files;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help") {
      std::cout << help_text;
      return printed;
    }
    if (arg == "--schema-only") {
      schema_only = true;
    } else if (arg == "--max-output" && i + 1 < argc) {
      char* end = nullptr;
      max_output = std::strtoull(argv[++i], &end, 10);
      if (*argv[i] == '\0' || *end != '\0') {
        std::cerr << "bale-inspect: --max-output takes a number of bytes\n" << help_text;
        return usage;
      }
    } else if (arg.starts_with("--")) {
      std::cerr << "bale-inspect: unknown option " << arg << "\n" << help_text;
      return usage;
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty()) {
    std::cerr << help_text;
    return usage;
  }
  int status = printed;
  for (const char* file : files) {
    line_out out(max_output);
    try {
      const int one = is_record_file(file) ? inspect_records(file, schema_only, out)
                                           : inspect_file(file, schema_only, out);
      if (status == printed) status = one;
    } catch (const std::exception& e) {
      if (out.begun()) std::cout << "],\"error\":" << json_string(e.what()) << "}\n";
      std::cout.flush();
      std::cerr << "bale-inspect: " << file << ": " << e.what() << '\n';
      status = damaged;
    }
  }
  return status;
}
