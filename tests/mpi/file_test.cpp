// SPDX-License-Identifier: BSL-1.0
// Collective record files: N writers and M readers, ranks with no records, a rank that fails,
// a writer that died before the rename, damaged and hostile files, and the same file read
// serially.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "bale/mpi.hpp"
#include "bale/mpi/file.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;

// A directory every rank sees, made by rank 0.
std::filesystem::path shared_directory(communicator& comm, const char* name) {
  long id = comm.rank() == 0 ? static_cast<long>(::getpid()) : 0;
  comm.broadcast(id, 0);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("bale_mpi_" + std::string(name) + "_" + std::to_string(id));
  if (comm.rank() == 0) std::filesystem::create_directories(dir);
  comm.barrier();
  return dir;
}

// Writer w of a file writes these records: writer 1 none, the last one the most.
std::vector<cell> records_of(int writer, int writers) {
  const std::size_t count =
      writer == 1 ? 0 : static_cast<std::size_t>(writer == writers - 1 ? 40 : writer + 3);
  return cells(count, 100 * writer);
}
std::vector<cell> all_records(int writers) {
  std::vector<cell> all;
  for (int w = 0; w < writers; ++w) {
    const auto mine = records_of(w, writers);
    all.insert(all.end(), mine.begin(), mine.end());
  }
  return all;
}

// The ranks below `count` as a communicator of their own.
std::optional<communicator> first_ranks(communicator& comm, int count) {
  return comm.split(comm.rank() < count ? 0 : MPI_UNDEFINED, comm.rank());
}

TEST(MpiFile, AnyNumberOfWritersAndReaders) {
  communicator comm(MPI_COMM_WORLD);
  const auto dir = shared_directory(comm, "nm");
  const int most = std::min(comm.size(), 4);
  for (int writers = 1; writers <= most; ++writers) {
    const auto path = dir / ("cells_" + std::to_string(writers) + ".bales");
    if (auto writing = first_ranks(comm, writers))
      bale::mpi::save_file(*writing, path, records_of(writing->rank(), writers));
    comm.barrier();
    const std::vector<cell> all = all_records(writers);
    for (int readers = 1; readers <= most; ++readers) {
      SCOPED_TRACE(std::to_string(writers) + " writers, " + std::to_string(readers) + " readers");
      auto reading = first_ranks(comm, readers);
      if (!reading) continue;
      const std::vector<cell> mine = bale::mpi::load_file<cell>(*reading, path);
      const std::size_t r = static_cast<std::size_t>(reading->rank());
      const std::size_t n = all.size();
      const std::size_t p = static_cast<std::size_t>(readers);
      const std::vector<cell> expected(all.begin() + static_cast<long>(n * r / p),
                                       all.begin() + static_cast<long>(n * (r + 1) / p));
      EXPECT_EQ(mine, expected);
      if (readers == writers) {
        EXPECT_EQ(bale::mpi::load_file<cell>(*reading, path, bale::mpi::record_split::as_written()),
                  records_of(reading->rank(), writers));
      } else {
        EXPECT_THROW(
            bale::mpi::load_file<cell>(*reading, path, bale::mpi::record_split::as_written()),
            bale::mpi::error);
      }
      const std::size_t first = r % (n - 1);  // every file has 3 records or more
      const auto two =
          bale::mpi::load_file<cell>(*reading, path, bale::mpi::record_split::range(first, 2));
      EXPECT_EQ(two, std::vector<cell>(all.begin() + static_cast<long>(first),
                                       all.begin() + static_cast<long>(first + 2)));
    }
  }
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove_all(dir);
}

