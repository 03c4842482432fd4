#include "models/staircase/message_class.hpp"

#include <algorithm>

namespace contend {

void MessageClass::add(TransferId id, double bytes) {
  if (heap_.empty()) {
    // Restart the counter: keeps its magnitude (and rounding) that of one
    // busy period, not of the whole run.
    served_ = 0;
    threshold_sum_ = 0;
  }
  heap_.push(Entry{served_ + bytes, id});
  threshold_sum_ += served_ + bytes;
  next_threshold_ = heap_.top().threshold;
}

double MessageClass::remaining_volume() const {
  return std::max(0.0, threshold_sum_ - served_ * static_cast<double>(heap_.size()));
}

void MessageClass::pop_completed(double tolerance, bool force, std::vector<TransferId>& out) {
  while (!heap_.empty() && (force || next_threshold_ - served_ <= tolerance)) {
    threshold_sum_ -= next_threshold_;
    out.push_back(heap_.top().id);
    heap_.pop();
    force = false;
    if (!heap_.empty()) next_threshold_ = heap_.top().threshold;
  }
  if (heap_.empty()) threshold_sum_ = 0;
}

}  // namespace contend
