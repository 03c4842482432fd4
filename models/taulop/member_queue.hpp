#pragma once
// A pool's members by the counter value at which they end: a min-priority
// queue that pops in exactly the order of a binary heap on the same total
// order, cheaper on the way a pool fills. A halo exchange puts thousands of
// transfers in a node's memory pool at one instant and then pops them one
// by one: a heap of that size misses the cache at every level of every pop.
// Here members pushed since the last pop wait unsorted (their minimum kept
// aside, so top() stays O(1)); the next pop sorts a large batch into a
// sorted run (popped from its back: sequential, in cache) and puts a small
// one (a transfer trickling in between pops) in a heap, which stays small.
// The smallest of the run's back, the heap's top and the batch's minimum is
// the top.
#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

#include "sim/engine/queue_contents.hpp"

namespace contend::taulop {

template <class Member>  // totally ordered by operator> (no two members equal)
class MemberQueue {
 public:
  bool empty() const { return size() == 0; }
  std::size_t size() const { return run_.size() + heap_.size() + batch_.size(); }

  void push(const Member& member) {
    if (batch_.empty() || batch_min_ > member) batch_min_ = member;
    batch_.push_back(member);
  }

  const Member& top() const {
    const Member* best = batch_.empty() ? nullptr : &batch_min_;
    if (!run_.empty() && (best == nullptr || *best > run_.back())) best = &run_.back();
    if (!heap_.empty() && (best == nullptr || *best > heap_.top())) best = &heap_.top();
    return *best;
  }

  void pop() {
    file_batch();
    if (heap_.empty() || (!run_.empty() && heap_.top() > run_.back())) {
      run_.pop_back();
    } else {
      heap_.pop();
    }
  }

  // Every member, in no particular order (for reports).
  template <class F>
  void for_each(F f) const {
    for (const Member& m : run_) f(m);
    for (const Member& m : queue_contents(heap_)) f(m);
    for (const Member& m : batch_) f(m);
  }

 private:
  // A batch at least an eighth of the run joins it by a merge (linear, so
  // O(8) per member amortized); a smaller one goes to the heap.
  void file_batch() {
    if (batch_.empty()) return;
    if (batch_.size() * 8 >= run_.size()) {
      std::sort(batch_.begin(), batch_.end(), std::greater<>{});  // descending: the smallest at the back
      if (run_.empty()) {
        run_.swap(batch_);
      } else {
        merged_.resize(run_.size() + batch_.size());
        std::merge(run_.begin(), run_.end(), batch_.begin(), batch_.end(), merged_.begin(), std::greater<>{});
        run_.swap(merged_);
      }
    } else {
      for (const Member& m : batch_) heap_.push(m);
    }
    batch_.clear();
  }

  std::vector<Member> run_;  // sorted, descending
  std::priority_queue<Member, std::vector<Member>, std::greater<>> heap_;
  std::vector<Member> batch_;  // pushed since the last pop, unsorted
  Member batch_min_{};
  std::vector<Member> merged_;  // scratch for merges
};

}  // namespace contend::taulop