TEST(MpiFile, TheFileReadsSeriallyWithARecordReader) {
  communicator comm(MPI_COMM_WORLD);
  const auto dir = shared_directory(comm, "serial");
  const auto path = dir / "cells.bales";
  bale::mpi::save_file(comm, path, records_of(comm.rank(), comm.size()));
  if (comm.rank() == 0) {
    const std::vector<cell> all = all_records(comm.size());
    bale::record_reader<cell> in(path);
    ASSERT_TRUE(in.indexed());
    EXPECT_EQ(in.size(), all.size());
    EXPECT_EQ(in.writers(), static_cast<std::size_t>(comm.size()));
    EXPECT_EQ(in.first_of_writer(in.writers()), all.size());
    std::vector<cell> sequential;
    while (auto record = in.next()) sequential.push_back(*record);
    EXPECT_EQ(sequential, all);  // stops at the index
    in.seek(all.size() - 1);
    EXPECT_EQ(in.next(), all.back());
    EXPECT_FALSE(in.next().has_value());
    EXPECT_EQ(in.read(1, 2), std::vector<cell>(all.begin() + 1, all.begin() + 3));
    EXPECT_THROW(in.read(all.size(), 1), bale::error);
    // An older schema of the records reads them, as from any record file.
    struct named {
      std::string name;
    };
    bale::record_reader<named> names(path);
    EXPECT_EQ(names.read(0, 1).at(0).name, all.at(0).name);
    // A record file without an index says so.
    const auto plain = dir / "plain.bales";
    {
      bale::record_writer<cell> out(plain);
      out.write(all.at(0));
      out.close();
    }
    bale::record_reader<cell> unindexed(plain);
    EXPECT_FALSE(unindexed.indexed());
    EXPECT_THROW((void)unindexed.size(), bale::error);
  }
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove_all(dir);
}

// Every kind of record: a scalar, a container, a pointer graph (identity kept in each record).
TEST(MpiFile, EveryKindOfRecord) {
  communicator comm(MPI_COMM_WORLD);
  const auto dir = shared_directory(comm, "kinds");
  const int r = comm.rank();
  int ints[2] = {r, r + 1};  // from a span of values that are not const, of a fixed extent
  bale::mpi::save_file(comm, dir / "ints.bales", std::span(ints));
  bale::mpi::save_file(comm, dir / "vectors.bales",
                       std::vector<std::vector<double>>{doubles(5, r)});
  auto shared = std::make_shared<point>(point{1.0 * r, 2.0});
  using graph = std::vector<std::shared_ptr<point>>;
  bale::mpi::save_file(comm, dir / "graphs.bales", std::vector<graph>{{shared, shared}});
  const auto split = bale::mpi::record_split::as_written();
  EXPECT_EQ(bale::mpi::load_file<int>(comm, dir / "ints.bales", split),
            (std::vector<int>{r, r + 1}));
  EXPECT_EQ(bale::mpi::load_file<std::vector<double>>(comm, dir / "vectors.bales", split).at(0),
            doubles(5, r));
  const auto graphs = bale::mpi::load_file<graph>(comm, dir / "graphs.bales", split);
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].at(0), graphs[0].at(1));
  EXPECT_EQ(*graphs[0].at(0), *shared);
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove_all(dir);
}

