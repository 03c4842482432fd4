#pragma once
// The max-min sharing of SimGrid's LMM system (src/kernel/lmm/maxmin.cpp,
// SimGrid 3.32), on flow classes instead of single flows, re-solving only
// the links coupled to those whose flows changed.
//
// A *link* is one of SimGrid's constraints: a capacity (its bandwidth, or
// for a NONLINEAR link capacity(n) of the number n of flows crossing it)
// shared by the flows crossing it, the sum of their rates at most the
// capacity (SHARED, NONLINEAR) or each rate at most the capacity (FATPIPE).
// A *variable* stands for every flow of one route: flows with the same links,
// the same sharing penalty (SimGrid's CM02: the route's latency) and the same
// bound. SimGrid gives such flows one value each at every step of its
// solver (they saturate in the same constraints), so one variable with a
// count of flows computes what SimGrid's count variables compute: its
// consumption of a link is count x value, its usage count / penalty, and a
// NONLINEAR link is crossed by the sum of the counts.
//
// solve() re-solves the links whose flows changed since the last solve and
// every link coupled to them through a variable with flows (SimGrid's
// selective update: update_modified_cnst_set_rec), with SimGrid's algorithm:
// constraints saturate in rounds, the one(s) with the smallest remaining /
// usage first, their variables fixed at that level divided by their
// penalty (or at their bound when a bound is lower), with SimGrid's
// precision rules (maxmin/precision 1e-5: a remaining capacity below 1e-5
// of the capacity, or a usage below 1e-5, counts as saturated).
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace contend {

class MaxMinSystem {
 public:
  enum class Policy : std::uint8_t { Shared, FatPipe, NonLinear };
  using LinkId = std::uint32_t;
  using VariableId = std::uint32_t;
  // SimGrid's maxmin/precision.
  static constexpr double kPrecision = 1e-5;

  // `merge_links`: links crossed by the same route classes are solved as one
  // constraint (the same max-min values, half the work on a star). Off, each
  // link is its own constraint and bottleneck() names the link SimGrid's
  // rounds name when several saturate together: the first in the order its
  // walk set them up and dropped them (what `--explain` reports).
  explicit MaxMinSystem(bool merge_links = true) : merge_links_(merge_links) {}

  // `bandwidth`: the capacity (SimGrid's bound); for NonLinear links,
  // capacity(n) replaces it when n flows cross the link.
  LinkId add_link(double bandwidth, Policy policy, std::function<double(int)> capacity = {});
  // A class of identical flows crossing `links` (each at most once), with
  // SimGrid's sharing penalty (> 0) and bound (> 0; 0 for none). No flows yet.
  VariableId add_variable(std::vector<LinkId> links, double penalty, double bound);

  // A new sharing penalty (> 0) for `v` (weighted sharing: a base penalty
  // over the flow's weight); its links are re-solved at the next solve.
  void set_penalty(VariableId v, double penalty);
  void add_flows(VariableId v, int count);
  void remove_flows(VariableId v, int count);
  int flows(VariableId v) const { return variables_[v].count; }
  // The rate of each flow of `v` since the last solve that included it.
  double value(VariableId v) const { return variables_[v].value; }
  bool modified() const { return !modified_links_.empty(); }

  // For attribution. The link whose saturation fixed the value of `v` at its
  // last solve; kNoLink when its bound fixed it.
  static constexpr LinkId kNoLink = UINT32_MAX;
  LinkId bottleneck(VariableId v) const { return variables_[v].bottleneck; }
  std::span<const LinkId> links(VariableId v) const { return links_of(variables_[v]); }
  double bound(VariableId v) const { return variables_[v].bound; }
  // The capacity the last solve gave `l` (BW_MP(n) for a NONLINEAR link
  // crossed by n flows) and the flows crossing it. Merging links, the
  // capacity is the group's, kept by the link standing for it only.
  double capacity(LinkId l) const { return link_states_[l].dynamic_bound; }
  int link_flows(LinkId l) const { return links_[l].flows; }
  Policy policy(LinkId l) const { return link_states_[l].policy; }
  // The rate of one flow of `v` alone in the system: its smallest link
  // capacity for one flow, at most its bound.
  double alone_rate(VariableId v) const;

  // Re-solves the part of the system coupled to the changes since the last
  // solve; returns the variables with flows it solved, whose value may have
  // changed (valid until the next call).
  const std::vector<VariableId>& solve();
  // Those of the last solve whose value differs from the one they had
  // before it (valid until the next call): on a large component most keep
  // theirs, and their flows' ends stand.
  const std::vector<VariableId>& changed() const { return changed_; }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  // What a solve reads and writes is kept apart from the rest, in arrays by
  // link and by variable a few bytes wide: a solve walks every incidence of
  // the component several times (5,600 per solve at P = 8192, issue 18), and
  // between two solves the engine's messages evict the caches.
  struct Link {
    double bandwidth = 0;
    std::function<double(int)> capacity;
    int flows = 0;              // SimGrid's concurrency: flows crossing it
    bool modified = false;      // in modified_links_
    bool crossed = false;       // by a route class (added, with flows or not)
    int capacity_flows = -1;    // NONLINEAR: the n of capacity_value
    double capacity_value = 0;  // capacity(capacity_flows)
    // Of a link standing for its group (group_links()): the smallest
    // constant capacity of its links and the first link of it; with
    // NONLINEAR members (dynamic_group), compared at each set-up with theirs.
    double group_bandwidth = 0;
    LinkId group_bottleneck = kNoLink;
    bool dynamic_group = false;
    int group_flows = -1;                  // dynamic_group: the n of group_capacity
    double group_capacity = 0;             // the group's capacity for n flows
    LinkId group_capacity_link = kNoLink;  // its first link of that capacity
  };
  struct LinkState {                    // by link, what a solve reads
    std::vector<VariableId> variables;  // those with flows
    double dynamic_bound = 0, remaining = 0, usage = 0;
    std::uint32_t light = kNone;  // position in light_, while it may saturate
    std::uint32_t visited = 0;    // component search epoch
    Policy policy = Policy::Shared;
    bool stale = false;           // in stale_: its remaining / usage to compute again
    LinkId bottleneck = kNoLink;  // of a group's constraint: its link of smallest capacity
  };
  // A variable's links are link_ids_[first_link, first_link + link_count),
  // its positions in their `variables` lists slots_[same range]: one array
  // for all variables keeps a solve's walk over them in few cache lines.
  struct Variable {
    std::uint32_t first_link = 0, link_count = 0;
    std::uint32_t first_constraint = 0, constraint_count = 0;  // in constraint_ids_
    double penalty = 1, bound = 0;
    int count = 0;
    LinkId bottleneck = kNoLink;  // the saturated link that listed it last
    double value = 0;
    double previous = 0;  // value before the solve under way
  };
  // Solver state of a variable, by variable beside usage_ and visited_.
  static constexpr std::uint8_t kFixed = 1, kListed = 2;

  std::span<const LinkId> links_of(const Variable& x) const { return {link_ids_.data() + x.first_link, x.link_count}; }
  // The constraints the solve sees for `x`: its links, one per group.
  std::span<const LinkId> constraints_of(const Variable& x) const {
    return {constraint_ids_.data() + x.first_constraint, x.constraint_count};
  }
  void group_links();
  bool join_groups(VariableId v);
  void append_constraints(Variable& x);
  void group_capacity(LinkId l);
  void set_up_group(LinkId l);
  void mark_modified(LinkId l);
  void attach(VariableId v);
  void detach(VariableId v);
  void next_epoch();
  void set_up_component();
  void set_up_link(LinkId l);
  void discover(VariableId v);
  void reset_values();
  double nonlinear_capacity(Link& link);
  void find_saturated();
  void list_saturated_variables();
  void solve_links();
  void fix(VariableId v);
  void update_fat_pipe(LinkId l);
  void after_update(LinkId l);
  void refresh_stale();
  void drop_light(LinkId l);

  std::vector<Link> links_;
  std::vector<LinkState> link_states_;  // by link
  std::vector<Variable> variables_;
  std::vector<double> usage_;           // by variable: count / penalty, kept as they change
  std::vector<std::uint32_t> visited_;  // by variable: component search epoch
  std::vector<std::uint8_t> flags_;     // by variable: kFixed, kListed
  std::vector<LinkId> link_ids_;        // every variable's links, by Variable::first_link
  std::vector<std::uint32_t> slots_;    // beside link_ids_: its position in that link's `variables`
  std::vector<LinkId> modified_links_;
  // Links crossed by the same route classes (on a star, a node's link to
  // the switch and its NIC link) are one constraint of the solve, with the
  // smallest capacity of its links: the max-min values are the same, and
  // the solve walks half the incidences. A new class joins the groups
  // (join_groups()), or, if it splits one, every link is grouped again.
  std::vector<LinkId> group_of_;                        // by link: the link standing for its group
  std::vector<std::vector<LinkId>> members_;            // by standing link: its group, by link id
  std::vector<std::vector<LinkId>> nonlinear_members_;  // by standing link of a group: its NONLINEAR members
  std::vector<LinkId> constraint_ids_;                  // every variable's constraints, by Variable::first_constraint
  bool groups_stale_ = false;
  bool merge_links_ = true;
  std::uint32_t epoch_ = 0;
  // Scratch of one solve.
  std::vector<LinkId> stack_;  // links reached, not set up yet
  std::vector<VariableId> solved_;
  std::vector<VariableId> changed_;
  bool all_may_saturate_ = true;  // every link of the component may saturate
  // SimGrid's ConstraintLight, as two arrays: the links that may saturate and
  // their remaining / usage, which the search for the smallest scans.
  std::vector<LinkId> light_;
  std::vector<double> light_ratio_;
  std::vector<std::uint32_t> saturated_;  // positions in light_
  std::vector<LinkId> stale_;             // links whose remaining / usage changed in this round
  std::vector<VariableId> saturated_variables_;
  double min_usage_ = -1;
};

}  // namespace contend
