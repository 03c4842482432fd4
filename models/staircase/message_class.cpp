#include "models/staircase/message_class.hpp"

#include <algorithm>
#include <functional>

namespace contend {

void MessageClass::add(TransferId id, double bytes) {
  if (heap_.empty()) {
    // Restart the counter: keeps its magnitude (and rounding) that of one
    // busy period, not of the whole run.
    served_ = 0;
    threshold_sum_ = 0;
  }
  heap_.push_back(Entry{served_ + bytes, id});
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>{});
  threshold_sum_ += served_ + bytes;
  next_threshold_ = heap_.front().threshold;
}

void MessageClass::clear() {
  heap_.clear();
  served_ = 0;
  threshold_sum_ = 0;
  next_threshold_ = 0;
}

double MessageClass::remaining_volume() const {
  return std::max(0.0, threshold_sum_ - served_ * static_cast<double>(heap_.size()));
}

void MessageClass::pop_completed(double tolerance, bool force, std::vector<TransferId>& out) {
  while (!heap_.empty() && (force || next_threshold_ - served_ <= tolerance)) {
    threshold_sum_ -= next_threshold_;
    out.push_back(heap_.front().id);
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
    heap_.pop_back();
    force = false;
    if (!heap_.empty()) next_threshold_ = heap_.front().threshold;
  }
  if (heap_.empty()) threshold_sum_ = 0;
}

}  // namespace contend
