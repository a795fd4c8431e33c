# SPDX-License-Identifier: BSL-1.0
# Defines bale::mpi (bale/mpi.hpp: values over MPI) when an MPI implementation is found. Only its
# users need MPI; the rest of bale never includes <mpi.h>. Used by bale's own build and by the
# installed package config, so both find MPI the same way.
if(NOT TARGET bale::mpi)
  set(MPI_CXX_SKIP_MPICXX ON)  # bale uses MPI's C interface; the C++ bindings left MPI in 3.0
  find_package(MPI QUIET COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    add_library(bale::mpi INTERFACE IMPORTED)
    set_target_properties(bale::mpi PROPERTIES INTERFACE_LINK_LIBRARIES "bale::bale;MPI::MPI_CXX")
  endif()
endif()
