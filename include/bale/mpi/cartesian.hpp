// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::mpi::cartesian: a communicator whose ranks sit on a grid of any number of dimensions,
// each periodic or not, with MPI's own topology (MPI_Cart_create) underneath:
//
//   auto grid = bale::mpi::cartesian_grid(comm, {0, 0}, {true, false});  // 2-D, sizes chosen
//   const auto [below, above] = grid->shift(0, 1);
//   grid->sendrecv(above, tag, top_row, below, tag, halo);   // MPI_PROC_NULL at an open edge
//
// Sending to MPI_PROC_NULL does nothing and receiving from it leaves the value as it is, so a
// halo exchange needs no special case at the edges of a grid that is not periodic.

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bale/binary/format.hpp"
#include "bale/mpi/communicator.hpp"
#include "bale/mpi/error.hpp"
#include "bale/mpi/options.hpp"

namespace bale::mpi {

/// The ranks one step away along a dimension: `source` sends to this rank, `dest` receives from
/// it, in a shift. MPI_PROC_NULL past an edge that is not periodic.
struct neighbours {
  int source = MPI_PROC_NULL;
  int dest = MPI_PROC_NULL;
};

template <class Format = binary>
class basic_cartesian : public basic_communicator<Format> {
 public:
  using basic_communicator<Format>::rank;
  using basic_communicator<Format>::native;

  /// The number of ranks along each dimension.
  const std::vector<int>& dimensions() const noexcept { return dimensions_; }
  /// Whether each dimension wraps around.
  const std::vector<bool>& periodic() const noexcept { return periodic_; }

  /// The grid coordinates of `r` (of this rank by default).
  std::vector<int> coordinates(int r) const {
    std::vector<int> at(dimensions_.size());
    detail::check(MPI_Cart_coords(native(), r, static_cast<int>(at.size()), at.data()),
                  "MPI_Cart_coords", r, MPI_ANY_TAG);
    return at;
  }
  std::vector<int> coordinates() const { return coordinates(rank()); }

  /// The rank at `coordinates`: wrapped along a periodic dimension, MPI_PROC_NULL outside an
  /// open one.
  int rank_at(std::span<const int> coordinates) const {
    if (coordinates.size() != dimensions_.size())
      throw wrong_rank("rank_at: coordinates", coordinates.size());
    for (std::size_t d = 0; d < dimensions_.size(); ++d)
      if (!periodic_[d] && (coordinates[d] < 0 || coordinates[d] >= dimensions_[d]))
        return MPI_PROC_NULL;
    int r = MPI_PROC_NULL;
    detail::check(MPI_Cart_rank(native(), coordinates.data(), &r), "MPI_Cart_rank");
    return r;
  }

  /// The neighbours `displacement` steps away along `dimension`.
  neighbours shift(int dimension, int displacement) const {
    if (dimension < 0 || static_cast<std::size_t>(dimension) >= dimensions_.size())
      throw error(bale::error(errc::invalid_value,
                              bale::detail::error_text({"shift: no dimension ", dimension})),
                  MPI_PROC_NULL, MPI_ANY_TAG);
    neighbours n;
    detail::check(MPI_Cart_shift(native(), dimension, displacement, &n.source, &n.dest),
                  "MPI_Cart_shift");
    return n;
  }

 private:
  template <class F>
  friend std::optional<basic_cartesian<F>> cartesian_grid(const basic_communicator<F>&,
                                                          std::vector<int>, std::vector<bool>,
                                                          bool);

  basic_cartesian(MPI_Comm grid, const options& settings, std::vector<int> dimensions,
                  std::vector<bool> periodic)
      : basic_communicator<Format>(grid, settings),
        dimensions_(std::move(dimensions)),
        periodic_(std::move(periodic)) {}

  error wrong_rank(const char* what, std::size_t given) const {
    return error(
        bale::error(errc::invalid_value,
                    bale::detail::error_text(
                        {what, " have ", given, " dimensions, the grid ", dimensions_.size()})),
        MPI_PROC_NULL, MPI_ANY_TAG);
  }

  std::vector<int> dimensions_;
  std::vector<bool> periodic_;
};

using cartesian = basic_cartesian<binary>;

namespace detail {

inline error grid_error(const std::string& why) {
  return error(bale::error(errc::invalid_value, "cartesian_grid: " + why), MPI_PROC_NULL,
               MPI_ANY_TAG);
}

/// Fills the zero sizes of `dimensions` so that the grid holds `ranks` ranks, as balanced as
/// MPI_Dims_create makes it; an impossible request is an error, never MPI's abort.
inline void choose_dimensions(std::vector<int>& dimensions, int ranks) {
  long long fixed = 1;
  for (const int d : dimensions) {
    if (d < 0) throw grid_error(bale::detail::error_text({"a dimension of size ", d}));
    if (d > 0) fixed *= d;
    if (fixed > ranks)
      throw grid_error(bale::detail::error_text(
          {"the grid needs more than the ", ranks, " ranks of the communicator"}));
  }
  if (std::find(dimensions.begin(), dimensions.end(), 0) == dimensions.end()) return;
  if (ranks % fixed != 0)
    throw grid_error(bale::detail::error_text(
        {ranks, " ranks do not divide into the dimensions given (", fixed, " ranks)"}));
  check(MPI_Dims_create(ranks, static_cast<int>(dimensions.size()), dimensions.data()),
        "MPI_Dims_create");
}

}  // namespace detail

/// The ranks of `comm` on a grid of `dimensions` (a zero is chosen so that the grid holds every
/// rank), each wrapping around where `periodic` says so, as a communicator with private
/// duplicates and the options of `comm`. A rank left out of a smaller grid gets none.
/// `reorder` lets MPI renumber the ranks to fit the machine. Collective; every rank passes the
/// same arguments.
template <class Format>
std::optional<basic_cartesian<Format>> cartesian_grid(const basic_communicator<Format>& comm,
                                                      std::vector<int> dimensions,
                                                      std::vector<bool> periodic,
                                                      bool reorder = false) {
  if (dimensions.empty()) throw detail::grid_error("no dimensions");
  if (periodic.size() != dimensions.size())
    throw detail::grid_error(bale::detail::error_text(
        {dimensions.size(), " dimensions and ", periodic.size(), " periodic flags"}));
  detail::choose_dimensions(dimensions, comm.size());
  const std::vector<int> wraps(periodic.begin(), periodic.end());
  MPI_Comm grid = MPI_COMM_NULL;
  detail::check(MPI_Cart_create(comm.native(), static_cast<int>(dimensions.size()),
                                dimensions.data(), wraps.data(), reorder ? 1 : 0, &grid),
                "MPI_Cart_create");
  if (grid == MPI_COMM_NULL) return std::nullopt;
  try {
    basic_cartesian<Format> made(grid, comm.settings(), std::move(dimensions), std::move(periodic));
    MPI_Comm_free(&grid);
    return made;
  } catch (...) {
    MPI_Comm_free(&grid);
    throw;
  }
}

}  // namespace bale::mpi
