// SPDX-License-Identifier: BSL-1.0
// The inputs of the Python benchmark (bench/python/python_bench.py), written by bale, and the
// C++ record_reader's rate on the particle file (the Python reader's baseline):
//   bale_python_inputs DIR DOUBLES PARTICLES
// writes DIR/reals.bale (a std::vector<double> of DOUBLES), DIR/matrix.bale (an Eigen matrix
// of as many doubles), DIR/particles.bales (PARTICLES 40-byte records), DIR/collective.bales
// (the same records as bale::mpi::save_file writes them from two ranks), DIR/monsters.bin and
// DIR/monsters.msgpack (case 13's message), DIR/seed.bin and DIR/seed.msgpack (case 5's), and
// DIR/*.schema (their schema texts); prints one line of JSON with the C++ read rates.

#include <bale/all.hpp>
#include <bale/arrays/eigen.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <bale/msgpack/format.hpp>
#include <bale/schema.hpp>

#include <Eigen/Dense>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/data.hpp"
#include "cases/monster.hpp"

namespace {

struct particle {
  double x = 0, y = 0, z = 0;
  float mass = 0;
  std::int32_t id = 0;
  double t = 0;
};

particle make(std::size_t i) {
  const double d = static_cast<double>(i);
  return {d, 2 * d, 3 * d, static_cast<float>(i % 100), static_cast<std::int32_t>(i), 0.5 * d};
}

void write_bytes(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}
void write_text(const std::filesystem::path& path, const std::string& text) {
  write_bytes(path, std::as_bytes(std::span(text)));
}

// The file bale::mpi::save_file writes from two ranks, each with half of the records.
void write_collective(const std::filesystem::path& path, std::size_t count) {
  std::vector<std::byte> file = bale::detail::record_file_head<particle, bale::binary>(
      bale::wire_versions::indexed_record_file);
  std::vector<std::uint64_t> offsets;
  offsets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    offsets.push_back(file.size());
    bale::detail::append_record<bale::binary>(file, make(i));
  }
  const std::uint64_t records_end = file.size();
  const std::vector<std::uint64_t> counts{count / 2, count - count / 2};
  const std::vector<std::byte> head = bale::detail::record_index_head(counts);
  file.insert(file.end(), head.begin(), head.end());
  bale::detail::append_record_offsets(file, offsets, 0);
  bale::detail::append_record_index_end(file, records_end, 0, records_end);
  write_bytes(path, file);
}

double records_per_second(const std::filesystem::path& path) {
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    const auto start = std::chrono::steady_clock::now();
    bale::record_reader<particle> in(path);
    std::size_t n = 0;
    double sum = 0;
    while (auto r = in.next()) {
      sum += r->x;
      ++n;
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (sum < 0) std::abort();  // keeps the reads
    best = std::max(best, static_cast<double>(n) / took.count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s DIR DOUBLES PARTICLES\n", argv[0]);
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    const auto doubles = static_cast<std::size_t>(std::strtoull(argv[2], nullptr, 10));
    const auto particles = static_cast<std::size_t>(std::strtoull(argv[3], nullptr, 10));
    std::filesystem::create_directories(dir);
    {
      std::vector<double> reals(doubles);
      for (std::size_t i = 0; i < doubles; ++i) reals[i] = static_cast<double>(i) * 0.5;
      bale::file_options fast;
      fast.sync = false;
      bale::save_file(dir / "reals.bale", reals, fast);
      const auto columns = static_cast<Eigen::Index>(std::max<std::size_t>(1, doubles / 4096));
      Eigen::MatrixXd m = Eigen::Map<Eigen::MatrixXd>(reals.data(), 4096, columns);
      reals = {};
      bale::save_file(dir / "matrix.bale", m, fast);
    }
    {
      bale::record_writer<particle> out(dir / "particles.bales");
      for (std::size_t i = 0; i < particles; ++i) out.write(make(i));
      out.close();
    }
    write_collective(dir / "collective.bales", particles);
    write_text(dir / "particle.schema", bale::schema_of<particle>().text());
    write_bytes(dir / "monsters.bin", bale::serialize(cases::monsters()));
    write_bytes(dir / "monsters.msgpack", bale::serialize<bale::msgpack>(cases::monsters()));
    write_text(dir / "monsters.schema", bale::schema_of<cases::monster_list>().text());
    write_bytes(dir / "seed.bin", bale::serialize(cases::seed_elements()));
    write_bytes(dir / "seed.msgpack", bale::serialize<bale::msgpack>(cases::seed_elements()));
    write_text(dir / "seed.schema", bale::schema_of<std::vector<cases::seed_element>>().text());
    std::printf("{\"cpp_record_reader_per_second\": %.0f}\n",
                records_per_second(dir / "particles.bales"));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bale_python_inputs: %s\n", e.what());
    return 1;
  }
  return 0;
}
