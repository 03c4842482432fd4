// The sending side of the staircase (models/staircase/README.md, "The
// sending side", a departure from Thune et al.): an inter-node message moves
// at most at its sender's share of the sending node, and the rates of the
// classes a sender feeds follow its changes once per instant.
#include <algorithm>
#include <limits>

#include "models/staircase/staircase_sharing.hpp"

namespace contend {

// The rate of an inter-node class whose receiving process gets
// `per_message` per message: Thune eqs. (5)/(7) and (9), times the fabric's
// phi, and with the sender side at most the sender's share of its node,
// BW_MP(n_s)/n_s split over its m_s inter-node messages (computed as the
// receiving side's, so that a symmetric exchange gives the same bits; a tie
// keeps the receiving side's).
double StaircaseSharing::inter_rate(const Class& c, double per_message) const {
  const double rate = per_message * c.factor;
  if (c.source_process < 0) return rate;
  const auto& sender = processes_[static_cast<std::size_t>(c.source_process)];
  const double cap = sender_share_[static_cast<std::size_t>(sender.node)] / sender.sending;
  return cap < rate ? cap : rate;
}

// `sender` sends `delta` more inter-node messages. Its node's share per
// sender changes when it starts or stops sending (n_s), listed in `nodes`;
// otherwise only its own messages' caps, listed in `senders`.
void StaircaseSharing::count_sent(int sender, int delta, std::vector<int>& nodes, std::vector<int>& senders) {
  stale_since_ = clock_;
  auto& s = processes_[static_cast<std::size_t>(sender)];
  const bool was_sending = s.sending > 0;
  s.sending += delta;
  if (was_sending == (s.sending > 0)) {
    senders.push_back(sender);
    return;
  }
  auto& list = senders_of_node_[static_cast<std::size_t>(s.node)];
  if (s.sending > 0) {
    list.push_back(sender);
  } else {
    list.erase(std::find(list.begin(), list.end(), sender));
  }
  // BW_MP(n_s)/n_s, read by every class of the node's senders.
  const double n = static_cast<double>(list.size());
  sender_share_[static_cast<std::size_t>(s.node)] =
      n > 0 ? platform_.level(Level::InterNode).bandwidth.aggregate(n) / n : 0;
  nodes.push_back(s.node);
}

// New rates, at t, for every class sent by a stale sender or by a sender
// of a stale node; a class whose rate is unchanged (its receiving side
// bounds it) is left as it is.
void StaircaseSharing::refresh_senders(double t) {
  std::vector<int> all = stale_senders_;
  for (int node : stale_nodes_) {
    const auto& list = senders_of_node_[static_cast<std::size_t>(node)];
    all.insert(all.end(), list.begin(), list.end());
  }
  stale_senders_.clear();
  stale_nodes_.clear();
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<int> rescan;
  std::vector<char> dirty(groups_.size(), 0);
  for (int sender : all) {
    for (int id : processes_[static_cast<std::size_t>(sender)].sent) {
      auto& c = classes_[static_cast<std::size_t>(id)];
      const auto& p = processes_[static_cast<std::size_t>(c.process)];
      if (!p.member[kNode]) continue;
      const int group = group_of(p, kNode);
      const double rate = inter_rate(c, share(groups_[static_cast<std::size_t>(group)]) / p.inter_count);
      if (rate == c.rate) continue;
      settle(c, t);
      c.rate = rate;
      const double before = c.done_at;
      schedule(c, t);
      report(id, t);
      follow(id, before, rescan);
      dirty[static_cast<std::size_t>(group)] = 1;
    }
  }
  std::sort(rescan.begin(), rescan.end());
  rescan.erase(std::unique(rescan.begin(), rescan.end()), rescan.end());
  for (int process : rescan) reschedule(process, kNode);
  for (std::size_t g = 0; g < dirty.size(); ++g) {
    if (dirty[g]) publish(static_cast<int>(g));
  }
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
  if (!stale_nodes_.empty() || !stale_senders_.empty()) refresh_senders(stale_since_);
}

}  // namespace contend
