#include "sim/core/bandwidth_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace contend {

BandwidthTable BandwidthTable::constant(double bandwidth) { return from_points({{1, bandwidth}}); }

BandwidthTable BandwidthTable::from_points(std::vector<std::pair<int, double>> points) {
  if (points.empty()) throw std::invalid_argument("the table is empty");
  if (points.front().first != 1)
    throw std::invalid_argument("the first entry must be N = 1 (the single-pair bandwidth)");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!(points[i].second > 0)) {
      throw std::invalid_argument("bandwidth for N = " + std::to_string(points[i].first) + " must be positive");
    }
    if (i > 0 && points[i].first <= points[i - 1].first) {
      throw std::invalid_argument("N must increase strictly (N = " + std::to_string(points[i].first) +
                                  " follows N = " + std::to_string(points[i - 1].first) + ")");
    }
  }
  BandwidthTable table;
  table.points_ = std::move(points);
  return table;
}

double BandwidthTable::aggregate(double n) const {
  if (points_.empty()) throw std::logic_error("BandwidthTable used before being set");
  if (n <= points_.front().first) return points_.front().second;
  if (n >= points_.back().first) return points_.back().second;
  // First point with N > n; its predecessor has N <= n.
  auto hi = std::upper_bound(points_.begin(), points_.end(), n,
                             [](double value, const std::pair<int, double>& p) { return value < p.first; });
  auto lo = hi - 1;
  const double t = (n - lo->first) / static_cast<double>(hi->first - lo->first);
  return lo->second + t * (hi->second - lo->second);
}

double BandwidthTable::max() const {
  double best = 0;
  for (const auto& p : points_) best = std::max(best, p.second);
  return best;
}

}  // namespace contend
