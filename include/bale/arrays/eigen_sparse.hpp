// SPDX-License-Identifier: BSL-1.0
#pragma once
// Eigen::SparseMatrix in its compressed form (CSC when column-major, CSR when row-major), in every
// format, as a record:
//   rows, cols       the extents
//   layout           column_major (outer index = column) or row_major (outer index = row)
//   outer_starts     outer size + 1 offsets into the two arrays below, from 0 to their length
//   inner_indices    each stored coefficient's inner index, increasing within an outer index
//   values           each stored coefficient
// Reading checks all of it before the matrix is built: offsets that start at 0, never decrease and
// end at the number of coefficients; inner indices within the inner size and strictly increasing;
// extents that fit the matrix's index type. A matrix of the other storage order is converted.

#include <Eigen/SparseCore>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "bale/arrays/shape.hpp"
#include "bale/core/error.hpp"
#include "bale/core/error_text.hpp"
#include "bale/core/schema_shape.hpp"
#include "bale/core/serializer.hpp"
#include "bale/types/scalar.hpp"
#include "bale/types/span.hpp"
#include "bale/types/vector.hpp"

namespace bale::detail {

struct sparse_member_names {
  static constexpr std::array<std::string_view, 6> value{"rows",         "cols",          "layout",
                                                         "outer_starts", "inner_indices", "values"};
};

/// What a sparse matrix looks like to bale::schema_of, and where one is read before it is checked.
template <class Scalar, class Index>
struct sparse_record {
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;
  array_layout layout = array_layout::column_major;
  std::vector<Index> outer_starts;
  std::vector<Index> inner_indices;
  std::vector<Scalar> values;
};

/// Why a compressed form is not one Eigen can hold, or null.
template <class Scalar, class Index>
const char* sparse_refusal(const sparse_record<Scalar, Index>& r) {
  constexpr auto most = static_cast<std::uint64_t>(std::numeric_limits<Index>::max());
  if (r.rows > most || r.cols > most) return "extents larger than the matrix's index type holds";
  if (r.layout != array_layout::row_major && r.layout != array_layout::column_major)
    return "a layout that is neither row_major nor column_major";
  const bool by_rows = r.layout == array_layout::row_major;
  const std::uint64_t outer = by_rows ? r.rows : r.cols, inner = by_rows ? r.cols : r.rows;
  if (r.outer_starts.size() != outer + 1)
    return "outer_starts that are not one per outer index and one more";
  if (r.inner_indices.size() != r.values.size())
    return "inner_indices and values of different lengths";
  if (r.outer_starts.front() != 0 ||
      static_cast<std::uint64_t>(r.outer_starts.back()) != r.values.size())
    return "outer_starts that do not run from 0 to the number of coefficients";
  // Never decreasing from 0 to the count, so every start is an index into the two arrays.
  for (std::size_t o = 0; o < outer; ++o)
    if (r.outer_starts[o + 1] < r.outer_starts[o]) return "outer_starts that decrease";
  for (std::size_t o = 0; o < outer; ++o) {
    const Index first = r.outer_starts[o], end = r.outer_starts[o + 1];
    for (Index k = first; k < end; ++k) {
      const Index i = r.inner_indices[static_cast<std::size_t>(k)];
      if (i < 0 || static_cast<std::uint64_t>(i) >= inner)
        return "an inner index outside the matrix";
      if (k > first && i <= r.inner_indices[static_cast<std::size_t>(k) - 1])
        return "inner indices that do not increase within an outer index";
    }
  }
  return nullptr;
}

}  // namespace bale::detail

namespace bale {

template <class Scalar, int Options, class Index>
struct serializer<Eigen::SparseMatrix<Scalar, Options, Index>> {
  using matrix = Eigen::SparseMatrix<Scalar, Options, Index>;
  using record = detail::sparse_record<Scalar, Index>;
  using schema_shape = schema::record<record>;
  static constexpr array_layout own_layout =
      (Options & Eigen::RowMajor) != 0 ? array_layout::row_major : array_layout::column_major;

  template <class Archive>
  static void save(Archive& ar, const matrix& m) {
    if (!m.isCompressed()) {
      matrix compressed = m;
      compressed.makeCompressed();
      return save(ar, compressed);
    }
    const auto outer = static_cast<std::size_t>(m.outerSize());
    const auto stored = static_cast<std::size_t>(m.nonZeros());
    ar.template write_object<detail::sparse_member_names>(
        static_cast<std::uint64_t>(m.rows()), static_cast<std::uint64_t>(m.cols()), own_layout,
        std::span<const Index>(m.outerIndexPtr(), outer + 1),
        std::span<const Index>(m.innerIndexPtr(), stored),
        std::span<const Scalar>(m.valuePtr(), stored));
  }

  template <class Archive>
  static void load(Archive& ar, matrix& m) {
    record r;
    ar.template read_object<detail::sparse_member_names>(r.rows, r.cols, r.layout, r.outer_starts,
                                                         r.inner_indices, r.values);
    if (const char* refusal = detail::sparse_refusal(r))
      ar.fail(errc::invalid_value, std::string("a sparse matrix with ") + refusal);
    const auto rows = static_cast<Eigen::Index>(r.rows), cols = static_cast<Eigen::Index>(r.cols);
    const auto stored = static_cast<Eigen::Index>(r.values.size());
    if (r.layout == own_layout) {
      m = Eigen::Map<const matrix>(rows, cols, stored, r.outer_starts.data(),
                                   r.inner_indices.data(), r.values.data());
    } else {
      using other = Eigen::SparseMatrix<Scalar, Options ^ Eigen::RowMajor, Index>;
      m = Eigen::Map<const other>(rows, cols, stored, r.outer_starts.data(), r.inner_indices.data(),
                                  r.values.data());
    }
  }
};

}  // namespace bale
