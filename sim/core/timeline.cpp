#include "sim/core/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace contend {

std::string_view activity_name(RankActivity a) {
  switch (a) {
    case RankActivity::Compute:
      return "compute";
    case RankActivity::Mpi:
      return "mpi";
    case RankActivity::Waiting:
      return "waiting";
  }
  return "compute";
}

Timeline::Timeline()
    : names_{"compute",  "sleep",    "waiting",  "MPI_Isend",   "MPI_Irecv",
             "MPI_Send", "MPI_Recv", "MPI_Wait", "MPI_Waitall", "MPI_Test"} {}

std::uint16_t Timeline::name_index(std::string_view name) {
  // A handful of names (the MPI calls a run makes): a linear search is enough.
  const auto found = std::find(names_.begin(), names_.end(), name);
  if (found != names_.end()) return static_cast<std::uint16_t>(found - names_.begin());
  names_.emplace_back(name);
  return static_cast<std::uint16_t>(names_.size() - 1);
}

std::uint32_t Timeline::add_resource(TimelineResource resource) {
  resources_.push_back(std::move(resource));
  return static_cast<std::uint32_t>(resources_.size() - 1);
}

void Timeline::sort() {
  std::stable_sort(spans_.begin(), spans_.end(), [](const TimelineSpan& a, const TimelineSpan& b) {
    return std::tie(a.rank, a.begin, a.order) < std::tie(b.rank, b.begin, b.order);
  });
  std::stable_sort(messages_.begin(), messages_.end(), [](const TimelineMessage& a, const TimelineMessage& b) {
    return std::tie(a.post, a.src, a.dst, a.received) < std::tie(b.post, b.src, b.dst, b.received);
  });
  std::stable_sort(loads_.begin(), loads_.end(), [](const ResourceLoadSample& a, const ResourceLoadSample& b) {
    return std::tie(a.resource, a.time) < std::tie(b.resource, b.time);
  });
}

std::int64_t to_nanoseconds(double seconds) { return std::llround(seconds * 1e9); }

}  // namespace contend