// Records are written piece by piece through a staging buffer of 8 MiB, large arrays from their
// own memory: small and large records, one larger than the buffer, and enough small ones to fill
// it several times, arrays and strings (never written from their memory), on every rank.
TEST(MpiFile, RecordsOfEverySizeCrossThePiecesOfTheWrite) {
  communicator comm(MPI_COMM_WORLD);
  const auto dir = shared_directory(comm, "pieces");
  const int r = comm.rank();
  std::vector<std::vector<double>> arrays;
  std::vector<std::string> strings;
  const std::size_t sizes[] = {3, 20'000, 0, (std::size_t{9} << 20) / 8, 8'191, 8'192, 5};
  for (const std::size_t n : sizes) arrays.push_back(doubles(n, r + static_cast<int>(n)));
  for (int k = 0; k < 300'000; ++k) arrays.push_back(doubles(static_cast<std::size_t>(k % 5), k));
  arrays.push_back(doubles(100'000, r));
  for (const std::size_t n : sizes) strings.emplace_back(n, static_cast<char>('a' + r));
  if (r == 1) arrays.clear();  // a rank with nothing, between ranks with much
  const auto split = bale::mpi::record_split::as_written();
  bale::mpi::save_file(comm, dir / "arrays.bales", arrays);
  bale::mpi::save_file(comm, dir / "strings.bales", strings);
  EXPECT_EQ(bale::mpi::load_file<std::vector<double>>(comm, dir / "arrays.bales", split), arrays);
  EXPECT_EQ(bale::mpi::load_file<std::string>(comm, dir / "strings.bales", split), strings);
  if (r == 0) {  // serially, through the index
    bale::record_reader<std::vector<double>> in(dir / "arrays.bales");
    EXPECT_EQ(in.read(3, 1).at(0), arrays[3]);
  }
  comm.barrier();
  if (r == 0) std::filesystem::remove_all(dir);
}

struct fails_on_rank_one {
  int rank = 0;
  template <class Archive>
  void save(Archive& ar) const {
    if (rank == 1) throw std::runtime_error("rank one cannot save");
    ar(rank);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(rank);
  }
};

TEST(MpiFile, AFailingRankLeavesThePreviousFileAndEveryRankGetsItsError) {
  communicator comm(MPI_COMM_WORLD);
  const auto dir = shared_directory(comm, "fail");
  const auto path = dir / "state.bales";
  bale::mpi::save_file(comm, path, std::vector<fails_on_rank_one>{{0}});
  if (comm.size() > 1) {
    try {
      bale::mpi::save_file(comm, path, std::vector<fails_on_rank_one>{{comm.rank()}});
      ADD_FAILURE() << "the save succeeded";
    } catch (const bale::mpi::error& e) {
      EXPECT_NE(std::string(e.what()).find("rank one cannot save (rank 1"), std::string::npos)
          << e.what();
      EXPECT_EQ(e.peer(), 1);
    }
  }
  // A writer killed before its rename left a temporary file: the file is the previous one.
  if (comm.rank() == 0) std::ofstream(dir / ".state.bales.tmp-12345") << "half a file";
  comm.barrier();
  const auto back =
      bale::mpi::load_file<fails_on_rank_one>(comm, path, bale::mpi::record_split::as_written());
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].rank, 0);
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove_all(dir);
}

// A save() that throws only when its record is encoded (after its size was counted) on the last
// rank: the other ranks have written their parts, and the previous file must stay.
struct fails_when_encoded {
  int rank = 0;
  mutable int saves = 0;
  template <class Archive>
  void save(Archive& ar) const {
    if (++saves == 2 && rank > 0) throw std::runtime_error("no second save");
    ar(rank);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(rank);
  }
};

TEST(MpiFile, ARankFailingWhileOthersWriteLeavesThePreviousFile) {
  communicator comm(MPI_COMM_WORLD);
  if (comm.size() < 2) GTEST_SKIP() << "needs two ranks";
  const auto dir = shared_directory(comm, "late");
  const auto path = dir / "state.bales";
  bale::mpi::save_file(comm, path, std::vector<int>{comm.rank()});
  const bool last = comm.rank() == comm.size() - 1;
  std::vector<fails_when_encoded> records(3, fails_when_encoded{last ? comm.rank() : 0});
  try {
    bale::mpi::save_file(comm, path, records);
    ADD_FAILURE() << "the save succeeded";
  } catch (const bale::mpi::error& e) {
    EXPECT_NE(std::string(e.what()).find("no second save"), std::string::npos) << e.what();
    EXPECT_EQ(e.peer(), comm.size() - 1);
  }
  const auto back = bale::mpi::load_file<int>(comm, path, bale::mpi::record_split::as_written());
  EXPECT_EQ(back, std::vector<int>{comm.rank()});
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove_all(dir);
}

// Every rank refuses a damaged file with the same error, before allocating what it announces.
void expect_refused_everywhere(communicator& comm, const std::filesystem::path& path,
                               const char* what) {
  SCOPED_TRACE(what);
  std::string message;
  try {
    (void)bale::mpi::load_file<cell>(comm, path);
    ADD_FAILURE() << "a damaged file was read";
  } catch (const bale::mpi::error& e) {
    message = e.what();
  }
  const std::vector<std::string> everyone = comm.all_gather(message);
  for (const std::string& m : everyone) EXPECT_EQ(m, everyone.at(0));
  EXPECT_NE(message.find("(rank "), std::string::npos);
  if (comm.rank() == 0) {
    EXPECT_THROW(
        {
          bale::record_reader<cell> in(path);
          (void)in.read(0, in.size());
        },
        bale::error);
  }
}

TEST(MpiFile, DamagedAndHostileFilesAreRefusedOnEveryRank) {
  communicator comm(MPI_COMM_WORLD);
  const auto dir = shared_directory(comm, "hostile");
  const auto good = dir / "good.bales";
  bale::mpi::save_file(comm, good, records_of(comm.rank(), comm.size()));
  const auto size = static_cast<std::size_t>(std::filesystem::file_size(good));
  std::vector<char> bytes(size);
  std::ifstream(good, std::ios::binary).read(bytes.data(), static_cast<long>(size));
  const auto write = [&](const char* name, const std::vector<char>& content) {
    const auto path = dir / name;
    if (comm.rank() == 0)
      std::ofstream(path, std::ios::binary)
          .write(content.data(), static_cast<long>(content.size()));
    comm.barrier();
    return path;
  };
  const auto changed = [&](std::size_t at, std::uint64_t value) {
    std::vector<char> copy = bytes;
    for (int k = 0; k < 8; ++k)
      copy[at + static_cast<std::size_t>(k)] = static_cast<char>(value >> (8 * k));
    return copy;
  };
  std::uint64_t index_at = 0;
  for (int k = 0; k < 8; ++k)
    index_at |= static_cast<std::uint64_t>(
                    static_cast<unsigned char>(bytes[size - 16 + static_cast<std::size_t>(k)]))
                << (8 * k);
  const std::size_t writers = static_cast<std::size_t>(comm.size());
  const std::size_t offsets_at = index_at + 24 + 8 * writers;

  expect_refused_everywhere(
      comm, write("cut.bales", std::vector<char>(bytes.begin(), bytes.end() - 20)), "cut");
  expect_refused_everywhere(
      comm, write("count.bales", changed(index_at + 16, std::uint64_t{1} << 40)), "record count");
  expect_refused_everywhere(comm, write("writers.bales", changed(index_at + 8, 1000)),
                            "writer count");
  expect_refused_everywhere(comm, write("end.bales", changed(size - 16, size)),
                            "index past the end");
  expect_refused_everywhere(comm, write("order.bales", changed(offsets_at + 8, 0)),
                            "offsets out of order");
  expect_refused_everywhere(comm, write("past.bales", changed(offsets_at, index_at + 1)),
                            "offset past the records");
  // An offset moved 8 bytes into its record, still in order: the index's checksum covers it.
  std::uint64_t second = 0;
  for (int k = 0; k < 8; ++k)
    second |= static_cast<std::uint64_t>(
                  static_cast<unsigned char>(bytes[offsets_at + 8 + static_cast<std::size_t>(k)]))
              << (8 * k);
  if (second + 8 < index_at)
    expect_refused_everywhere(comm, write("moved.bales", changed(offsets_at + 8, second + 8)),
                              "offset moved");
  std::vector<char> flipped = bytes;
  flipped[offsets_at - 8] ^= 1;  // the writer table: its CRC no longer matches
  expect_refused_everywhere(comm, write("table.bales", flipped), "writer table");
  std::vector<char> record = bytes;
  record[index_at - 3] ^= 1;  // inside the last record: its CRC no longer matches
  expect_refused_everywhere(comm, write("record.bales", record), "damaged record");
  comm.barrier();
  if (comm.rank() == 0) std::filesystem::remove_all(dir);
}

}  // namespace
