// SPDX-License-Identifier: BSL-1.0
#pragma once
// The arrays the `arrays` fuzz target decodes: both layouts, a fixed size, a rank of 3.

#include <Eigen/Core>
#include <bale/all.hpp>
#include <bale/arrays/eigen.hpp>
#include <bale/arrays/multi_array.hpp>
#include <cstdint>
#include <tuple>

namespace fuzz {

using arrays =
    std::tuple<Eigen::Matrix<std::int16_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
               Eigen::MatrixXf, Eigen::Matrix<double, 2, 3>, boost::multi_array<std::uint8_t, 3>>;

// The byte that picks the format: the input's first.
enum class array_format : std::uint8_t { binary, compact, msgpack, json };

}  // namespace fuzz
