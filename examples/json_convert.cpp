// SPDX-License-Identifier: BSL-1.0
// bale_json_convert: the data pipeline's converter. Data is edited as JSON and shipped as binary
// (or compact) bytes, both from one description of each type.
//
//   bale_json_convert to-binary TYPE [--compact] [IN [OUT]]            JSON -> bytes
//   bale_json_convert to-json TYPE [--compact] [--pretty] [IN [OUT]]   bytes -> JSON
//   bale_json_convert types                                            the registered types
//
// IN and OUT default to standard input and output ("-" names them too). A bad input is reported
// with its line, column, byte offset and path, and the exit status is 1.
#include <bale/bale.hpp>
#include <bale/convert.hpp>

#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

// The pipeline's types, described once.
enum class material { steel, copper, glass };
BALE_ENUM_NAMES(material, steel, copper, glass)

struct particle {  // the seed's 24-byte record
  float vec[4] = {0, 0, 0, 0};
  int i = 0;
  float f = 0;
};

struct part {
  std::string name;
  material made_of = material::steel;
  std::vector<double> dimensions;
  std::optional<std::string> note;
};

struct assembly {
  std::string title;
  std::uint32_t revision = 0;
  std::vector<part> parts;
  std::map<std::string, double> tolerances;
  std::vector<particle> samples;
};

namespace {

std::string read_all(const std::string& path) {
  if (path == "-") {
    std::ios::sync_with_stdio(false);
    return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::string& path, const void* data, std::size_t size) {
  if (path == "-") {
    std::fwrite(data, 1, size, stdout);
    if (std::fflush(stdout) != 0) throw std::runtime_error("cannot write to standard output");
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

int usage() {
  std::fputs(
      "usage: bale_json_convert to-binary TYPE [--compact] [IN [OUT]]\n"
      "       bale_json_convert to-json TYPE [--compact] [--pretty] [IN [OUT]]\n"
      "       bale_json_convert types\n",
      stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bale::json_converter converter;
  converter.add<particle>("particle")
      .add<std::vector<particle>>("particles")
      .add<part>("part")
      .add<assembly>("assembly");

  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "types") {
    for (const auto& name : converter.names()) std::printf("%s\n", name.c_str());
    return 0;
  }
  if (args.size() < 2 || (args[0] != "to-binary" && args[0] != "to-json")) return usage();
  auto format = bale::byte_format::binary;
  bale::json_options options;
  std::vector<std::string> paths;
  for (std::size_t k = 2; k < args.size(); ++k) {
    if (args[k] == "--compact")
      format = bale::byte_format::compact;
    else if (args[k] == "--pretty")
      options.pretty = true;
    else
      paths.push_back(args[k]);
  }
  if (paths.size() > 2) return usage();
  const std::string in = paths.size() > 0 ? paths[0] : "-";
  const std::string out = paths.size() > 1 ? paths[1] : "-";

  try {
    const std::string input = read_all(in);
    if (args[0] == "to-binary") {
      const auto bytes = converter.to_bytes(args[1], input, format, options);
      write_all(out, bytes.data(), bytes.size());
    } else {
      std::string text =
          converter.to_json(args[1], std::as_bytes(std::span(input)), format, options);
      text += '\n';
      write_all(out, text.data(), text.size());
    }
  } catch (const bale::error& e) {
    // what() already names the byte offset and the path.
    std::fprintf(stderr, "bale_json_convert: %s: %s\n", in.c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bale_json_convert: %s\n", e.what());
    return 1;
  }
  return 0;
}
