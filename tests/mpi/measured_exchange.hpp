// SPDX-License-Identifier: BSL-1.0
#pragma once
// A value sent to the right and one received from the left around a ring, with the heap each
// side used: what proves that an array went from and into its own memory.
#include "bale/mpi.hpp"
#include "hardening/counting_allocator.hpp"
#include "mpi/values.hpp"

namespace mpi_test {

struct exchange_heap {
  hardening::heap_use sending;
  hardening::heap_use receiving;
};

template <class Communicator, class Sent, class Received>
exchange_heap measured_exchange(Communicator& comm, int tag, const Sent& sent, Received& into) {
  const ring r(comm);
  bale::mpi::send_request request;
  exchange_heap used;
  used.sending = hardening::measure_heap([&] { request = comm.isend(r.right, tag, sent); });
  used.receiving = hardening::measure_heap([&] { comm.recv(r.left, tag, into); });
  request.wait();
  return used;
}

}  // namespace mpi_test
