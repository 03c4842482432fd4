#include "models/flowcut/shared_progress.hpp"

#include <algorithm>
#include <cassert>

namespace contend {

void SharedProgress::set_rate(double now, double rate) {
  // An empty pair starts its clock again: the smaller its values, the
  // fewer bits a flow's end loses to them.
  work_ = members_.empty() ? 0.0 : work_at(now);
  since_ = now;
  rate_ = rate;
}

void SharedProgress::join(FlowId id, double remaining, double now) {
  assert(rate_ > 0);
  if (members_.empty()) {
    work_ = 0;
    since_ = now;
  }
  members_.push_back({work_at(now) + static_cast<Work>(remaining), id});
  std::push_heap(members_.begin(), members_.end(), Later{});
}

double SharedProgress::first_end() const {
  return since_ + std::max(0.0, static_cast<double>(members_.front().end - work_)) / rate_;
}

void SharedProgress::pop_first() {
  std::pop_heap(members_.begin(), members_.end(), Later{});
  members_.pop_back();
}

double SharedProgress::leave(FlowId id, double now) {
  const auto it = std::find_if(members_.begin(), members_.end(), [id](const Member& m) { return m.id == id; });
  assert(it != members_.end());
  const double remaining = std::max(0.0, static_cast<double>(it->end - work_at(now)));
  members_.erase(it);
  std::make_heap(members_.begin(), members_.end(), Later{});
  return remaining;
}

}  // namespace contend
