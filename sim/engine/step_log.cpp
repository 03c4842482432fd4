#include "sim/engine/step_log.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <tuple>

#include "sim/core/limits.hpp"
#include "sim/core/units.hpp"

namespace contend {
namespace {

std::string flow_name(int src, int dst) { return fmt::format("{} -> {}", src, dst); }

}  // namespace

void StepLog::clock_advanced(double now) {
  report(instant_);
  instant_ = now;
}

void StepLog::finish(double now) {
  report(instant_);
  if (now != instant_) report(now);
}

void StepLog::report(double time) {
  if (too_long_) return;
  scratch_.clear();
  model_.moving_transfers(scratch_);
  std::map<TransferId, Flow> now;
  for (const auto& m : scratch_) {
    const Transfer& t = sink_.transfer(m.id);
    now[m.id] = Flow{t.src, t.dst, t.bytes, t.level, t.post_time, m.rate};
  }
  // What ended, started, or changed rate since the last report.
  using Line = std::tuple<int, int, double, std::string>;  // src, dst, post: the order of the lines
  std::vector<Line> ended, started;
  bool rates_changed = false;
  for (const auto& [id, was] : moving_) {
    auto it = now.find(id);
    if (it == now.end() || !it->second.same_message(was)) {
      ended.emplace_back(was.src, was.dst, was.post, fmt::format("  ended    {}", flow_name(was.src, was.dst)));
    } else if (it->second.rate != was.rate) {
      rates_changed = true;
    }
  }
  for (const auto& [id, flow] : now) {
    auto it = moving_.find(id);
    if (it == moving_.end() || !it->second.same_message(flow)) {
      started.emplace_back(
          flow.src, flow.dst, flow.post,
          fmt::format("  started  {}  {} B, {}", flow_name(flow.src, flow.dst), flow.bytes, level_name(flow.level)));
    }
  }
  moving_ = std::move(now);
  if (ended.empty() && started.empty() && !rates_changed) return;
  if (++instants_ > limits::kMaxStepInstants) {
    // Called from SimGrid's clock: no exception crosses it; simulate() throws.
    too_long_ = true;
    return;
  }
  std::sort(ended.begin(), ended.end());
  std::sort(started.begin(), started.end());
  fmt::print(out_, "t = {:.9f} s\n", time);
  for (const auto& line : ended) fmt::print(out_, "{}\n", std::get<3>(line));
  for (const auto& line : started) fmt::print(out_, "{}\n", std::get<3>(line));
  std::vector<const Flow*> flows;
  for (const auto& entry : moving_) flows.push_back(&entry.second);
  std::sort(flows.begin(), flows.end(), [](const Flow* a, const Flow* b) {
    return std::tie(a->src, a->dst, a->post) < std::tie(b->src, b->dst, b->post);
  });
  if (flows.empty()) fmt::print(out_, "  no flow moves\n");
  for (const Flow* f : flows)
    fmt::print(out_, "  rate     {}  {}\n", flow_name(f->src, f->dst), units::format_bandwidth(f->rate));
}

}  // namespace contend
