// The sending side of the staircase (models/staircase/README.md, "The
// sending side", a departure from Thune et al.): the node pairs' factors
// x_AB (sending_side.hpp), solved once per instant, and the rates of the
// classes of the pairs whose factor changed.
#include <algorithm>
#include <limits>

#include "models/staircase/staircase_sharing.hpp"

namespace contend {

// The rate of an inter-node class whose receiving process gets
// `per_message` per message: Thune eqs. (5)/(7) and (9), times the fabric's
// phi, times the sending side's x of its node pair (exactly 1 when no
// sending node binds: the receiving side's value, bit for bit).
double StaircaseSharing::inter_rate(const Class& c, double per_message) const {
  return per_message * c.factor * c.send_factor;
}

// `sender` sends `delta` more inter-node messages: when it starts or stops
// sending, its node's number n_s of senders, hence BW_MP(n_s), changes.
void StaircaseSharing::count_sent(int sender, int delta) {
  auto& s = processes_[static_cast<std::size_t>(sender)];
  const bool was_sending = s.sending > 0;
  s.sending += delta;
  if (was_sending == (s.sending > 0)) return;
  auto& n = senders_of_node_[static_cast<std::size_t>(s.node)];
  n += s.sending > 0 ? 1 : -1;
  sending_->set_capacity(s.node, n > 0 ? platform_.level(Level::InterNode).bandwidth.aggregate(n) : 0);
  mark_pairs_stale(clock_);
}

void StaircaseSharing::mark_pairs_stale(double t) {
  pairs_stale_ = true;
  stale_since_ = t;
}

// The node pairs' x anew; the classes of the pairs whose x changed move at
// their new rate.
void StaircaseSharing::refresh_senders(double t) {
  pairs_stale_ = false;
  std::vector<std::pair<int, int>> changed;
  sending_->solve(changed);
  for (const auto& [src, dst] : changed) apply_factor(src, dst, t);
}

// Inter-node class `id` now completes at its done_at instead of `before`:
// its process's entry in the node group's heap (the earliest of its
// classes) follows at once, or, when the earliest class got later, the
// process is listed in `rescan` (reschedule() scans its classes).
void StaircaseSharing::follow(int id, double before, std::vector<int>& rescan) {
  const auto& c = classes_[static_cast<std::size_t>(id)];
  auto& g = groups_[static_cast<std::size_t>(group_of(processes_[static_cast<std::size_t>(c.process)], kNode))];
  if (!g.completions.contains(c.process)) {
    if (c.done_at < std::numeric_limits<double>::infinity()) g.completions.set(c.process, c.done_at);
    return;
  }
  const double current = g.completions.time_of(c.process);
  if (c.done_at < current) {
    g.completions.set(c.process, c.done_at);
  } else if (before == current && c.done_at != before) {
    rescan.push_back(c.process);
  }
}

void StaircaseSharing::flush() {
  if (!stale_receivers_.empty()) refresh_receivers(stale_since_);
  if (pairs_stale_) refresh_senders(stale_since_);
}

}  // namespace contend
