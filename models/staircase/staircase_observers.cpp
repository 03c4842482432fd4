// What the staircase tells its observers: the cause of each class's rate
// (attribution, --explain) and each group's number of members (timeline
// counter tracks).
#include "models/staircase/staircase_sharing.hpp"

namespace contend {

void StaircaseSharing::report(int c, double t) {
  if (!observer_ || c < 0) return;
  const auto& k = classes_[static_cast<std::size_t>(c)];
  const auto& ids = members_[static_cast<std::size_t>(c)];
  if (ids.empty()) return;
  const auto& p = processes_[static_cast<std::size_t>(k.process)];
  RateCause cause;
  cause.node = p.node;
  cause.receiver = k.process;
  if (k.source_node >= 0 || (p.on != c && p.off != c)) {
    const auto& g = groups_[static_cast<std::size_t>(group_of(p, kNode))];
    cause.node_level = true;
    cause.members = static_cast<int>(g.members.size());
    cause.messages = p.inter_count;
    cause.aggregate = share(g) * cause.members;
    cause.factor = k.factor;
    cause.source_node = k.source_node;
    cause.waiting = !p.member[kNode];
    if (sending_ && k.source_node >= 0) {
      cause.senders = senders_of_node_[static_cast<std::size_t>(k.source_node)];
      cause.send_factor = k.send_factor;
      cause.sender_limited = p.member[kNode] && sending_->sender_bound(k.source_node, p.node);
    }
  } else {
    const auto& g = groups_[static_cast<std::size_t>(group_of(p, kSocket))];
    const double n = static_cast<double>(g.members.size());
    cause.socket = p.socket_group % platform_.nodes.sockets;
    cause.members = static_cast<int>(g.members.size());
    cause.messages = k.messages.count();
    cause.intra_socket = p.on == c;
    const double v_on = p.on >= 0 ? classes_[static_cast<std::size_t>(p.on)].messages.remaining_volume() : 0;
    const double v_off = p.off >= 0 ? classes_[static_cast<std::size_t>(p.off)].messages.remaining_volume() : 0;
    cause.theta = p.off < 0 ? 1 : p.on < 0 ? 0 : (v_on + v_off > 0 ? v_on / (v_on + v_off) : 0.5);
    if (n > 0) {
      cause.aggregate = cause.theta * platform_.level(Level::IntraSocket).bandwidth.aggregate(n) +
                        (1 - cause.theta) * platform_.level(Level::InterSocket).bandwidth.aggregate(n);
    }
    cause.waiting = !p.member[kSocket];
  }
  observer_(ids, t, k.rate, cause);
}

void StaircaseSharing::report_members(int group) const {
  if (!group_observer_) return;
  const auto& g = groups_[static_cast<std::size_t>(group)];
  const GroupName name{g.kind == kNode, g.node, g.kind == kNode ? -1 : group % platform_.nodes.sockets};
  group_observer_(group, name, clock_, static_cast<int>(g.members.size()));
}

}  // namespace contend
