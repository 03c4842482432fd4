#pragma once
// The load of contended resources over time, as the models report it while
// a timeline is recorded (docs/timelines.md, "Resource load"): the counter
// tracks of the Chrome trace and the Paje variables.
//
// A model names a resource once (resource(): the short stable names of
// sim/core/attribution.hpp, e.g. "nic:node0/in", "staircase:node0/socket1")
// and then either sets its load at a time (set(): in time order, as a model
// that knows the count now reports it) or changes it by a delta (change():
// in any order, as a model that knows a flow's end when it starts reports
// it). write_to() turns that into the timeline's samples: one per instant
// (a nanosecond, the writers' resolution) at which the load changed (the
// last value of the instant; no two consecutive samples with the same
// load), every resource back to 0 at the end of the run at the latest.
//
// Cost: a name is looked up once; set() and change() append 24 bytes (set()
// nothing when the load did not change), without allocating per event
// beyond the vector's growth.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/core/timeline.hpp"

namespace contend {

class ResourceLoads {
 public:
  using Id = std::uint32_t;

  // The resource named `name` (created the first time; `unit` says what its
  // load counts: "flows", "processes", "transfers", "messages").
  Id resource(std::string_view name, std::string_view unit);
  // From `time` on, `r` has load `load`. Calls for one resource come in time order.
  void set(Id r, double time, double load) {
    double& last = last_set_[r];
    if (last == load) return;
    last = load;
    events_.push_back({time, load, r, false});
  }
  // From `time` on, the load of `r` is `delta` more. Any order.
  void change(Id r, double time, double delta) { events_.push_back({time, delta, r, true}); }

  std::size_t resource_count() const { return names_.size(); }

  // Appends the resources and their samples to `timeline`; a resource whose
  // load is not 0 at `end` (the run's end) gets a last sample of 0 there.
  void write_to(Timeline& timeline, double end) const;

 private:
  struct Event {
    double time;
    double value;  // the load (set) or its change (change)
    Id resource;
    bool delta;
  };
  std::vector<TimelineResource> names_;
  std::unordered_map<std::string, Id> ids_;
  std::vector<double> last_set_;  // by resource: the load last set()
  std::vector<Event> events_;
};

}  // namespace contend
