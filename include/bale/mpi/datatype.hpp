// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::mpi::datatype<T>(): an MPI_Datatype for a trivially copyable type, built from the same
// description bale serializes it with (BALE_REFLECT or an aggregate's members), so that MPI's own
// reductions, one-sided operations and MPI-IO can use it. Arithmetic types and enums map to MPI's
// built-in types; std::array and C arrays to a count; nested records recurse. The struct type
// is resized to sizeof(T), so arrays of T step over padding. Built once per type, then cached
// (MPI must be initialized by the first call; MPI_Finalize releases it).
//
//   struct particle { double x, y, z; float mass; };
//   MPI_Allreduce(MPI_IN_PLACE, ps.data(), n, bale::mpi::datatype<particle>(), op, comm);

#include <mpi.h>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "bale/core/serializer.hpp"
#include "bale/mpi/error.hpp"

namespace bale::mpi {

namespace detail {

template <class T>
concept mpi_builtin = std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, std::byte>;

template <class T>
MPI_Datatype builtin_datatype() {
  if constexpr (std::is_enum_v<T> && !std::is_same_v<T, std::byte>) {
    return builtin_datatype<std::underlying_type_t<T>>();
  } else if constexpr (std::is_same_v<T, bool>) {
    return MPI_CXX_BOOL;
  } else if constexpr (std::is_same_v<T, std::byte>) {
    return MPI_BYTE;
  } else if constexpr (std::is_same_v<T, char>) {
    return MPI_CHAR;
  } else if constexpr (std::is_same_v<T, wchar_t>) {
    return MPI_WCHAR;
  } else if constexpr (std::is_same_v<T, float>) {
    return MPI_FLOAT;
  } else if constexpr (std::is_same_v<T, double>) {
    return MPI_DOUBLE;
  } else if constexpr (std::is_same_v<T, long double>) {
    return MPI_LONG_DOUBLE;
  } else if constexpr (std::is_signed_v<T>) {
    if constexpr (sizeof(T) == 1) return MPI_INT8_T;
    if constexpr (sizeof(T) == 2) return MPI_INT16_T;
    if constexpr (sizeof(T) == 4) return MPI_INT32_T;
    if constexpr (sizeof(T) == 8) return MPI_INT64_T;
  } else {
    if constexpr (sizeof(T) == 1) return MPI_UINT8_T;
    if constexpr (sizeof(T) == 2) return MPI_UINT16_T;
    if constexpr (sizeof(T) == 4) return MPI_UINT32_T;
    if constexpr (sizeof(T) == 8) return MPI_UINT64_T;
  }
}

template <class T>
struct array_of {
  static constexpr bool value = false;
};
template <class E, std::size_t N>
struct array_of<std::array<E, N>> {
  static constexpr bool value = true;
  using element = E;
  static constexpr std::size_t count = N;
};
template <class E, std::size_t N>
struct array_of<E[N]> {
  static constexpr bool value = true;
  using element = E;
  static constexpr std::size_t count = N;
};

template <class T>
inline constexpr bool is_complex = false;
template <class T>
inline constexpr bool is_complex<std::complex<T>> =
    std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class T>
constexpr bool described_record() {
  using bale::detail::description;
  constexpr description how = bale::detail::description_of<T>();
  return how == description::reflect_macro || how == description::aggregate;
}

}  // namespace detail

/// Types bale can describe to MPI: arithmetic types, enums, std::byte, std::complex, arrays of
/// these, and trivially copyable records described by BALE_REFLECT or as aggregates whose
/// members are all such types.
template <class T>
concept mpi_describable = std::is_trivially_copyable_v<T> &&
    (detail::mpi_builtin<T> || detail::is_complex<T> || detail::array_of<T>::value ||
     (std::is_class_v<T> && std::is_default_constructible_v<T> && detail::described_record<T>()));

template <class T>
requires mpi_describable<T> MPI_Datatype datatype();

namespace detail {

struct struct_fields {
  std::vector<int> counts;
  std::vector<MPI_Aint> offsets;
  std::vector<MPI_Datatype> types;

  template <class Member>
  void add(const std::byte* base, const Member& member) {
    using M = std::remove_cvref_t<Member>;
    offsets.push_back(reinterpret_cast<const std::byte*>(&member) - base);
    if constexpr (array_of<M>::value) {
      counts.push_back(static_cast<int>(array_of<M>::count));
      types.push_back(datatype<std::remove_cv_t<typename array_of<M>::element>>());
    } else {
      counts.push_back(1);
      types.push_back(datatype<M>());
    }
  }
};

template <class T>
struct_fields fields_of(const T& sample) {
  struct_fields fields;
  const auto* base = reinterpret_cast<const std::byte*>(&sample);
  if constexpr (bale::detail::description_of<T>() == bale::detail::description::reflect_macro) {
    constexpr auto described = bale::detail::lookup::reflected_members_of<T>();
    std::apply([&](auto... pointers) { (fields.add(base, sample.*pointers), ...); },
               described.pointers);
  } else {
    bale::visit_members(sample, [&](const auto&... members) { (fields.add(base, members), ...); });
  }
  return fields;
}

template <class T>
MPI_Datatype build_datatype() {
  MPI_Datatype built;
  if constexpr (std::is_same_v<T, std::complex<float>>) {
    return MPI_CXX_FLOAT_COMPLEX;
  } else if constexpr (std::is_same_v<T, std::complex<double>>) {
    return MPI_CXX_DOUBLE_COMPLEX;
  } else if constexpr (mpi_builtin<T>) {
    return builtin_datatype<T>();
  } else if constexpr (array_of<T>::value) {
    check(MPI_Type_contiguous(static_cast<int>(array_of<T>::count),
                              datatype<typename array_of<T>::element>(), &built),
          "MPI_Type_contiguous");
  } else {
    static const T sample{};
    const struct_fields fields = fields_of(sample);
    MPI_Datatype packed;
    check(MPI_Type_create_struct(static_cast<int>(fields.counts.size()), fields.counts.data(),
                                 fields.offsets.data(), fields.types.data(), &packed),
          "MPI_Type_create_struct");
    check(MPI_Type_create_resized(packed, 0, sizeof(T), &built), "MPI_Type_create_resized");
    MPI_Type_free(&packed);
  }
  check(MPI_Type_commit(&built), "MPI_Type_commit");
  return built;
}

}  // namespace detail

template <class T>
requires mpi_describable<T> MPI_Datatype datatype() {
  static const MPI_Datatype built = detail::build_datatype<T>();
  return built;
}

}  // namespace bale::mpi
