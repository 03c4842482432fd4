#include "sim/core/timeline_loads.hpp"

#include <algorithm>
#include <tuple>

namespace contend {

ResourceLoads::Id ResourceLoads::resource(std::string_view name, std::string_view unit) {
  auto [it, inserted] = ids_.try_emplace(std::string(name), static_cast<Id>(names_.size()));
  if (inserted) {
    names_.push_back(TimelineResource{std::string(name), std::string(unit)});
    last_set_.push_back(0);
  }
  return it->second;
}

void ResourceLoads::write_to(Timeline& timeline, double end) const {
  std::vector<std::uint32_t> index(names_.size());
  for (std::size_t r = 0; r < names_.size(); ++r) index[r] = timeline.add_resource(names_[r]);
  // By resource and time; within an instant in the order reported (a set()
  // after a change() of the same instant wins).
  std::vector<std::uint32_t> order(events_.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [this](std::uint32_t a, std::uint32_t b) {
    return std::tie(events_[a].resource, events_[a].time) < std::tie(events_[b].resource, events_[b].time);
  });
  std::size_t i = 0;
  while (i < order.size()) {
    const Id r = events_[order[i]].resource;
    double load = 0, written = 0;
    double last_time = 0;
    while (i < order.size() && events_[order[i]].resource == r) {
      const double time = events_[order[i]].time;
      // Every event of the instant, then one sample if the load changed. An
      // instant is a nanosecond, the writers' resolution (to_nanoseconds):
      // two samples a rounding error apart would print at one time.
      const std::int64_t instant = to_nanoseconds(time);
      while (i < order.size() && events_[order[i]].resource == r && to_nanoseconds(events_[order[i]].time) == instant) {
        const Event& e = events_[order[i]];
        load = e.delta ? load + e.value : e.value;
        ++i;
      }
      if (load != written) {
        timeline.add_load(index[r], time, load);
        written = load;
      }
      last_time = time;
    }
    if (written != 0) timeline.add_load(index[r], std::max(end, last_time), 0);
  }
}

}  // namespace contend
