#pragma once
// A min-heap whose nodes have as many children as fit in one cache line,
// and whose children of a node lie in one line: a pop of a heap of
// thousands costs one cache miss per level, at a quarter of a binary
// heap's depth with 16-byte entries (a binary heap of them, as
// std::priority_queue keeps, misses at nearly every level below the top
// ones). For flowcut's crowded pairs (shared_progress.hpp): a pair of a
// halo exchange holds thousands of flows and is popped at each of their
// ends, among thousands of pairs, so rarely in cache.
//
// T: trivially copyable, its size dividing 64 (16: four children a line).
// Less: a strict weak order; top() is its least element. Which of equal
// elements comes first depends on the heap's history: make the order total
// (ties broken by an id) where that matters.
#include <cassert>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <vector>

namespace contend {

template <class T, class Less = std::less<T>>
class CacheLineHeap {
 public:
  static constexpr std::size_t kLine = 64;
  static_assert(std::is_trivially_copyable_v<T> && kLine % sizeof(T) == 0 && sizeof(T) <= kLine / 2,
                "CacheLineHeap: two or more entries per cache line");
  static constexpr std::size_t kArity = kLine / sizeof(T);

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // The least element. Requires !empty().
  const T& top() const { return at(0); }

  void push(const T& value) {
    if (slot(size_) / kArity >= lines_.size()) lines_.emplace_back();
    sift_up(size_++, value);
  }
  // Removes the least element. Requires !empty().
  void pop() { erase_at(0); }
  // The position of the first element (in the heap's order of storage)
  // that satisfies `pred`, or size() if none. Linear: for small heaps.
  template <class Pred>
  std::size_t find_if(Pred pred) const {
    std::size_t i = 0;
    while (i < size_ && !pred(at(i))) ++i;
    return i;
  }
  const T& operator[](std::size_t i) const { return at(i); }
  void erase_at(std::size_t i) {
    assert(i < size_);
    const T moved = at(--size_);
    if (i == size_) return;
    if (i > 0 && less_(moved, at(parent(i)))) {
      sift_up(i, moved);
    } else {
      sift_down(i, moved);
    }
  }
  // Every element, in no particular order.
  template <class F>
  void for_each(F f) const {
    for (std::size_t i = 0; i < size_; ++i) f(at(i));
  }

 private:
  struct alignas(kLine) Line {
    T entries[kArity];
  };
  // Node i sits at slot i + kArity - 1, so that its children
  // (kArity i + 1 ... kArity i + kArity) fill the line of slot kArity (i + 1).
  static std::size_t slot(std::size_t i) { return i + kArity - 1; }
  static std::size_t parent(std::size_t i) { return (i - 1) / kArity; }
  T& at(std::size_t i) { return lines_[slot(i) / kArity].entries[slot(i) % kArity]; }
  const T& at(std::size_t i) const { return lines_[slot(i) / kArity].entries[slot(i) % kArity]; }

  // Both sifts carry the moving entry in hand and shift the others into its
  // hole: one write per level.
  void sift_up(std::size_t i, const T& moving) {
    while (i > 0 && less_(moving, at(parent(i)))) {
      at(i) = at(parent(i));
      i = parent(i);
    }
    at(i) = moving;
  }
  void sift_down(std::size_t i, const T& moving) {
    while (true) {
      const std::size_t first = kArity * i + 1;
      if (first >= size_) break;
      const std::size_t end = first + kArity < size_ ? first + kArity : size_;
      std::size_t child = first;
      for (std::size_t c = first + 1; c < end; ++c) {
        if (less_(at(c), at(child))) child = c;
      }
      if (!less_(at(child), moving)) break;
      at(i) = at(child);
      i = child;
    }
    at(i) = moving;
  }

  std::vector<Line> lines_;
  std::size_t size_ = 0;
  [[no_unique_address]] Less less_{};
};

}  // namespace contend
