// SPDX-License-Identifier: BSL-1.0
#pragma once
// Case 14: numeric arrays of rank 2 and 3, as scientific codes hold them: a 4096 x 4096 Eigen
// matrix of doubles (column-major, 128 MiB) and a 256^3 boost::multi_array of floats (64 MiB).

#include <Eigen/Core>
#include <boost/multi_array.hpp>
#include <cstddef>

#include "common/harness.hpp"

namespace cases {

using matrix = Eigen::MatrixXd;
using tensor = boost::multi_array<float, 3>;

inline const matrix& big_matrix() {
  static const matrix m = [] {
    const auto n = static_cast<Eigen::Index>(bench::scaled(4096, 16));
    matrix made(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i)
        made(i, j) = static_cast<double>(i) * 0.5 - static_cast<double>(j);
    return made;
  }();
  return m;
}

inline const tensor& big_tensor() {
  static const tensor t = [] {
    const std::size_t n = bench::scaled(256, 8);
    tensor made(boost::extents[n][n][n]);
    float* data = made.data();
    for (std::size_t i = 0; i < made.num_elements(); ++i)
      data[i] = static_cast<float>(i % 1000) * 0.25F;
    return made;
  }();
  return t;
}

inline std::size_t payload_bytes(const matrix& m) {
  return static_cast<std::size_t>(m.size()) * sizeof(double);
}
inline std::size_t payload_bytes(const tensor& t) {
  return t.num_elements() * sizeof(float);
}

}  // namespace cases
