// SPDX-License-Identifier: BSL-1.0
// bale-inspect [--schema-only] FILE...: what a .bale file or a record file holds, as one line of
// JSON per file, read without the C++ type from the schema the file carries:
//   {"file":"hero.bale","kind":"file","format":"binary","version":2,"compression":"none",
//    "fingerprint":"8c0f...","schema":{"record":[...]},"value":{...}}
//   {"file":"events.bales","kind":"records","format":"compact","version":2,
//    "schema":{...},"records":[{...},{...}]}
// An indexed record file (version 3, bale::mpi::save_file) adds its writers and record extents:
//    ...,"writers":[{"first":0,"count":2,"offset":120,"bytes":64},...],"extents":[[120,32],...]
// "value" is null where the content is not decoded by schema (JSON and MessagePack payloads,
// version 1 files, --schema-only); where only the C++ type can decode it (a type described by
// hand, a pointer), "undecoded" says why. Exit status: 0 all printed, 1 a file missing or
// damaged, 3 a sound file only its C++ type can decode, 2 wrong usage.

#include <bale/file/inspect.hpp>
#include <bale/json/format.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string quoted(std::string_view s) {
  return bale::to_json(std::string(s));
}

std::string hex(std::uint64_t n) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(n));
  return quoted(text);
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

int inspect_file(const char* path, bool schema_only) {
  const bale::file_inspection f = bale::inspect_file(path, {}, !schema_only);
  std::cout << "{\"file\":" << quoted(path) << ",\"kind\":\"file\",\"format\":" << quoted(f.format)
            << ",\"version\":" << f.version
            << ",\"compression\":" << quoted(bale::to_string(f.compression))
            << ",\"fingerprint\":" << hex(f.fingerprint)
            << ",\"schema\":" << schema_or_null(f.schema)
            << ",\"value\":" << (f.content ? bale::to_json(*f.content) : "null");
  if (!f.undecoded.empty()) std::cout << ",\"undecoded\":" << quoted(f.undecoded);
  std::cout << "}\n";
  return f.undecoded.empty() ? printed : needs_type;
}

// An indexed record file's writers, each with its records [first, first + count) and their bytes
// [offset, offset + bytes), and every record's extent as [offset, bytes].
std::string index_of(const bale::record_inspector& records) {
  const std::vector<std::uint64_t>& first = records.first_of_writers();
  const std::vector<std::uint64_t> offsets = records.record_offsets();
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

int inspect_records(const char* path, bool schema_only) {
  bale::record_inspector records(path);
  std::string listed = "[";
  std::string undecoded;
  try {
    for (bool first = true; !schema_only;) {
      const auto r = records.next();
      if (!r) break;
      listed += (first ? "" : ",") + bale::to_json(*r);
      first = false;
    }
    listed += ']';
  } catch (const bale::error& e) {
    if (e.code() != bale::errc::wrong_type) throw;
    undecoded = e.what();
  }
  std::cout << "{\"file\":" << quoted(path)
            << ",\"kind\":\"records\",\"format\":" << quoted(records.format())
            << ",\"version\":" << unsigned{records.version()}
            << ",\"schema\":" << schema_or_null(records.schema())
            << ",\"records\":" << (schema_only || !undecoded.empty() ? "null" : listed);
  if (records.indexed()) std::cout << index_of(records);
  if (!undecoded.empty()) std::cout << ",\"undecoded\":" << quoted(undecoded);
  std::cout << "}\n";
  return undecoded.empty() ? printed : needs_type;
}

constexpr const char* help_text =
    "usage: bale-inspect [--schema-only] FILE...\n"
    "Prints what each .bale file or record file holds as one line of JSON: its header, its\n"
    "schema, and its content decoded by that schema, without the C++ type; for a file written\n"
    "by bale::mpi::save_file also its writers and the extent of every record.\n"
    "\n"
    "  --schema-only  print the header and the schema, not the content\n"
    "  --help         print this text\n"
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
  std::vector<const char*> files;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help") {
      std::cout << help_text;
      return printed;
    }
    if (arg == "--schema-only")
      schema_only = true;
    else if (arg.starts_with("--")) {
      std::cerr << "bale-inspect: unknown option " << arg << "\n" << help_text;
      return usage;
    } else
      files.push_back(argv[i]);
  }
  if (files.empty()) {
    std::cerr << help_text;
    return usage;
  }
  int status = printed;
  for (const char* file : files) {
    try {
      const int one = is_record_file(file) ? inspect_records(file, schema_only)
                                           : inspect_file(file, schema_only);
      if (status == printed) status = one;
    } catch (const std::exception& e) {
      std::cout.flush();
      std::cerr << "bale-inspect: " << e.what() << '\n';
      status = damaged;
    }
  }
  return status;
}
