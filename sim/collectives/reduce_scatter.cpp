// MPI_Reduce_scatter: coll_base_reduce_scatter.c of Open MPI 4.1,
// rewritten. `blocks[i]`: elements of local rank i's result (recvcounts).
#include <numeric>

#include "sim/collectives/context.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {
namespace {

using Counts = std::vector<std::uint64_t>;

std::uint64_t at(const Counts& v, int i) { return v[static_cast<std::size_t>(i)]; }

// Non-overlapping: the communicator's reduce of everything to 0, then its
// scatterv of the blocks from 0.
void reduce_scatter_nonoverlapping(const Context& c, const Counts& blocks, bool commutative,
                                   const CollectiveSettings& settings) {
  const std::uint64_t total = std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0});
  CollectiveCall reduce = make_call(CollectiveOp::reduce, c.bytes(total));
  reduce.element_bytes = c.element_bytes();
  reduce.commutative = commutative;
  nested_collective(c, reduce, settings);
  CollectiveCall scatterv = make_call(CollectiveOp::scatterv, 0);
  for (std::uint64_t b : blocks) scatterv.counts.push_back(c.bytes(b));
  scatterv.element_bytes = c.element_bytes();
  nested_collective(c, scatterv, settings);
}

// Recursive halving (coll/basic's algorithm): the first 2r ranks fold
// (even ones hand everything to rank+1), the p' others halve the vector,
// then the odd folded ranks send the even ones their blocks.
void reduce_scatter_recursive_halving(Context& c, const Counts& blocks) {
  const int size = c.size(), rank = c.rank();
  const std::uint64_t count = std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0});
  if (count == 0) return;
  const int pof2 = largest_power_of_two_at_most(size);
  const int remain = size - pof2;
  const int tmp_rank = fold_even_into_odd(c, remain, count);
  if (tmp_rank >= 0) {
    std::vector<std::uint64_t> tmp_counts(static_cast<std::size_t>(pof2));
    for (int i = 0; i < pof2; ++i) {
      tmp_counts[static_cast<std::size_t>(i)] =
          i < remain ? at(blocks, 2 * i) + at(blocks, 2 * i + 1) : at(blocks, i + remain);
    }
    auto sum = [&](int from, int to) {
      std::uint64_t n = 0;
      for (int i = from; i < to; ++i) n += tmp_counts[static_cast<std::size_t>(i)];
      return n;
    };
    int send_index = 0, recv_index = 0, last_index = pof2;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
      const int tmp_peer = tmp_rank ^ mask;
      const int peer = tmp_peer < remain ? tmp_peer * 2 + 1 : tmp_peer + remain;
      std::uint64_t send_count, recv_count;
      if (tmp_rank < tmp_peer) {
        send_index = recv_index + mask;
        send_count = sum(send_index, last_index);
        recv_count = sum(recv_index, send_index);
      } else {
        recv_index = send_index + mask;
        send_count = sum(send_index, recv_index);
        recv_count = sum(recv_index, last_index);
      }
      std::optional<RequestId> incoming;
      if (recv_count > 0) incoming = c.irecv(peer, recv_count);
      if (send_count > 0) c.send(peer, send_count);
      if (incoming) {
        c.wait(*incoming);
        c.reduce_compute(recv_count);
      }
      send_index = recv_index;
      last_index = recv_index + mask;
    }
  }
  if (rank < 2 * remain) {
    if (rank % 2 == 0) {
      if (at(blocks, rank) > 0) c.recv(rank + 1, at(blocks, rank));
    } else if (at(blocks, rank - 1) > 0) {
      c.send(rank - 1, at(blocks, rank - 1));
    }
  }
}

// Ring: block (r-1) travels right, each rank adding its contribution, so
// that after size-1 steps rank r holds its reduced block r.
void reduce_scatter_ring(Context& c, const Counts& blocks) {
  const int size = c.size(), rank = c.rank();
  const std::uint64_t max_block = *std::max_element(blocks.begin(), blocks.end());
  reduce_scatter_ring_steps(c, (rank + size - 1) % size, max_block, [&](int b) { return at(blocks, b); });
}

