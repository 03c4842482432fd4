#include "sim/collectives/topology.hpp"

#include <algorithm>

namespace contend::coll {
namespace {

int unshift(int v, int root, int size) { return (v + root) % size; }
int shift(int rank, int root, int size) { return (rank - root + size) % size; }

long ipow(int base, int exponent) {
  long p = 1;
  for (int i = 0; i < exponent; ++i) p *= base;
  return p;
}

// Level of shifted rank v in a level-ordered tree of `fanout`.
int level_of(int fanout, int v) {
  int level = 0;
  long nodes = 0;
  for (; nodes <= v; ++level) nodes += ipow(fanout, level);
  return level - 1;
}

}  // namespace

TreeNode build_tree(int fanout, int size, int root, int rank) {
  TreeNode node;
  node.root = root;
  if (size < 2) return node;
  const int v = shift(rank, root, size);
  const int level = level_of(fanout, v);
  const long delta = ipow(fanout, level);
  for (int i = 0; i < fanout; ++i) {
    const long child = v + delta * (i + 1);
    if (child >= size) break;
    node.children.push_back(unshift(static_cast<int>(child), root, size));
  }
  if (v == 0) return node;
  // Nodes on the levels above mine: (fanout^level - 1) / (fanout - 1).
  const long above = fanout == 1 ? level : (ipow(fanout, level) - 1) / (fanout - 1);
  long parent = v;
  if (parent < fanout) {
    parent = 0;
  } else {
    while (parent >= above) parent -= delta / fanout;
  }
  node.parent = unshift(static_cast<int>(parent), root, size);
  return node;
}

TreeNode build_in_order_bintree(int size, int rank) {
  TreeNode node;
  node.root = size - 1;
  int my = rank, sub = size, parent = size - 1, delta = 0;
  while (true) {
    const int right_size = sub >> 1;
    int left = -1, right = -1;
    if (sub - 1 > 0) {
      left = parent - 1;
      if (left > 0) right = right_size - 1;
    }
    if (my == parent) {
      if (left >= 0) node.children.push_back(left + delta);
      if (right >= 0) node.children.push_back(right + delta);
      break;
    }
    if (my > right) {  // left subtree
      if (my == left) node.parent = parent + delta;
      sub = sub - right_size - 1;
      delta += right_size;
      my -= right_size;
      parent = sub - 1;
    } else {  // right subtree
      if (my == right) node.parent = parent + delta;
      sub = right_size;
      parent = right;
    }
  }
  return node;
}

TreeNode build_bmtree(int size, int root, int rank) {
  TreeNode node;
  node.root = root;
  const int v = shift(rank, root, size);
  int mask = 1;
  while (mask <= v) mask <<= 1;  // smallest power of two > v (1 for v = 0)
  if (v != 0) node.parent = unshift(v ^ (mask >> 1), root, size);
  for (; mask < size; mask <<= 1) {
    const int child = v ^ mask;
    if (child >= size) break;
    node.children.push_back(unshift(child, root, size));
  }
  return node;
}

TreeNode build_in_order_bmtree(int size, int root, int rank) {
  TreeNode node;
  node.root = root;
  const int v = shift(rank, root, size);
  for (int mask = 1; mask < size; mask <<= 1) {
    const int remote = v ^ mask;
    if (remote < v) {
      node.parent = unshift(remote, root, size);
      break;
    }
    if (remote < size) node.children.push_back(unshift(remote, root, size));
  }
  return node;
}

TreeNode build_kmtree(int size, int root, int rank, int radix) {
  TreeNode node;
  node.root = root;
  const int v = shift(rank, root, size);
  long mask = 1;
  for (; mask < size; mask *= radix) {
    if (v % (radix * mask) != 0) {
      node.parent = unshift(static_cast<int>(v / (radix * mask) * (radix * mask)), root, size);
      break;
    }
  }
  for (mask /= radix; mask > 0; mask /= radix) {
    for (int r = 1; r < radix; ++r) {
      const long child = v + mask * r;
      if (child < size) node.children.push_back(unshift(static_cast<int>(child), root, size));
    }
  }
  return node;
}

TreeNode build_chain(int fanout, int size, int root, int rank) {
  TreeNode node;
  node.root = root;
  fanout = std::clamp(fanout, 1, kMaxTreeFanout);
  if (size < 2) return node;
  fanout = std::min(fanout, size - 1);
  const int v = shift(rank, root, size);
  int max_len = (size - 1) / fanout;
  int longer = fanout;  // chains 0..longer-1 have max_len nodes, the others max_len - 1
  if ((size - 1) % fanout != 0) {
    ++max_len;
    longer = (size - 1) % fanout;
  }
  if (v == 0) {
    int head = 1;
    for (int c = 0; c < fanout; ++c) {
      node.children.push_back(unshift(head, root, size));
      head += c < longer ? max_len : max_len - 1;
    }
    return node;
  }
  int head, len;
  if (v - 1 < longer * max_len) {
    head = 1 + (v - 1) / max_len * max_len;
    len = max_len;
  } else {
    const int column = longer + (v - 1 - longer * max_len) / (max_len - 1);
    head = longer * max_len + 1 + (column - longer) * (max_len - 1);
    len = max_len - 1;
  }
  node.parent = unshift(v == head ? 0 : v - 1, root, size);
  if (v != head + len - 1 && v + 1 < size) node.children.push_back(unshift(v + 1, root, size));
  return node;
}

}  // namespace contend::coll
