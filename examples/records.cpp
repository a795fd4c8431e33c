// SPDX-License-Identifier: BSL-1.0
// Record streams: many values one after another in a file, read one at a time, so the whole
// stream never has to fit in memory.
//   bale_records [directory]
#include <bale/bale.hpp>
#include <bale/file/records.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

struct event {
  std::uint64_t time_ns;
  std::string source;
  std::vector<float> samples;
};

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path();
  const fs::path path = dir / "events.bales";

  {
    bale::record_writer<event> out(path);
    for (std::uint64_t i = 0; i < 10000; ++i)
      out.write({i * 1000, "detector-" + std::to_string(i % 4), std::vector<float>(i % 32, 0.5f)});
    out.close();  // flushes and reports a failure (a full disk) as an exception
  }

  // Each record carries its own length and checksum: a damaged one is an error from next(), and
  // the reader goes on with the record after it.
  bale::record_reader<event> in(path);
  std::uint64_t count = 0;
  std::size_t samples = 0;
  while (std::optional<event> e = in.next()) {
    if (e->time_ns != count * 1000) return 1;
    samples += e->samples.size();
    ++count;
  }
  std::printf("%ju events, %zu samples\n", static_cast<std::uintmax_t>(count), samples);
  return count == 10000 ? 0 : 1;
}
