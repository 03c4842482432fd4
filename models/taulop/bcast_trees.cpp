#include "models/taulop/bcast_trees.hpp"

#include <algorithm>

namespace contend::taulop {
namespace {

BcastTree empty_tree(int procs) {
  BcastTree t;
  t.children.resize(static_cast<std::size_t>(std::max(procs, 0)));
  t.depth.assign(t.children.size(), 0);
  return t;
}

// Depths from the root down (children always have larger ranks than their parent here).
void fill_depths(BcastTree& t) {
  for (int v = 0; v < t.size(); ++v) {
    for (int child : t.children[static_cast<std::size_t>(v)]) {
      t.depth[static_cast<std::size_t>(child)] = t.depth[static_cast<std::size_t>(v)] + 1;
      t.height = std::max(t.height, t.depth[static_cast<std::size_t>(child)]);
    }
  }
}

}  // namespace

BcastTree binomial_tree(int procs) {
  BcastTree t = empty_tree(procs);
  for (int v = 0; v < procs; ++v) {
    long long mask = 1;
    while (mask <= v) mask <<= 1;
    for (; v + mask < procs; mask <<= 1) t.children[static_cast<std::size_t>(v)].push_back(static_cast<int>(v + mask));
  }
  fill_depths(t);
  return t;
}

BcastTree binary_tree(int procs) {
  BcastTree t = empty_tree(procs);
  long long level_start = 0, level_width = 1;  // ranks of level l: [start, start + 2^l)
  while (level_start < procs) {
    for (long long v = level_start; v < std::min<long long>(level_start + level_width, procs); ++v) {
      for (long long i = 1; i <= 2; ++i) {
        if (v + level_width * i < procs)
          t.children[static_cast<std::size_t>(v)].push_back(static_cast<int>(v + level_width * i));
      }
    }
    level_start += level_width;
    level_width *= 2;
  }
  fill_depths(t);
  return t;
}

BcastTree chain_tree(int procs, int fanout) {
  BcastTree t = empty_tree(procs);
  if (procs < 2) return t;
  const int others = procs - 1;
  // Open MPI's build_chain clamps the fanout to 1..32 (and to the non-roots).
  fanout = std::clamp(fanout, 1, std::min(others, 32));
  const int longer = others % fanout;  // chains one node longer than the rest
  int head = 1;
  for (int chain = 0; chain < fanout; ++chain) {
    const int length = others / fanout + (chain < longer ? 1 : 0);
    t.children[0].push_back(head);
    for (int v = head; v < head + length - 1; ++v) t.children[static_cast<std::size_t>(v)].push_back(v + 1);
    head += length;
  }
  fill_depths(t);
  return t;
}

}  // namespace contend::taulop
