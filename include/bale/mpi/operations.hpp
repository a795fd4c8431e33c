// SPDX-License-Identifier: BSL-1.0
#pragma once
// MPI's own reductions. Given to reduce or all_reduce with an arithmetic value, or with a
// std::vector or std::array of them (element by element), these run as MPI_Reduce /
// MPI_Allreduce on the value's memory, with nothing serialized: an all_reduce of a vector of
// doubles costs what MPI_Allreduce costs. With any other type they are ordinary functions
// (a + b, std::min, ...) and the value is reduced as serialized values are.
//
//   double total = comm.all_reduce(local, bale::mpi::plus{});
//   std::vector<double> sums = comm.all_reduce(partial_sums, bale::mpi::plus{});

#include <mpi.h>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "bale/mpi/datatype.hpp"
#include "bale/mpi/error.hpp"

namespace bale::mpi {

struct plus {
  static MPI_Op native() noexcept { return MPI_SUM; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct multiplies {
  static MPI_Op native() noexcept { return MPI_PROD; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a * b;
  }
};
struct min {
  static MPI_Op native() noexcept { return MPI_MIN; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
struct max {
  static MPI_Op native() noexcept { return MPI_MAX; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
struct logical_and {
  static MPI_Op native() noexcept { return MPI_LAND; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a && b;
  }
};
struct logical_or {
  static MPI_Op native() noexcept { return MPI_LOR; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a || b;
  }
};
struct bit_and {
  static MPI_Op native() noexcept { return MPI_BAND; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a & b;
  }
};
struct bit_or {
  static MPI_Op native() noexcept { return MPI_BOR; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a | b;
  }
};
struct bit_xor {
  static MPI_Op native() noexcept { return MPI_BXOR; }
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a ^ b;
  }
};

namespace detail {

/// The element type of a value MPI reduces in place, or void.
template <class T>
struct reduced_elements {
  using type = void;
};
template <class T>
requires std::is_arithmetic_v<T>
struct reduced_elements<T> {
  using type = T;
};
template <class E, class Alloc>
requires(std::is_arithmetic_v<E> &&
         !std::is_same_v<E, bool>) struct reduced_elements<std::vector<E, Alloc>> {
  using type = E;
};
template <class E, std::size_t N>
requires std::is_arithmetic_v<E>
struct reduced_elements<std::array<E, N>> {
  using type = E;
};

/// An operation of this header applied to a value MPI can reduce in place.
template <class Op, class T>
concept native_reduction = requires {
  { Op::native() } -> std::same_as<MPI_Op>;
}
&&!std::is_void_v<typename reduced_elements<T>::type>;

template <class T>
void* memory_of(T& value) {
  if constexpr (std::is_arithmetic_v<T>)
    return &value;
  else
    return value.data();
}
template <class T>
std::size_t count_of(const T& value) {
  if constexpr (std::is_arithmetic_v<T>)
    return 1;
  else
    return value.size();
}

/// MPI needs the same count on every rank: a vector of another length anywhere is an error on
/// every rank, found with one small all-reduce before the data moves.
template <class T>
void require_same_length(const T& value, MPI_Comm comm) {
  if constexpr (requires(T & v) { v.resize(0); }) {
    const auto n = static_cast<std::int64_t>(value.size());
    std::array<std::int64_t, 2> bounds = {n, -n};
    check(MPI_Allreduce(MPI_IN_PLACE, bounds.data(), 2, MPI_INT64_T, MPI_MAX, comm),
          "MPI_Allreduce");
    if (bounds[0] != -bounds[1])
      throw error(bale::error(errc::invalid_value,
                              bale::detail::error_text(
                                  {"a reduction of arrays of ", -bounds[1], " to ", bounds[0],
                                   " elements: every rank must give the same length"})),
                  MPI_PROC_NULL, MPI_ANY_TAG);
  }
}

/// MPI counts are ints: a larger array is reduced in pieces.
template <class T, class Call>
void in_pieces(T& value, Call&& call) {
  using E = typename reduced_elements<T>::type;
  constexpr std::size_t piece = std::size_t{1} << 30;  // elements, under INT_MAX
  auto* data = static_cast<E*>(memory_of(value));
  const std::size_t n = count_of(value);  // the same on every rank
  for (std::size_t done = 0; done < n; done += piece)
    call(data + done, static_cast<int>(std::min(piece, n - done)), datatype<E>());
}

template <class Op, class T>
T native_all_reduce(const T& value, MPI_Comm comm) {
  require_same_length(value, comm);
  T result = value;
  in_pieces(result, [&](void* data, int count, MPI_Datatype type) {
    check(MPI_Allreduce(MPI_IN_PLACE, data, count, type, Op::native(), comm), "MPI_Allreduce");
  });
  return result;
}

template <class Op, class T>
T native_reduce(const T& value, int root, int rank, MPI_Comm comm) {
  require_same_length(value, comm);
  T result = value;
  in_pieces(result, [&](void* data, int count, MPI_Datatype type) {
    check(MPI_Reduce(rank == root ? MPI_IN_PLACE : data, rank == root ? data : nullptr, count, type,
                     Op::native(), root, comm),
          "MPI_Reduce", root);
  });
  return rank == root ? result : T{};
}

template <class Op, class T>
T native_scan(const T& value, bool inclusive, int rank, MPI_Comm comm) {
  require_same_length(value, comm);
  T result = value;
  in_pieces(result, [&](void* data, int count, MPI_Datatype type) {
    if (inclusive)
      check(MPI_Scan(MPI_IN_PLACE, data, count, type, Op::native(), comm), "MPI_Scan");
    else
      check(MPI_Exscan(MPI_IN_PLACE, data, count, type, Op::native(), comm), "MPI_Exscan");
  });
  return inclusive || rank != 0 ? result : T{};  // MPI leaves rank 0's exscan undefined
}

}  // namespace detail
}  // namespace bale::mpi
