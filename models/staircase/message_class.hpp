#pragma once
// Messages of one receiving process that share its bandwidth equally: every
// active message receives the same amount per unit of time, so they
// complete in order of size (Thune et al., eq. (9)). Instead of updating
// each message, the class keeps one counter `served` (bytes each active
// message has received since the class began) and, per message, the value
// of `served` at which it completes (served at its start + its size): an
// event touches the class in O(log m), whatever its number m of messages.
#include <cstdint>
#include <vector>

#include "sim/engine/transfer.hpp"

namespace contend {

class MessageClass {
 public:
  bool empty() const { return heap_.empty(); }
  // Empties the class and restarts its counter, keeping its storage: a
  // class is reused for the receiver's next messages without a new
  // allocation.
  void clear();
  int count() const { return static_cast<int>(heap_.size()); }

  // Calls f(id) for each active message (for --step).
  template <class F>
  void for_each_message(F f) const {
    for (const auto& e : heap_) f(e.id);
  }

  // Each active message received `bytes` more.
  void serve(double bytes) { served_ += bytes; }
  void add(TransferId id, double bytes);
  // Bytes the smallest message still needs.
  double smallest_gap() const { return next_threshold_ - served_; }
  // Bytes all active messages still need together.
  double remaining_volume() const;
  // Removes the messages whose remaining bytes are at most `tolerance`
  // (and, if `force`, the smallest one whatever its gap), appending them.
  void pop_completed(double tolerance, bool force, std::vector<TransferId>& out);

 private:
  struct Entry {
    double threshold;  // value of served_ at which the message completes
    TransferId id;
    bool operator>(const Entry& o) const { return threshold > o.threshold || (threshold == o.threshold && id > o.id); }
  };
  double served_ = 0;
  double threshold_sum_ = 0;
  // heap_.front().threshold, kept beside the counter: a process's event reads
  // the gap of each of its classes, and this spares one pointer chase each.
  double next_threshold_ = 0;
  // A binary min-heap (std::push_heap / std::pop_heap with std::greater,
  // the order std::priority_queue kept), whose storage clear() keeps.
  std::vector<Entry> heap_;
};

}  // namespace contend
