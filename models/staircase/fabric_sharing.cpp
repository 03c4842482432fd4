#include "models/staircase/fabric_sharing.hpp"

#include <algorithm>

namespace contend {

FabricSharing::FabricSharing(std::function<std::vector<LinkRef>(int, int)> route) : route_(std::move(route)) {}

int FabricSharing::pair_index(int src, int dst) {
  auto [it, inserted] = pair_of_.try_emplace(key(src, dst), static_cast<int>(pairs_.size()));
  if (inserted) {
    Pair p{src, dst, 0, 1, {}, 0};
    for (const auto& ref : route_(src, dst)) {
      auto [l, is_new] = link_of_.try_emplace(ref.key, static_cast<int>(links_.size()));
      if (is_new) links_.push_back(LinkState{ref.capacity, 0, kUnlimited, {}, ref.key, 0});
      p.links.push_back(l->second);
      links_[static_cast<std::size_t>(l->second)].pairs.push_back(it->second);
    }
    pairs_.push_back(std::move(p));
  }
  return it->second;
}

double FabricSharing::factor(int src, int dst) const {
  auto it = pair_of_.find(key(src, dst));
  return it == pair_of_.end() ? 1.0 : pairs_[static_cast<std::size_t>(it->second)].factor;
}

FabricSharing::Bottleneck FabricSharing::bottleneck(int src, int dst) const {
  auto it = pair_of_.find(key(src, dst));
  if (it == pair_of_.end()) return {};
  const auto& p = pairs_[static_cast<std::size_t>(it->second)];
  if (p.factor >= 1) return {};
  const LinkState* lowest = nullptr;
  for (int l : p.links) {
    const auto& link = links_[static_cast<std::size_t>(l)];
    if (lowest == nullptr || link.water_level < lowest->water_level) lowest = &link;
  }
  return lowest ? Bottleneck{lowest->key, lowest->capacity, lowest->water_level} : Bottleneck{};
}

// Max-min share of an overloaded link: the level w with sum min(d_i, w) = C.
void FabricSharing::refill(int link) {
  auto& l = links_[static_cast<std::size_t>(link)];
  const bool was_overloaded = l.water_level < kUnlimited;
  const bool overloaded = l.load > l.capacity * (1 + 1e-12);
  if (!overloaded) {
    l.water_level = kUnlimited;
    if (was_overloaded) --overloaded_links_;
    return;
  }
  if (!was_overloaded) ++overloaded_links_;
  std::vector<double> demands;
  for (int p : l.pairs) {
    const double d = pairs_[static_cast<std::size_t>(p)].demand;
    if (d > 0) demands.push_back(d);
  }
  std::sort(demands.begin(), demands.end());
  double left = l.capacity;
  std::size_t i = 0;
  for (; i < demands.size(); ++i) {
    const double share = left / static_cast<double>(demands.size() - i);
    if (demands[i] >= share) break;
    left -= demands[i];
  }
  l.water_level = i < demands.size() ? left / static_cast<double>(demands.size() - i) : kUnlimited;
}

void FabricSharing::refactor(int pair, std::vector<std::pair<int, int>>& changed) {
  auto& p = pairs_[static_cast<std::size_t>(pair)];
  double cap = kUnlimited;
  for (int l : p.links) cap = std::min(cap, links_[static_cast<std::size_t>(l)].water_level);
  const double factor = (p.demand <= 0 || cap >= p.demand) ? 1.0 : cap / p.demand;
  if (factor != p.factor) {
    p.factor = factor;
    changed.emplace_back(p.src, p.dst);
  }
}

void FabricSharing::set_demands(int dst, const std::vector<std::pair<int, double>>& demand_by_source,
                                std::vector<std::pair<int, int>>& changed) {
  ++update_;
  if (static_cast<int>(pairs_into_.size()) <= dst) pairs_into_.resize(static_cast<std::size_t>(dst) + 1);
  std::vector<int> touched_links, demand_changed;
  auto set_one = [&](int pair, double demand) {
    auto& p = pairs_[static_cast<std::size_t>(pair)];
    p.mark = update_;
    const double delta = demand - p.demand;
    if (delta == 0) return;
    p.demand = demand;
    demand_changed.push_back(pair);
    for (int l : p.links) {
      auto& link = links_[static_cast<std::size_t>(l)];
      link.load += delta;
      if (link.mark != update_) {
        link.mark = update_;
        touched_links.push_back(l);
      }
    }
  };
  std::vector<int> now_into;
  now_into.reserve(demand_by_source.size());
  for (const auto& [src, demand] : demand_by_source) {
    const int pair = pair_index(src, dst);
    now_into.push_back(pair);
    set_one(pair, demand);
  }
  for (int pair : pairs_into_[static_cast<std::size_t>(dst)]) {
    if (pairs_[static_cast<std::size_t>(pair)].mark != update_) set_one(pair, 0);  // no longer listed
  }
  pairs_into_[static_cast<std::size_t>(dst)] = std::move(now_into);
  if (touched_links.empty()) return;

  // Pairs to look at again: those whose demand changed, and every pair of a
  // link whose water level moved.
  ++update_;
  std::vector<int> to_refactor;
  for (int pair : demand_changed) {
    pairs_[static_cast<std::size_t>(pair)].mark = update_;
    to_refactor.push_back(pair);
  }
  for (int l : touched_links) {
    const double old_level = links_[static_cast<std::size_t>(l)].water_level;
    refill(l);
    if (old_level == links_[static_cast<std::size_t>(l)].water_level) continue;
    for (int p : links_[static_cast<std::size_t>(l)].pairs) {
      if (pairs_[static_cast<std::size_t>(p)].mark == update_) continue;
      pairs_[static_cast<std::size_t>(p)].mark = update_;
      to_refactor.push_back(p);
    }
  }
  for (int p : to_refactor) refactor(p, changed);
}

}  // namespace contend
