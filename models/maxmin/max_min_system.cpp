#include "models/maxmin/max_min_system.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
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
  link.capacity = std::move(capacity);
  links_.push_back(std::move(link));
  LinkState state;
  state.policy = policy;
  link_states_.push_back(state);
  const auto l = static_cast<LinkId>(links_.size() - 1);
  // Crossed by no class yet: a group of its own.
  group_of_.push_back(l);
  members_.push_back({l});
  nonlinear_members_.emplace_back();
  set_up_group(l);
  return l;
}

double MaxMinSystem::alone_rate(VariableId v) const {
  const Variable& x = variables_[v];
  double rate = x.bound > 0 ? x.bound : std::numeric_limits<double>::infinity();
  for (LinkId l : links_of(x)) {
    const Link& link = links_[l];
    rate = std::min(rate, policy(l) == Policy::NonLinear && link.capacity ? link.capacity(1) : link.bandwidth);
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
  usage_.push_back(0);
  visited_.push_back(0);
  flags_.push_back(0);
  const auto v = static_cast<VariableId>(variables_.size() - 1);
  if (!groups_stale_ && !join_groups(v)) groups_stale_ = true;
  for (LinkId l : links) links_[l].crossed = true;
  return v;
}

void MaxMinSystem::mark_modified(LinkId l) {
  if (links_[l].modified) return;
  links_[l].modified = true;
  modified_links_.push_back(l);
}

void MaxMinSystem::attach(VariableId v) {
  const Variable& x = variables_[v];
  for (std::uint32_t i = x.first_link; i < x.first_link + x.link_count; ++i) {
    auto& list = link_states_[link_ids_[i]].variables;
    slots_[i] = static_cast<std::uint32_t>(list.size());
    list.push_back(v);
  }
}

void MaxMinSystem::detach(VariableId v) {
  const Variable& x = variables_[v];
  for (std::uint32_t i = x.first_link; i < x.first_link + x.link_count; ++i) {
    auto& list = link_states_[link_ids_[i]].variables;
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
  usage_[v] = x.count / x.penalty;
  if (x.count == 0) return;
  for (LinkId l : links_of(x)) mark_modified(l);
}

void MaxMinSystem::add_flows(VariableId v, int count) {
  Variable& x = variables_[v];
  if (count <= 0) return;
  if (x.count == 0) attach(v);
  x.count += count;
  usage_[v] = x.count / x.penalty;
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
  usage_[v] = x.count / x.penalty;
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
  if (groups_stale_) group_links();
  set_up_component();
  solve_links();
  for (VariableId v : solved_) {
    if (variables_[v].value != variables_[v].previous) changed_.push_back(v);
  }
  return solved_;
}

// A new epoch marks nothing visited; at the wrap of the counter (after 4e9
// solves) every mark is cleared instead.
void MaxMinSystem::next_epoch() {
  if (++epoch_ != 0) return;
  for (LinkState& state : link_states_) state.visited = 0;
  std::fill(visited_.begin(), visited_.end(), 0);
  epoch_ = 1;
}

// The modified links and every link coupled to them through variables with
// flows, in SimGrid's order of discovery (depth first from each modified
// link); solved_ gets those variables. Each link is set up for the solve as
// it is reached, in that order (the first loop of SimGrid's maxmin_solve):
// one walk over the component instead of two.
void MaxMinSystem::set_up_component() {
  next_epoch();
  light_.clear();
  light_ratio_.clear();
  all_may_saturate_ = true;
  for (LinkId modified : modified_links_) {
    links_[modified].modified = false;
    const LinkId start = group_of_[modified];
    if (link_states_[start].visited == epoch_) continue;
    link_states_[start].visited = epoch_;
    stack_.push_back(start);
    while (!stack_.empty()) {
      const LinkId l = stack_.back();
      stack_.pop_back();
      set_up_link(l);
    }
  }
  modified_links_.clear();
  reset_values();
}

// A variable of the component reached for the first time: its usage for
// this solve, and its links not reached yet on the stack.
void MaxMinSystem::discover(VariableId v) {
  Variable& x = variables_[v];
  visited_[v] = epoch_;
  x.previous = x.value;
  solved_.push_back(v);
  for (LinkId next : constraints_of(x)) {
    LinkState& state = link_states_[next];
    if (state.visited == epoch_) continue;
    state.visited = epoch_;
    // Its list is read when the link is set up, a few links later: between
    // two solves the engine's messages have evicted it from the caches.
    __builtin_prefetch(state.variables.data());
    stack_.push_back(next);
  }
}

// Discovers the variables of `l` not seen yet (their links go on the stack),
// then gives `l` its capacity, remaining capacity and usage, and lists it
// among the links that may saturate.
void MaxMinSystem::set_up_link(LinkId l) {
  const Link& link = links_[l];
  LinkState& state = link_states_[l];
  state.light = kNone;
  if (link.dynamic_group) {
    group_capacity(l);
  } else {
    state.dynamic_bound =
        state.policy == Policy::NonLinear && link.capacity ? nonlinear_capacity(links_[l]) : link.group_bandwidth;
    state.bottleneck = link.group_bottleneck;
  }
  state.remaining = state.dynamic_bound;
  if (!(state.remaining > state.dynamic_bound * kPrecision)) {
    all_may_saturate_ = false;
    for (VariableId v : state.variables) {
      if (visited_[v] != epoch_) discover(v);
    }
    return;
  }
  // The variables not seen yet are read in the loops below: their loads
  // overlap rather than wait for one another.
  for (VariableId v : state.variables) {
    if (visited_[v] != epoch_) __builtin_prefetch(&variables_[v]);
  }
  // Summed in the order of state.variables, as SimGrid does.
  double usage = 0;
  if (state.policy != Policy::FatPipe) {
    for (VariableId v : state.variables) {
      if (visited_[v] != epoch_) discover(v);
      usage += usage_[v];
    }
  } else {
    for (VariableId v : state.variables) {
      if (visited_[v] != epoch_) discover(v);
      usage = std::max(usage, 1.0 / variables_[v].penalty);
    }
  }
  state.usage = usage;
  if (usage > 0) {
    state.light = static_cast<std::uint32_t>(light_.size());
    light_.push_back(l);
    light_ratio_.push_back(state.remaining / usage);
  }
}

// SimGrid's set-up gives every variable of a link that may saturate the
// value 0, not fixed: a variable crossing only links that may not keeps its
// value (SimGrid's behaviour, kept). Done once per variable after the walk.
void MaxMinSystem::reset_values() {
  for (VariableId v : solved_) {
    bool reset = all_may_saturate_;
    if (!reset) {
      for (LinkId l : constraints_of(variables_[v])) {
        const LinkState& state = link_states_[l];
        reset = reset || state.remaining > state.dynamic_bound * kPrecision;
      }
    }
    if (!reset) continue;
    variables_[v].value = 0.0;
    flags_[v] &= static_cast<std::uint8_t>(~kFixed);
  }
}

// The capacity of a group's constraint: the smallest of its links' for
// their n flows (the same n: the same classes cross them), the first link
// of smallest capacity named as the bottleneck; computed again only when n
// changed since the last set-up (BW_MP is a function of n alone), so that
// most set-ups read the standing link only.
void MaxMinSystem::group_capacity(LinkId l) {
  Link& link = links_[l];
  if (link.group_flows != link.flows) {
    double bound = link.group_bandwidth;
    LinkId bottleneck = link.group_bottleneck;
    for (LinkId m : nonlinear_members_[l]) {
      const double capacity = nonlinear_capacity(links_[m]);
      if (capacity < bound || (capacity == bound && m < bottleneck)) {
        bound = capacity;
        bottleneck = m;
      }
    }
    link.group_flows = link.flows;
    link.group_capacity = bound;
    link.group_capacity_link = bottleneck;
  }
  LinkState& state = link_states_[l];
  state.dynamic_bound = link.group_capacity;
  state.bottleneck = link.group_capacity_link;
}

// What set_up_link() reads of the group `l` stands for (when it does): the
// smallest constant capacity of its members and the first link of it, once
// per regrouping; its NONLINEAR members, whose BW_MP(n) group_capacity()
// compares with it at each set-up (n: the group's flows, the same on each).
void MaxMinSystem::set_up_group(LinkId l) {
  Link& link = links_[l];
  nonlinear_members_[l].clear();
  link.group_bandwidth = link.bandwidth;
  link.group_bottleneck = l;
  link.dynamic_group = false;
  link.group_flows = -1;
  if (members_[l].size() < 2) return;
  link.group_bandwidth = std::numeric_limits<double>::infinity();
  link.group_bottleneck = kNoLink;
  for (LinkId m : members_[l]) {
    if (link_states_[m].policy == Policy::NonLinear && links_[m].capacity) {
      nonlinear_members_[l].push_back(m);
    } else if (links_[m].bandwidth < link.group_bandwidth) {
      link.group_bandwidth = links_[m].bandwidth;
      link.group_bottleneck = m;
    }
  }
  link.dynamic_group = !nonlinear_members_[l].empty();
}

// Groups the links by the route classes crossing them (every class added,
// with flows or not: then their lists of classes with flows stay equal),
// fat pipes apart (each rate bounded alone), and gives each variable its
// constraints: its links' groups, each once, in the order of its links.
void MaxMinSystem::group_links() {
  groups_stale_ = false;
  std::vector<std::vector<VariableId>> classes(links_.size());
  for (VariableId v = 0; v < variables_.size(); ++v) {
    for (LinkId l : links_of(variables_[v])) classes[l].push_back(v);
  }
  std::map<std::vector<VariableId>, LinkId> first_link;
  for (LinkId l = 0; l < links_.size(); ++l) {
    members_[l].clear();
    group_of_[l] = l;
    if (!merge_links_ || link_states_[l].policy == Policy::FatPipe || classes[l].empty()) continue;
    group_of_[l] = first_link.try_emplace(std::move(classes[l]), l).first->second;
  }
  for (LinkId l = 0; l < links_.size(); ++l) members_[group_of_[l]].push_back(l);
  for (LinkId l = 0; l < links_.size(); ++l) set_up_group(l);
  constraint_ids_.clear();
  for (Variable& x : variables_) append_constraints(x);
}

// The constraints of `x` at the end of constraint_ids_: its links' groups,
// each once, in the order of its links.
void MaxMinSystem::append_constraints(Variable& x) {
  x.first_constraint = static_cast<std::uint32_t>(constraint_ids_.size());
  for (LinkId l : links_of(x)) {
    const LinkId group = group_of_[l];
    const auto begin = constraint_ids_.begin() + x.first_constraint;
    if (std::find(begin, constraint_ids_.end(), group) == constraint_ids_.end()) constraint_ids_.push_back(group);
  }
  x.constraint_count = static_cast<std::uint32_t>(constraint_ids_.size()) - x.first_constraint;
}

// The new class `v` joins the grouping in O(its links) when no other class's
// constraints change, exactly as group_links() would group them: each
// group it crosses, it crosses whole (its links keep equal sets of
// classes), and the mergeable links no class crossed before form one group
// (of the classes {v}). A group it crosses in part splits: answers false,
// and the next solve groups every link again. On a star every class crosses
// its nodes' groups whole, so a run whose pairs start communicating one
// after another regroups nothing (regrouping every link at each new class
// made it quadratic in the classes).
bool MaxMinSystem::join_groups(VariableId v) {
  Variable& x = variables_[v];
  const auto links = links_of(x);
  std::vector<LinkId> fresh;
  for (LinkId l : links) {
    if (!merge_links_ || link_states_[l].policy == Policy::FatPipe) continue;  // a group of its own
    if (!links_[l].crossed) {
      fresh.push_back(l);
      continue;
    }
    for (LinkId m : members_[group_of_[l]]) {
      if (std::find(links.begin(), links.end(), m) == links.end()) return false;
    }
  }
  if (fresh.size() > 1) {
    std::sort(fresh.begin(), fresh.end());
    const LinkId standing = fresh.front();
    for (LinkId l : fresh) {
      group_of_[l] = standing;
      members_[l].clear();
    }
    members_[standing] = fresh;
    set_up_group(standing);
  }
  append_constraints(x);
  return true;
}

// BW_MP(n) of a NONLINEAR link crossed by n flows, computed again only when
// n changed since the last solve that set the link up: the capacity is a
// function of n alone (LevelCapacity), and most links keep their n.
double MaxMinSystem::nonlinear_capacity(Link& link) {
  if (link.capacity_flows != link.flows) {
    link.capacity_value = link.capacity(link.flows);
    link.capacity_flows = link.flows;
  }
  return link.capacity_value;
}

// SimGrid's saturated_constraints_update over every link that may saturate:
// the smallest remaining / usage, and the links at it in the order of
// light_ (SimGrid keeps the first found, then appends the ties).
void MaxMinSystem::find_saturated() {
  saturated_.clear();
  min_usage_ = -1;
  if (light_.empty()) return;
  // One pass, branching on a smaller ratio (rare once the first links are
  // seen) rather than a chain of min operations.
  double smallest = std::numeric_limits<double>::infinity();
  const double* ratio = light_ratio_.data();
  const auto size = static_cast<std::uint32_t>(light_ratio_.size());
  for (std::uint32_t position = 0; position < size; ++position) {
    if (ratio[position] < smallest) {
      smallest = ratio[position];
      saturated_.assign(1, position);
    } else if (ratio[position] == smallest) {
      saturated_.push_back(position);
    }
  }
  min_usage_ = smallest;
}

// SimGrid's saturated_variable_set_update: the variables not fixed yet of
// the saturated links.
void MaxMinSystem::list_saturated_variables() {
  for (std::uint32_t position : saturated_) {
    const LinkId l = light_[position];
    for (VariableId v : link_states_[l].variables) {
      if (flags_[v] != 0) continue;  // fixed or listed
      flags_[v] = kListed;
      variables_[v].bottleneck = link_states_[l].bottleneck;
      saturated_variables_.push_back(v);
    }
  }
}

void MaxMinSystem::drop_light(LinkId l) {
  LinkState& state = link_states_[l];
  if (state.light == kNone) return;
  const std::uint32_t position = state.light;
  light_[position] = light_.back();
  light_ratio_[position] = light_ratio_.back();
  link_states_[light_[position]].light = position;
  light_.pop_back();
  light_ratio_.pop_back();
  state.light = kNone;
}

// A link's remaining capacity and usage changed: it leaves the links that
// may saturate once either is (numerically) zero. Its remaining / usage is
// computed once, before the next search for the saturated links: a round
// fixes several variables on most links.
inline void MaxMinSystem::after_update(LinkId l) {
  LinkState& state = link_states_[l];
  if (!(state.usage > kPrecision) || !(state.remaining > state.dynamic_bound * kPrecision)) {
    drop_light(l);
  } else if (state.light != kNone && !state.stale) {
    state.stale = true;
    stale_.push_back(l);
  }
}

// The remaining / usage of the links updated in this round, from their
// final remaining capacity and usage (what the last update computed).
void MaxMinSystem::refresh_stale() {
  for (LinkId l : stale_) {
    LinkState& state = link_states_[l];
    state.stale = false;
    if (state.light != kNone) light_ratio_[state.light] = state.remaining / state.usage;
  }
  stale_.clear();
}

// Fat pipes: each rate is bounded; the usage is the largest of the flows not
// fixed yet.
void MaxMinSystem::update_fat_pipe(LinkId l) {
  double usage = 0.0;
  for (VariableId v : link_states_[l].variables) {
    const Variable& other = variables_[v];
    if (other.value > 0) continue;
    usage = std::max(usage, 1.0 / other.penalty);
  }
  link_states_[l].usage = usage;
  after_update(l);
}

void MaxMinSystem::fix(VariableId v) {
  const Variable& x = variables_[v];
  flags_[v] = kFixed;
  const double consumption = x.count * x.value;
  const double usage = usage_[v];
  for (LinkId l : constraints_of(x)) {
    LinkState& state = link_states_[l];
    if (state.policy == Policy::FatPipe) {
      update_fat_pipe(l);
    } else {
      // Shared links: the sum of the rates is bounded.
      subtract(state.remaining, consumption, state.dynamic_bound * kPrecision);
      subtract(state.usage, usage, kPrecision);
      after_update(l);
    }
  }
}

// SimGrid's MaxMin::maxmin_solve, after its set-up (set_up_component()).
void MaxMinSystem::solve_links() {
  double min_bound = -1;
  find_saturated();
  list_saturated_variables();

  while (!light_.empty()) {
    if (saturated_variables_.empty()) {
      // Saturated links without a flow left to fix: SimGrid asserts this
      // never happens (a precision problem); drop them rather than loop.
      for (auto it = saturated_.rbegin(); it != saturated_.rend(); ++it) drop_light(light_[*it]);
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
      flags_[v] &= static_cast<std::uint8_t>(~kListed);
      if (min_bound < 0) {
        x.value = min_usage_ / x.penalty;
      } else if (std::abs(min_bound - x.bound * x.penalty) < kPrecision) {
        x.value = x.bound;
        x.bottleneck = kNoLink;
      } else {
        continue;  // bounded at another level: considered again in a later round
      }
      fix(v);
    }
    saturated_variables_.clear();
    min_bound = -1;
    refresh_stale();
    find_saturated();
    list_saturated_variables();
  }
}

}  // namespace contend
