#pragma once
// Aggregate bandwidth as a function of the number of competing processes,
// BW_MP(N) as tabulated in Thune et al., Table I. N = 1 is the single-pair
// bandwidth BW_SP. Between tabulated points the table interpolates linearly;
// after the last point it stays constant (the saturated BW_max); N below the
// first point is not allowed (the first point must be N = 1).
#include <utility>
#include <vector>

namespace contend {

class BandwidthTable {
 public:
  BandwidthTable() = default;
  // A constant bandwidth: BW_MP(N) = N * bw would be the max-rate model; a
  // single value here means the aggregate stays bw whatever N (one shared pipe).
  static BandwidthTable constant(double bandwidth);
  // Points sorted by N, first N == 1, N strictly increasing, bandwidths > 0.
  // Throws std::invalid_argument with a description otherwise (the parser
  // converts it into a located error).
  static BandwidthTable from_points(std::vector<std::pair<int, double>> points);

  // Aggregate bandwidth for n competing processes (n >= 1, real-valued so
  // that interpolation is available to models that need it).
  double aggregate(double n) const;
  // Bandwidth one process gets when n compete evenly: aggregate(n) / n.
  double per_process(double n) const { return aggregate(n) / n; }
  double single() const { return points_.front().second; }
  double max() const;
  bool is_constant() const { return points_.size() == 1; }
  const std::vector<std::pair<int, double>>& points() const { return points_; }

 private:
  std::vector<std::pair<int, double>> points_;
};

}  // namespace contend
