// SPDX-License-Identifier: BSL-1.0
// bale-inspect FILE...: what a .bale file or a record file holds, as one line of JSON per file,
// read without the C++ type from the schema the file carries:
//   {"file":"hero.bale","kind":"file","format":"binary","version":2,"compression":"none",
//    "fingerprint":"8c0f...","schema":{"record":[...]},"value":{...}}
//   {"file":"events.bales","kind":"records","format":"compact","version":2,
//    "schema":{...},"records":[{...},{...}]}
// "value" is null where the content is not decoded by schema (JSON and MessagePack payloads,
// version 1 files). Exit status 1 and a message on stderr for a file that cannot be read.

#include <bale/file/inspect.hpp>
#include <bale/json/format.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

namespace {

std::string quoted(std::string_view s) {
  return bale::to_json(std::string(s));
}

std::string hex(std::uint64_t n) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(n));
  return quoted(text);
}

// The schema text is JSON already: it goes out as an object, not as a string.
std::string schema_or_null(const std::string& text) {
  return text.empty() ? "null" : text;
}

void inspect_file(const char* path) {
  const bale::file_inspection f = bale::inspect_file(path);
  std::cout << "{\"file\":" << quoted(path) << ",\"kind\":\"file\",\"format\":" << quoted(f.format)
            << ",\"version\":" << f.version
            << ",\"compression\":" << quoted(bale::to_string(f.compression))
            << ",\"fingerprint\":" << hex(f.fingerprint)
            << ",\"schema\":" << schema_or_null(f.schema)
            << ",\"value\":" << (f.content ? bale::to_json(*f.content) : "null") << "}\n";
}

void inspect_records(const char* path) {
  bale::record_inspector records(path);
  std::cout << "{\"file\":" << quoted(path)
            << ",\"kind\":\"records\",\"format\":" << quoted(records.format())
            << ",\"version\":" << unsigned{records.version()}
            << ",\"schema\":" << schema_or_null(records.schema()) << ",\"records\":[";
  bool first = true;
  while (const auto r = records.next()) {
    std::cout << (first ? "" : ",") << bale::to_json(*r);
    first = false;
  }
  std::cout << "]}\n";
}

// "BALS" starts a record file; anything else is read as a .bale file (which says if it is not).
bool is_record_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, sizeof magic);
  return in && std::memcmp(magic, "BALS", 4) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]) == "--help") {
    std::cerr << "usage: bale-inspect FILE...\n"
                 "prints what each .bale or record file holds as a line of JSON: header, schema "
                 "and content, decoded by the schema in the file\n";
    return argc < 2 ? 2 : 0;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      if (is_record_file(argv[i]))
        inspect_records(argv[i]);
      else
        inspect_file(argv[i]);
    } catch (const std::exception& e) {
      std::cout.flush();
      std::cerr << "bale-inspect: " << e.what() << '\n';
      status = 1;
    }
  }
  return status;
}