int mirror(int x, int bits) {
  int y = 0;
  for (int i = 0; i < bits; ++i, x >>= 1) y = (y << 1) | (x & 1);
  return y;
}

// Butterfly (Träff's recursive halving with mirrored block order).
void reduce_scatter_butterfly(Context& c, const Counts& blocks) {
  const int size = c.size(), rank = c.rank();
  const std::uint64_t total = std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0});
  const int pof2 = largest_power_of_two_at_most(size);
  const int rem = size - pof2;
  int log2 = 0;
  while ((1 << log2) < pof2) ++log2;
  auto real = [&](int v) { return v < rem ? v * 2 + 1 : v + rem; };
  // Elements of the real ranks covering virtual blocks lo..hi.
  auto sum_counts = [&](int lo, int hi) {
    const int a = lo < rem ? lo * 2 : lo + rem;
    const int b = hi < rem ? hi * 2 + 1 : hi + rem;
    std::uint64_t n = 0;
    for (int i = a; i <= b; ++i) n += at(blocks, i);
    return n;
  };
  const int vrank = fold_even_into_odd(c, rem, total);
  if (vrank != -1) {
    int nblocks = pof2, send_index = 0, recv_index = 0;
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int peer = real(vrank ^ mask);
      nblocks /= 2;
      if ((vrank & mask) == 0) {
        send_index += nblocks;
      } else {
        recv_index += nblocks;
      }
      const std::uint64_t send_count = sum_counts(send_index, send_index + nblocks - 1);
      const std::uint64_t recv_count = sum_counts(recv_index, recv_index + nblocks - 1);
      c.sendrecv(peer, send_count, peer, recv_count);
      c.reduce_compute(recv_count);
      send_index = recv_index;
    }
    const int vpeer = mirror(vrank, log2);
    const int peer = real(vpeer);
    int index = send_index < rem ? 2 * send_index : rem + send_index;
    if (vpeer < rem) {
      c.send(peer - 1, at(blocks, index));
      ++index;
    }
    if (vpeer != vrank) c.sendrecv(peer, at(blocks, index), peer, at(blocks, rank));
  } else {
    const int vpeer = mirror((rank + 1) / 2, log2);
    c.recv(real(vpeer), at(blocks, rank));
  }
}

}  // namespace

void reduce_scatter_ring_steps(Context& c, int first, std::uint64_t max_block,
                               const std::function<std::uint64_t(int)>& elements) {
  const int size = c.size(), rank = c.rank();
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  auto steps_back = [&](int k) { return elements(((first - k) % size + size) % size); };
  RequestId in[2];
  int slot = 0;
  in[slot] = c.irecv(left, max_block);
  c.send(right, steps_back(0));
  for (int k = 1; k < size - 1; ++k) {
    slot ^= 1;
    in[slot] = c.irecv(left, max_block);
    c.wait(in[slot ^ 1]);
    c.reduce_compute(steps_back(k));
    c.send(right, steps_back(k));
  }
  c.wait(in[slot]);
  c.reduce_compute(steps_back(size - 1));
}

void run_reduce_scatter(Context& c, const AlgorithmChoice& a, const Counts& blocks, bool commutative,
                        const CollectiveSettings& settings) {
  if (c.size() < 2) return;
  const std::string& n = a.algorithm;
  if (n == "non_overlapping") return reduce_scatter_nonoverlapping(c, blocks, commutative, settings);
  if (n == "recursive_halving") return reduce_scatter_recursive_halving(c, blocks);
  if (n == "ring") return reduce_scatter_ring(c, blocks);
  if (n == "butterfly") return reduce_scatter_butterfly(c, blocks);
  throw Error("internal error: unknown reduce_scatter algorithm " + n);
}

}  // namespace contend::coll
