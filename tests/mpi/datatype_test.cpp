// SPDX-License-Identifier: BSL-1.0
// MPI datatypes built from bale's description of a type, used by MPI's own operations.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "bale/mpi.hpp"

namespace {

struct padded {  // padding after `tag` and after `kind`
  char tag;
  double value;
  std::int16_t kind;
};
struct particle {
  std::array<double, 3> position;
  float mass;
  padded extra;
  std::uint8_t flags[3];
};
struct reflected {
  std::int32_t id;
  double weight;
  std::int64_t not_listed = 99;
};
BALE_REFLECT(reflected, id, weight)

particle make_particle(int seed) {
  return {{seed * 1.0, seed * 2.0, seed * 3.0},
          seed * 0.5f,
          {char('a' + seed), seed * 4.0, std::int16_t(seed)},
          {std::uint8_t(seed), 2, 3}};
}

TEST(MpiDatatype, ARecordWithPaddingMovesByItsMembers) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const MPI_Datatype type = bale::mpi::datatype<particle>();
  EXPECT_EQ(type, bale::mpi::datatype<particle>());  // cached
  MPI_Aint lower = 0;
  MPI_Aint extent = 0;
  MPI_Type_get_extent(type, &lower, &extent);
  EXPECT_EQ(extent, static_cast<MPI_Aint>(sizeof(particle)));
  int bytes = 0;
  MPI_Type_size(type, &bytes);
  EXPECT_EQ(bytes, 3 * 8 + 4 + (1 + 8 + 2) + 3);  // members only, no padding

  std::vector<particle> all(static_cast<std::size_t>(size));
  const particle mine = make_particle(rank + 1);
  MPI_Allgather(&mine, 1, type, all.data(), 1, type, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r) {
    const particle expected = make_particle(r + 1);
    const particle& got = all[static_cast<std::size_t>(r)];
    EXPECT_EQ(got.position, expected.position);
    EXPECT_EQ(got.mass, expected.mass);
    EXPECT_EQ(got.extra.tag, expected.extra.tag);
    EXPECT_EQ(got.extra.value, expected.extra.value);
    EXPECT_EQ(got.extra.kind, expected.extra.kind);
    EXPECT_EQ(got.flags[0], expected.flags[0]);
  }
}

TEST(MpiDatatype, AReflectedTypeMovesTheMembersItLists) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bytes = 0;
  MPI_Type_size(bale::mpi::datatype<reflected>(), &bytes);
  EXPECT_EQ(bytes, 4 + 8);
  reflected value{rank == 0 ? 7 : 0, rank == 0 ? 2.5 : 0.0, rank};
  MPI_Bcast(&value, 1, bale::mpi::datatype<reflected>(), 0, MPI_COMM_WORLD);
  EXPECT_EQ(value.id, 7);
  EXPECT_EQ(value.weight, 2.5);
  EXPECT_EQ(value.not_listed, rank);  // not listed, not sent
}

TEST(MpiDatatype, BuiltinTypesAndAReductionOverArrays) {
  EXPECT_EQ(bale::mpi::datatype<double>(), MPI_DOUBLE);
  EXPECT_EQ(bale::mpi::datatype<std::uint32_t>(), MPI_UINT32_T);
  EXPECT_EQ(bale::mpi::datatype<std::int64_t>(), MPI_INT64_T);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::array<std::int64_t, 4> counts = {1, 2, 3, 4};
  MPI_Allreduce(MPI_IN_PLACE, counts.data(), 4, bale::mpi::datatype<std::int64_t>(), MPI_SUM,
                MPI_COMM_WORLD);
  EXPECT_EQ(counts[3], 4 * size);
  static_assert(!bale::mpi::mpi_describable<std::vector<int>>);
}

}  // namespace
