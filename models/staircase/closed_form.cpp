#include "models/staircase/closed_form.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend {

const std::vector<std::string>& closed_form_names() {
  static const std::vector<std::string> names = {"staircase", "max-rate", "extended-max-rate"};
  return names;
}

ClosedForm closed_form_by_name(std::string_view name) {
  if (name == "staircase") return ClosedForm::Staircase;
  if (name == "max-rate") return ClosedForm::MaxRate;
  if (name == "extended-max-rate") return ClosedForm::ExtendedMaxRate;
  throw Error("analyze: unknown model '" + std::string(name) + "'" + did_you_mean(name, closed_form_names()) +
              "; valid models: " + join(closed_form_names()));
}

std::vector<double> staircase_receive_times(const std::vector<double>& volumes,
                                            const std::function<double(double)>& aggregate_bandwidth) {
  std::vector<std::size_t> order(volumes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return volumes[a] < volumes[b]; });
  std::vector<double> t(volumes.size(), 0.0);
  const auto n = static_cast<double>(volumes.size());
  double clock = 0, previous = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    // Thune eq. (7): t_i = t_{i-1} + (N - i)(V_i - V_{i-1}) / BW_MP(N - i).
    const double remaining = n - static_cast<double>(i);
    clock += remaining * (volumes[order[i]] - previous) / aggregate_bandwidth(remaining);
    previous = volumes[order[i]];
    t[order[i]] = clock;
  }
  return t;
}

std::vector<double> staircase_message_times(const std::vector<double>& sizes, double receive_time) {
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] < sizes[b]; });
  const double volume = std::accumulate(sizes.begin(), sizes.end(), 0.0);
  std::vector<double> t(sizes.size(), 0.0);
  if (volume <= 0) return t;
  const auto m = static_cast<double>(sizes.size());
  double clock = 0, previous = 0;
  for (std::size_t j = 0; j < order.size(); ++j) {
    // Thune eq. (9): t_{i,j} = t_{i,j-1} + (M - j)(s_j - s_{j-1}) / V_i * t_i.
    clock += (m - static_cast<double>(j)) * (sizes[order[j]] - previous) / volume * receive_time;
    previous = sizes[order[j]];
    t[order[j]] = clock;
  }
  return t;
}

std::vector<double> mixed_receive_times(const std::vector<double>& on, const std::vector<double>& off,
                                        const BandwidthTable& bw_on, const BandwidthTable& bw_off) {
  const std::size_t n = on.size();
  std::vector<double> theta(n), got_on(n, 0.0), got_off(n, 0.0), t(n, 0.0);
  std::vector<bool> done(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = on[i] + off[i];
    theta[i] = v > 0 ? on[i] / v : 1.0;  // eq. (12)
  }
  // Eq. (12): BW_mix(n, theta) = theta/n BW_on(n) + (1 - theta)/n BW_off(n).
  auto mix = [&](double active, double th) {
    return th / active * bw_on.aggregate(active) + (1 - th) / active * bw_off.aggregate(active);
  };
  double clock = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double active = static_cast<double>(n - k);
    // Eq. (13): the next process to finish.
    std::size_t q = n;
    double step = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (done[i]) continue;
      const double left = on[i] - got_on[i] + off[i] - got_off[i];
      const double s = left / mix(active, theta[i]);
      if (q == n || s < step) {
        q = i;
        step = s;
      }
    }
    clock += step;  // eq. (14)
    t[q] = clock;
    done[q] = true;
    for (std::size_t i = 0; i < n; ++i) {
      if (done[i] && i != q) continue;
      got_on[i] += step * theta[i] * mix(active, theta[i]);         // eq. (16)
      got_off[i] += step * (1 - theta[i]) * mix(active, theta[i]);  // eq. (17)
    }
  }
  return t;
}

