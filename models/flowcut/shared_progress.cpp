#include "models/flowcut/shared_progress.hpp"

#include <algorithm>
#include <cassert>

namespace contend {

void SharedProgress::set_rate(double now, double rate) {
  // An empty pair starts its clock again: the smaller its values, the
  // fewer bits a flow's end loses to them.
  work_ = empty() ? 0.0 : work_at(now);
  since_ = now;
  rate_ = rate;
}

void SharedProgress::join(FlowId id, double remaining, double now) {
  assert(rate_ > 0);
  if (empty()) {
    work_ = 0;
    since_ = now;
  }
  members_.push(Member::make(work_at(now) + static_cast<Work>(remaining), id));
}

double SharedProgress::first_end() const {
  return since_ + std::max(0.0, static_cast<double>(members_.top().end() - work_)) / rate_;
}

void SharedProgress::pop_first() { members_.pop(); }

double SharedProgress::leave(FlowId id, double now) {
  const std::size_t i = members_.find_if([id](const Member& m) { return m.id == id; });
  assert(i < members_.size());
  const double remaining = std::max(0.0, static_cast<double>(members_[i].end() - work_at(now)));
  members_.erase_at(i);
  return remaining;
}

}  // namespace contend
