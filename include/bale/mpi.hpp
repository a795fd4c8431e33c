// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::mpi: any serializable value over MPI (link bale::mpi). Only this header and those under
// bale/mpi/ include <mpi.h>.

#include "bale/bale.hpp"
#include "bale/mpi/cartesian.hpp"
#include "bale/mpi/communicator.hpp"
#include "bale/mpi/datatype.hpp"
#include "bale/mpi/error.hpp"
#include "bale/mpi/file.hpp"
#include "bale/mpi/operations.hpp"
#include "bale/mpi/options.hpp"
#include "bale/mpi/probed_message.hpp"
#include "bale/mpi/request.hpp"