namespace {

struct Incoming {
  std::vector<std::size_t> messages;  // indices into the pattern
  double volume = 0;
};

// Per level, the incoming messages of each rank and the group each rank
// belongs to for that level (socket for intra/inter-socket, node for inter-node).
struct LevelView {
  std::vector<Incoming> incoming;          // by rank
  std::map<int, std::vector<int>> groups;  // group -> ranks with incoming data
};

LevelView view_level(const Platform& platform, const Mapping& mapping, const std::vector<PatternMessage>& messages,
                     Level level) {
  LevelView v;
  v.incoming.resize(static_cast<std::size_t>(mapping.rank_count()));
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto& m = messages[i];
    if (mapping.level(m.src, m.dst) != level) continue;
    auto& in = v.incoming[static_cast<std::size_t>(m.dst)];
    in.messages.push_back(i);
    in.volume += static_cast<double>(m.bytes);
  }
  for (int r = 0; r < mapping.rank_count(); ++r) {
    if (v.incoming[static_cast<std::size_t>(r)].messages.empty()) continue;
    const auto& p = mapping[r];
    const int group = level == Level::InterNode ? p.node : p.node * platform.nodes.sockets + p.socket;
    v.groups[group].push_back(r);
  }
  return v;
}

// Per message: when the receiver has it (eq. (9)), for t_send of eq. (8).
void message_times(const std::vector<PatternMessage>& messages, const std::vector<Incoming>& incoming,
                   const std::vector<double>& receive_time, std::vector<double>& out) {
  for (std::size_t r = 0; r < incoming.size(); ++r) {
    const auto& in = incoming[r];
    if (in.messages.empty()) continue;
    std::vector<double> sizes;
    for (auto i : in.messages) sizes.push_back(static_cast<double>(messages[i].bytes));
    const auto t = staircase_message_times(sizes, receive_time[r]);
    for (std::size_t j = 0; j < in.messages.size(); ++j) out[in.messages[j]] = t[j];
  }
}

// T_i = M_i tau + max(t_i^recv, t_send of its outgoing messages on these levels) (eqs. (8), (15)).
void combine(const std::vector<PatternMessage>& messages, const Mapping& mapping, const std::vector<Level>& levels,
             const Platform& platform, const std::vector<double>& receive_time, const std::vector<double>& delivered,
             std::vector<double>& out) {
  std::vector<double> latency(out.size(), 0.0), busy(receive_time);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto& m = messages[i];
    const Level l = mapping.level(m.src, m.dst);
    if (std::find(levels.begin(), levels.end(), l) == levels.end()) continue;
    latency[static_cast<std::size_t>(m.dst)] += platform.level(l).latency;
    busy[static_cast<std::size_t>(m.src)] = std::max(busy[static_cast<std::size_t>(m.src)], delivered[i]);
  }
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = latency[r] + busy[r];
}

void staircase(const Platform& platform, const Mapping& mapping, const std::vector<PatternMessage>& messages,
               std::vector<AnalyzedRank>& out) {
  const std::size_t ranks = out.size();
  std::vector<double> delivered(messages.size(), 0.0);
  // Inter-node: eq. (7) per receiving node.
  {
    const auto v = view_level(platform, mapping, messages, Level::InterNode);
    std::vector<double> t(ranks, 0.0);
    const auto& bw = platform.level(Level::InterNode).bandwidth;
    for (const auto& [group, members] : v.groups) {
      std::vector<double> volumes;
      for (int r : members) volumes.push_back(v.incoming[static_cast<std::size_t>(r)].volume);
      const auto times = staircase_receive_times(volumes, [&bw](double n) { return bw.aggregate(n); });
      for (std::size_t k = 0; k < members.size(); ++k) t[static_cast<std::size_t>(members[k])] = times[k];
    }
    message_times(messages, v.incoming, t, delivered);
    std::vector<double> total(ranks, 0.0);
    combine(messages, mapping, {Level::InterNode}, platform, t, delivered, total);
    for (std::size_t r = 0; r < ranks; ++r) out[r].inter_node_time = total[r];
  }
  // Intra-node: the mixed model (12)-(17) per socket, eq. (15).
  {
    const auto on = view_level(platform, mapping, messages, Level::IntraSocket);
    const auto off = view_level(platform, mapping, messages, Level::InterSocket);
    std::map<int, std::vector<int>> sockets;
    for (int r = 0; r < mapping.rank_count(); ++r) {
      const auto ur = static_cast<std::size_t>(r);
      if (on.incoming[ur].messages.empty() && off.incoming[ur].messages.empty()) continue;
      sockets[mapping[r].node * platform.nodes.sockets + mapping[r].socket].push_back(r);
    }
    std::vector<double> t(ranks, 0.0);
    for (const auto& [socket, members] : sockets) {
      std::vector<double> v_on, v_off;
      for (int r : members) {
        v_on.push_back(on.incoming[static_cast<std::size_t>(r)].volume);
        v_off.push_back(off.incoming[static_cast<std::size_t>(r)].volume);
      }
      const auto times = mixed_receive_times(v_on, v_off, platform.level(Level::IntraSocket).bandwidth,
                                             platform.level(Level::InterSocket).bandwidth);
      for (std::size_t k = 0; k < members.size(); ++k) t[static_cast<std::size_t>(members[k])] = times[k];
    }
    // Per-message times: eq. (9) over each process's intra-node messages.
    std::vector<Incoming> both(ranks);
    for (std::size_t r = 0; r < ranks; ++r) {
      both[r].messages = on.incoming[r].messages;
      both[r].messages.insert(both[r].messages.end(), off.incoming[r].messages.begin(), off.incoming[r].messages.end());
    }
    message_times(messages, both, t, delivered);
    std::vector<double> total(ranks, 0.0);
    combine(messages, mapping, {Level::IntraSocket, Level::InterSocket}, platform, t, delivered, total);
    for (std::size_t r = 0; r < ranks; ++r) out[r].intra_node_time = total[r];
  }
}

