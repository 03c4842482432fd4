#include "models/maxmin/max_min_system.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

namespace contend {

namespace {

// SimGrid's double_update (src/surf/surf_interface.hpp): subtracts, and a
// result below `precision` is zero.
void subtract(double& variable, double value, double precision) {
  variable -= value;
  if (variable < precision) variable = 0.0;
}

}  // namespace

MaxMinSystem::LinkId MaxMinSystem::add_link(double bandwidth, Policy policy, std::function<double(int)> capacity) {
  Link link;
  link.bandwidth = bandwidth;
  link.policy = policy;
  link.capacity = std::move(capacity);
  links_.push_back(std::move(link));
  return static_cast<LinkId>(links_.size() - 1);
}

double MaxMinSystem::alone_rate(VariableId v) const {
  const Variable& x = variables_[v];
  double rate = x.bound > 0 ? x.bound : std::numeric_limits<double>::infinity();
  for (LinkId l : links_of(x)) {
    const Link& link = links_[l];
    rate = std::min(rate, link.policy == Policy::NonLinear && link.capacity ? link.capacity(1) : link.bandwidth);
  }
  return rate;
}

MaxMinSystem::VariableId MaxMinSystem::add_variable(std::vector<LinkId> links, double penalty, double bound) {
  Variable x;
  x.first_link = static_cast<std::uint32_t>(link_ids_.size());
  x.link_count = static_cast<std::uint32_t>(links.size());
  x.penalty = penalty;
  x.bound = bound;
  link_ids_.insert(link_ids_.end(), links.begin(), links.end());
  slots_.resize(link_ids_.size(), kNone);
  variables_.push_back(x);
  return static_cast<VariableId>(variables_.size() - 1);
}

void MaxMinSystem::mark_modified(LinkId l) {
  if (links_[l].modified) return;
  links_[l].modified = true;
  modified_links_.push_back(l);
}

void MaxMinSystem::attach(VariableId v) {
  const Variable& x = variables_[v];
  for (std::uint32_t i = x.first_link; i < x.first_link + x.link_count; ++i) {
    auto& list = links_[link_ids_[i]].variables;
    slots_[i] = static_cast<std::uint32_t>(list.size());
    list.push_back(v);
  }
}

void MaxMinSystem::detach(VariableId v) {
  const Variable& x = variables_[v];
  for (std::uint32_t i = x.first_link; i < x.first_link + x.link_count; ++i) {
    auto& list = links_[link_ids_[i]].variables;
    const VariableId last = list.back();
    const std::uint32_t slot = slots_[i];
    list[slot] = last;
    list.pop_back();
    if (last != v) {
      const Variable& moved = variables_[last];
      for (std::uint32_t j = moved.first_link; j < moved.first_link + moved.link_count; ++j) {
        if (link_ids_[j] == link_ids_[i]) slots_[j] = slot;
      }
    }
    slots_[i] = kNone;
  }
}

void MaxMinSystem::set_penalty(VariableId v, double penalty) {
  Variable& x = variables_[v];
  if (x.penalty == penalty) return;
  x.penalty = penalty;
  if (x.count == 0) return;
  for (LinkId l : links_of(x)) mark_modified(l);
}

void MaxMinSystem::add_flows(VariableId v, int count) {
  Variable& x = variables_[v];
  if (count <= 0) return;
  if (x.count == 0) attach(v);
  x.count += count;
  for (LinkId l : links_of(x)) {
    links_[l].flows += count;
    mark_modified(l);
  }
}

void MaxMinSystem::remove_flows(VariableId v, int count) {
  Variable& x = variables_[v];
  assert(count <= x.count);
  if (count <= 0) return;
  x.count -= count;
  for (LinkId l : links_of(x)) {
    links_[l].flows -= count;
    mark_modified(l);
  }
  if (x.count == 0) {
    detach(v);
    x.value = 0;
  }
}

const std::vector<MaxMinSystem::VariableId>& MaxMinSystem::solve() {
  solved_.clear();
  changed_.clear();
  if (modified_links_.empty()) return solved_;
  set_up_component();
  solve_links();
  for (VariableId v : solved_) {
    if (variables_[v].value != variables_[v].previous) changed_.push_back(v);
  }
  return solved_;
}

// The modified links and every link coupled to them through variables with
// flows, in SimGrid's order of discovery (depth first from each modified
// link); solved_ gets those variables. Each link is set up for the solve as
// it is reached, in that order (the first loop of SimGrid's maxmin_solve):
// one walk over the component instead of two.
void MaxMinSystem::set_up_component() {
  ++epoch_;
  min_usage_ = -1;
  light_.clear();
  saturated_.clear();
  for (LinkId start : modified_links_) {
    links_[start].modified = false;
    if (links_[start].visited == epoch_) continue;
    links_[start].visited = epoch_;
    stack_.push_back(start);
    while (!stack_.empty()) {
      const LinkId l = stack_.back();
      stack_.pop_back();
      set_up_link(l);
    }
  }
  modified_links_.clear();
}

// Discovers the variables of `l` not seen yet (their links go on the stack),
// then gives `l` its capacity, remaining capacity and usage, and lists it
// among the links that may saturate.
void MaxMinSystem::set_up_link(LinkId l) {
  Link& link = links_[l];
  link.light = kNone;
  link.dynamic_bound = link.bandwidth;
  if (link.policy == Policy::NonLinear && link.capacity) link.dynamic_bound = link.capacity(link.flows);
  link.remaining = link.dynamic_bound;
  const bool may_saturate = link.remaining > link.dynamic_bound * kPrecision;
  if (may_saturate) link.usage = 0;
  for (VariableId v : link.variables) {
    Variable& x = variables_[v];
    if (x.visited != epoch_) {
      x.visited = epoch_;
      x.previous = x.value;
      x.usage = x.count / x.penalty;
      solved_.push_back(v);
      for (LinkId next : links_of(x)) {
        if (links_[next].visited == epoch_) continue;
        links_[next].visited = epoch_;
        stack_.push_back(next);
      }
    }
    if (!may_saturate) continue;
    x.value = 0.0;
    x.fixed = false;
    if (link.policy != Policy::FatPipe) {
      link.usage += x.usage;
    } else {
      link.usage = std::max(link.usage, 1.0 / x.penalty);
    }
  }
  if (may_saturate && link.usage > 0) {
    link.light = static_cast<std::uint32_t>(light_.size());
    light_.push_back({l, link.remaining / link.usage});
    update_saturated(light_.back().remaining_over_usage, link.light);
  }
}

// SimGrid's saturated_constraints_update.
void MaxMinSystem::update_saturated(double ratio, std::uint32_t position) {
  if (min_usage_ < 0 || min_usage_ > ratio) {
    min_usage_ = ratio;
    saturated_.assign(1, position);
  } else if (min_usage_ == ratio) {
    saturated_.push_back(position);
  }
}

// SimGrid's saturated_variable_set_update: the variables not fixed yet of
// the saturated links.
void MaxMinSystem::list_saturated_variables() {
  for (std::uint32_t position : saturated_) {
    for (VariableId v : links_[light_[position].link].variables) {
      Variable& x = variables_[v];
      if (x.fixed || x.listed) continue;
      x.listed = true;
      x.bottleneck = light_[position].link;
      saturated_variables_.push_back(v);
    }
  }
}

void MaxMinSystem::drop_light(Link& link) {
  if (link.light == kNone) return;
  const std::uint32_t position = link.light;
  light_[position] = light_.back();
  links_[light_[position].link].light = position;
  light_.pop_back();
  link.light = kNone;
}

// A link's remaining capacity and usage changed: it leaves the links that
// may saturate once either is (numerically) zero.
void MaxMinSystem::after_update(Link& link) {
  if (!(link.usage > kPrecision) || !(link.remaining > link.dynamic_bound * kPrecision)) {
    drop_light(link);
  } else if (link.light != kNone) {
    light_[link.light].remaining_over_usage = link.remaining / link.usage;
  }
}

// Shared links: the sum of the rates is bounded.
void MaxMinSystem::update_shared(Link& link, const Variable& x) {
  subtract(link.remaining, x.count * x.value, link.dynamic_bound * kPrecision);
  subtract(link.usage, x.usage, kPrecision);
  after_update(link);
}

// Fat pipes: each rate is bounded; the usage is the largest of the flows not
// fixed yet.
void MaxMinSystem::update_fat_pipe(Link& link) {
  link.usage = 0.0;
  for (VariableId v : link.variables) {
    const Variable& other = variables_[v];
    if (other.value > 0) continue;
    link.usage = std::max(link.usage, 1.0 / other.penalty);
  }
  after_update(link);
}

void MaxMinSystem::fix(Variable& x) {
  x.fixed = true;
  for (LinkId l : links_of(x)) {
    Link& link = links_[l];
    if (link.policy == Policy::FatPipe) {
      update_fat_pipe(link);
    } else {
      update_shared(link, x);
    }
  }
}

// SimGrid's MaxMin::maxmin_solve, after its set-up (set_up_component()).
void MaxMinSystem::solve_links() {
  double min_bound = -1;
  list_saturated_variables();

  while (!light_.empty()) {
    if (saturated_variables_.empty()) {
      // Saturated links without a flow left to fix: SimGrid asserts this
      // never happens (a precision problem); drop them rather than loop.
      for (auto it = saturated_.rbegin(); it != saturated_.rend(); ++it) drop_light(links_[light_[*it].link]);
    }
    // A variable whose bound is below the level is fixed at its bound first.
    for (VariableId v : saturated_variables_) {
      const Variable& x = variables_[v];
      if (x.bound > 0 && x.bound * x.penalty < min_usage_) {
        min_bound = min_bound < 0 ? x.bound * x.penalty : std::min(min_bound, x.bound * x.penalty);
      }
    }
    for (VariableId v : saturated_variables_) {
      Variable& x = variables_[v];
      x.listed = false;
      if (min_bound < 0) {
        x.value = min_usage_ / x.penalty;
      } else if (std::abs(min_bound - x.bound * x.penalty) < kPrecision) {
        x.value = x.bound;
        x.bottleneck = kNoLink;
      } else {
        continue;  // bounded at another level: considered again in a later round
      }
      fix(x);
    }
    saturated_variables_.clear();
    min_usage_ = -1;
    min_bound = -1;
    saturated_.clear();
    for (std::uint32_t position = 0; position < light_.size(); ++position) {
      update_saturated(light_[position].remaining_over_usage, position);
    }
    list_saturated_variables();
  }
}

}  // namespace contend
