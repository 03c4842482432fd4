// MPI_Allgather(v): coll_base_allgather.c and coll_base_allgatherv.c of Open
// MPI 4.1, rewritten over per-rank blocks (equal for allgather). The v
// variants send several blocks at once through an indexed datatype; here
// they are one contiguous message of the blocks' total size (decision: the
// engine's datatype costs are not applied to these internal datatypes).
#include <numeric>

#include "sim/collectives/context.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {
namespace {

using Blocks = std::vector<std::uint64_t>;

// Elements of blocks first, first+1, ..., first+n-1 (mod size).
std::uint64_t blocks_from(const Blocks& blocks, int first, int n) {
  const int size = static_cast<int>(blocks.size());
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += blocks[static_cast<std::size_t>((first + i) % size)];
  return total;
}

// Bruck: at distance d = 1, 2, 4, ... send the blocks held so far (mine and
// the next ones) to rank - d, receive the next ones from rank + d.
void allgather_bruck(Context& c, const Blocks& blocks) {
  const int size = c.size(), rank = c.rank();
  for (int distance = 1; distance < size; distance <<= 1) {
    const int from = (rank + distance) % size, to = (rank - distance + size) % size;
    const int n = distance <= (size >> 1) ? distance : size - distance;
    c.sendrecv(to, blocks_from(blocks, rank, n), from, blocks_from(blocks, from, n));
  }
}

// Recursive doubling (powers of two only; Open MPI switches to Bruck).
void allgather_recursive_doubling(Context& c, const Blocks& blocks) {
  const int size = c.size(), rank = c.rank();
  if ((size & (size - 1)) != 0) {
    allgather_bruck(c, blocks);
    return;
  }
  int location = rank;
  for (int distance = 1; distance < size; distance <<= 1) {
    const int remote = rank ^ distance;
    const int send_first = location;
    const int recv_first = rank < remote ? location + distance : location - distance;
    if (rank >= remote) location -= distance;
    c.sendrecv(remote, blocks_from(blocks, send_first, distance), remote, blocks_from(blocks, recv_first, distance));
  }
}

void allgather_ring(Context& c, const Blocks& blocks) {
  const int size = c.size(), rank = c.rank();
  const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  for (int i = 0; i < size - 1; ++i) {
    const int recv_block = (rank - i - 1 + size) % size, send_block = (rank - i + size) % size;
    c.sendrecv(right, blocks[static_cast<std::size_t>(send_block)], left, blocks[static_cast<std::size_t>(recv_block)]);
  }
}

// Neighbour exchange (even sizes; odd sizes use the ring): a first exchange
// of one block with one neighbour, then size/2 - 1 exchanges of two blocks
// alternating between the two neighbours.
void allgather_neighbor(Context& c, const Blocks& blocks) {
  const int size = c.size(), rank = c.rank();
  if (size % 2 != 0) {
    allgather_ring(c, blocks);
    return;
  }
  const bool even = rank % 2 == 0;
  int neighbor[2], recv_from[2], offset[2];
  if (even) {
    neighbor[0] = (rank + 1) % size;
    neighbor[1] = (rank - 1 + size) % size;
    recv_from[0] = recv_from[1] = rank;
    offset[0] = 2;
    offset[1] = -2;
  } else {
    neighbor[0] = (rank - 1 + size) % size;
    neighbor[1] = (rank + 1) % size;
    recv_from[0] = recv_from[1] = neighbor[0];
    offset[0] = -2;
    offset[1] = 2;
  }
  c.sendrecv(neighbor[0], blocks[static_cast<std::size_t>(rank)], neighbor[0],
             blocks[static_cast<std::size_t>(neighbor[0])]);
  int send_from = even ? rank : recv_from[0];
  for (int i = 1; i < size / 2; ++i) {
    const int parity = i % 2;
    recv_from[parity] = (recv_from[parity] + offset[parity] + size) % size;
    c.sendrecv(neighbor[parity], blocks_from(blocks, send_from, 2), neighbor[parity],
               blocks_from(blocks, recv_from[parity], 2));
    send_from = recv_from[parity];
  }
}

}  // namespace

void run_allgather(Context& c, const AlgorithmChoice& a, const Blocks& blocks, const CollectiveSettings& settings) {
  const int size = c.size();
  if (size < 2) return;
  const std::string& n = a.algorithm;
  const bool equal = std::all_of(blocks.begin(), blocks.end(), [&](std::uint64_t b) { return b == blocks[0]; });
  const std::uint64_t total = std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0});
  if (n == "linear" || n == "default") {
    // allgather: the communicator's gather to 0 then its bcast of the whole;
    // allgatherv ("default"): its gatherv to 0 then the bcast.
    CollectiveCall gather = make_call(equal && n == "linear" ? CollectiveOp::gather : CollectiveOp::gatherv, 0);
    gather.bytes = c.bytes(blocks[0]);
    for (std::uint64_t b : blocks) gather.counts.push_back(c.bytes(b));
    gather.element_bytes = c.element_bytes();
    nested_collective(c, gather, settings);
    CollectiveCall bcast = make_call(CollectiveOp::bcast, c.bytes(total));
    bcast.element_bytes = c.element_bytes();
    nested_collective(c, bcast, settings);
    return;
  }
  if (n == "bruck") return allgather_bruck(c, blocks);
  if (n == "recursive_doubling") return allgather_recursive_doubling(c, blocks);
  if (n == "ring") return allgather_ring(c, blocks);
  if (n == "neighbor") return allgather_neighbor(c, blocks);
  if (n == "two_proc") {
    require_two_ranks(c, "allgather");
    const int remote = c.rank() ^ 1;
    return c.sendrecv(remote, blocks[static_cast<std::size_t>(c.rank())], remote,
                      blocks[static_cast<std::size_t>(remote)]);
  }
  throw Error("internal error: unknown allgather algorithm " + n);
}

}  // namespace contend::coll
