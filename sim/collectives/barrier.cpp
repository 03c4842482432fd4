// MPI_Barrier: coll_base_barrier.c of Open MPI 4.1, rewritten. All messages
// are empty. Open MPI's synchronous sends (double ring, the last step of
// recursive doubling) are standard sends here: an empty message is eager, so
// the difference is the acknowledgement, which the engine does not model.
#include "sim/collectives/context.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {
namespace {

void barrier_linear(Context& c) {
  if (c.rank() > 0) {
    c.send(0, 0);
    c.recv(0, 0);
    return;
  }
  std::vector<RequestId> arrivals;
  for (int i = 1; i < c.size(); ++i) arrivals.push_back(c.irecv_any(0));
  c.waitall(arrivals);
  for (int i = 1; i < c.size(); ++i) c.send(i, 0);
}

void barrier_double_ring(Context& c) {
  const int rank = c.rank(), size = c.size();
  const int left = (size + rank - 1) % size, right = (rank + 1) % size;
  for (int round = 0; round < 2; ++round) {
    if (rank > 0) c.recv(left, 0);
    c.send(right, 0);
    if (rank == 0) c.recv(left, 0);
  }
}

void barrier_recursive_doubling(Context& c) {
  const int rank = c.rank(), size = c.size();
  const int adjsize = largest_power_of_two_at_most(size);
  if (adjsize != size) {
    if (rank >= adjsize) {
      c.sendrecv(rank - adjsize, 0, rank - adjsize, 0);
    } else if (rank < size - adjsize) {
      c.recv(rank + adjsize, 0);
    }
  }
  if (rank < adjsize) {
    for (int mask = 1; mask < adjsize; mask <<= 1) {
      const int remote = rank ^ mask;
      if (remote < adjsize) c.sendrecv(remote, 0, remote, 0);
    }
  }
  if (adjsize != size && rank < size - adjsize) c.send(rank + adjsize, 0);
}

void barrier_bruck(Context& c) {
  const int rank = c.rank(), size = c.size();
  for (int distance = 1; distance < size; distance <<= 1) {
    c.sendrecv((rank + distance) % size, 0, (rank + size - distance) % size, 0);
  }
}

void barrier_tree(Context& c) {
  const int rank = c.rank(), size = c.size();
  int depth = 1;
  while (depth < size) depth <<= 1;  // opal_next_poweroftwo_inclusive
  // Up the tree the higher rank of each pair reports to the lower one; down
  // the tree the lower one releases it.
  auto step = [&](int jump, bool up) {
    const int partner = rank ^ jump;
    if ((partner & (jump - 1)) != 0 || partner >= size) return;
    if ((partner > rank) == up) {
      c.recv(partner, 0);
    } else {
      c.send(partner, 0);
    }
  };
  for (int jump = 1; jump < depth; jump <<= 1) step(jump, true);
  for (int jump = depth >> 1; jump > 0; jump >>= 1) step(jump, false);
}

}  // namespace

void run_barrier(Context& c, const AlgorithmChoice& a) {
  if (c.size() < 2) return;
  const std::string& n = a.algorithm;
  if (n == "linear") return barrier_linear(c);
  if (n == "double_ring") return barrier_double_ring(c);
  if (n == "recursive_doubling") return barrier_recursive_doubling(c);
  if (n == "bruck") return barrier_bruck(c);
  if (n == "two_proc") {
    require_two_ranks(c, "barrier");
    return c.sendrecv(1 - c.rank(), 0, 1 - c.rank(), 0);
  }
  if (n == "tree") return barrier_tree(c);
  throw Error("internal error: unknown barrier algorithm " + n);
}

}  // namespace contend::coll
