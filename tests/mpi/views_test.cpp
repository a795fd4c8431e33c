// SPDX-License-Identifier: BSL-1.0
// A value that holds views (std::string_view, std::span) cannot be received: its views would
// point into bale's receive buffers, which the next message reuses or frees. Every receive path
// refuses it, at every size, and a value of the same shape that owns its bytes is received.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bale/mpi.hpp"
#include "mpi/values.hpp"

namespace {

using bale::mpi::communicator;
using namespace mpi_test;

struct borrowed {
  int id = 0;
  std::string_view name;
  std::span<const double> values;
};
struct owned {
  int id = 0;
  std::string name;
  std::vector<double> values;
};

template <class Receive>
void expect_views_refused(Receive receive) {
  try {
    receive();
    ADD_FAILURE() << "a value holding views was received";
  } catch (const bale::mpi::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    EXPECT_NE(std::string(e.what()).find("string_view or span"), std::string::npos) << e.what();
  }
}

// Sizes under one chunk, over a chunk (1 MiB) and over the zero-copy threshold.
const std::vector<std::size_t> sizes = {4, 3000, (std::size_t{1} << 20) / 8 + 10};

TEST(MpiViews, EveryReceivePathRefusesAValueHoldingViews) {
  communicator comm(MPI_COMM_WORLD);
  const ring r(comm);
  for (const std::size_t count : sizes) {
    SCOPED_TRACE(count);
    const std::vector<double> values = doubles(count, comm.rank());
    const std::string text(count, 'v');
    const borrowed out{comm.rank(), text, values};

    bale::mpi::send_request sent = comm.isend(r.right, 11, out);
    expect_views_refused([&] { (void)comm.recv<borrowed>(r.left, 11); });
    sent.wait();

    sent = comm.isend(r.right, 12, out);
    expect_views_refused([&] { (void)comm.mprobe(r.left, 12).recv<borrowed>(); });
    sent.wait();

    sent = comm.isend(r.right, 13, out);
    auto incoming = comm.irecv<borrowed>(r.left, 13);
    expect_views_refused([&] { (void)incoming.wait(); });
    sent.wait();

    borrowed shared = comm.rank() == 0 ? out : borrowed{};
    if (comm.rank() == 0)
      comm.broadcast(shared, 0);
    else
      expect_views_refused([&] { comm.broadcast(shared, 0); });

    // The same members owning their bytes are received, and the communicator is in step.
    const owned back =
        comm.sendrecv<owned>(r.right, 14, owned{comm.rank(), text, values}, r.left, 14);
    EXPECT_EQ(back.id, r.left);
    EXPECT_EQ(back.values, doubles(count, r.left));
  }
}

}  // namespace