// Eqs. (2)-(3) or (10) on one level; returns per-rank times.
std::vector<double> max_rate_level(const Platform& platform, const Mapping& mapping,
                                   const std::vector<PatternMessage>& messages, Level level, bool extended) {
  const auto v = view_level(platform, mapping, messages, level);
  const auto& lp = platform.level(level);
  const double bw_sp = lp.bandwidth.single();
  const double bw_max = lp.bandwidth.max();
  std::vector<double> t(static_cast<std::size_t>(mapping.rank_count()), 0.0);
  for (const auto& [group, members] : v.groups) {
    const double n = static_cast<double>(members.size());
    double total_volume = 0;
    for (int r : members) total_volume += v.incoming[static_cast<std::size_t>(r)].volume;
    for (int r : members) {
      const auto& in = v.incoming[static_cast<std::size_t>(r)];
      const double latency = static_cast<double>(in.messages.size()) * lp.latency;
      if (extended) {
        // Eq. (10): M_i tau + max(min(V_total, N V_i) / BW_max, V_i / BW_SP).
        t[static_cast<std::size_t>(r)] =
            latency + std::max(std::min(total_volume, n * in.volume) / bw_max, in.volume / bw_sp);
      } else {
        // Eqs. (2)-(3) with the process volume as s: N s / min(N BW_SP, BW_max).
        t[static_cast<std::size_t>(r)] = latency + n * in.volume / std::min(n * bw_sp, bw_max);
      }
    }
  }
  return t;
}

}  // namespace

std::vector<AnalyzedRank> analyze(const Platform& platform, const Mapping& mapping,
                                  const std::vector<PatternMessage>& messages, ClosedForm form) {
  std::vector<AnalyzedRank> out(static_cast<std::size_t>(mapping.rank_count()));
  if (form == ClosedForm::Staircase) {
    staircase(platform, mapping, messages, out);
  } else {
    const bool extended = form == ClosedForm::ExtendedMaxRate;
    const auto on = max_rate_level(platform, mapping, messages, Level::IntraSocket, extended);
    const auto off = max_rate_level(platform, mapping, messages, Level::InterSocket, extended);
    const auto net = max_rate_level(platform, mapping, messages, Level::InterNode, extended);
    for (std::size_t r = 0; r < out.size(); ++r) {
      out[r].intra_node_time = on[r] + off[r];  // no mixing in these models: one after the other
      out[r].inter_node_time = net[r];
    }
  }
  for (auto& r : out) r.total_time = r.intra_node_time + r.inter_node_time;  // eq. (18)
  return out;
}

}  // namespace contend
