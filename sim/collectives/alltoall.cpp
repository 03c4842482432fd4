// MPI_Alltoall(v): coll_base_alltoall.c and coll_base_alltoallv.c of Open
// MPI 4.1, rewritten. `send[i]` / `recv[i]`: elements to / from local rank i.
#include "sim/collectives/context.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {
namespace {

using Counts = std::vector<std::uint64_t>;

std::uint64_t at(const Counts& v, int i) { return v[static_cast<std::size_t>(i)]; }

// ompi_coll_base_alltoall_intra_basic_linear (persistent requests, started
// together): receives from rank+1, rank+2, ..., sends to rank-1, rank-2, ...,
// then wait for all. The v variant posts in rank order and skips empty
// blocks. linear_sync with the default max_requests 0 (= size-1 in flight)
// is the same exchange.
void alltoall_linear(Context& c, const Counts& send, const Counts& recv, bool v_variant) {
  const int size = c.size(), rank = c.rank();
  std::vector<RequestId> reqs;
  if (v_variant) {
    for (int i = 0; i < size; ++i) {
      if (i != rank && at(recv, i) > 0) reqs.push_back(c.irecv(i, at(recv, i)));
    }
    for (int i = 0; i < size; ++i) {
      if (i != rank && at(send, i) > 0) reqs.push_back(c.isend(i, at(send, i)));
    }
  } else {
    for (int i = (rank + 1) % size; i != rank; i = (i + 1) % size) reqs.push_back(c.irecv(i, at(recv, i)));
    for (int i = (rank + size - 1) % size; i != rank; i = (i + size - 1) % size) {
      reqs.push_back(c.isend(i, at(send, i)));
    }
  }
  c.waitall(reqs);
}

// Pairwise: at step s, sendrecv with rank+s / rank-s (step size, or 0 for
// the v variant, is the local copy).
void alltoall_pairwise(Context& c, const Counts& send, const Counts& recv, bool v_variant) {
  const int size = c.size(), rank = c.rank();
  const int first = v_variant ? 0 : 1, last = v_variant ? size - 1 : size;
  for (int step = first; step <= last; ++step) {
    const int to = (rank + step) % size, from = (rank + size - step) % size;
    c.sendrecv(to, at(send, to), from, at(recv, from));
  }
}

// Modified Bruck: at distance d, the blocks whose (rotated) index has bit d
// set go to rank+d, as many come from rank-d.
void alltoall_bruck(Context& c, const Counts& send) {
  const int size = c.size(), rank = c.rank();
  const std::uint64_t block = at(send, 0);
  for (int distance = 1; distance < size; distance <<= 1) {
    std::uint64_t n = 0;
    for (int i = 1; i < size; ++i) {
      if ((i & distance) == distance) ++n;
    }
    c.sendrecv((rank + distance) % size, n * block, (rank - distance + size) % size, n * block);
  }
}

}  // namespace

void run_alltoall(Context& c, const AlgorithmChoice& a, const Counts& send, const Counts& recv) {
  if (c.size() < 2) return;
  const std::string& n = a.algorithm;
  if (n == "linear" || n == "linear_sync") return alltoall_linear(c, send, recv, false);
  if (n == "linear_v") return alltoall_linear(c, send, recv, true);
  if (n == "pairwise") return alltoall_pairwise(c, send, recv, false);
  if (n == "pairwise_v") return alltoall_pairwise(c, send, recv, true);
  if (n == "modified_bruck") return alltoall_bruck(c, send);
  if (n == "two_proc") {
    require_two_ranks(c, "alltoall");
    const int remote = c.rank() ^ 1;
    return c.sendrecv(remote, at(send, remote), remote, at(recv, remote));
  }
  throw Error("internal error: unknown alltoall algorithm " + n);
}

}  // namespace contend::coll
