#pragma once
// Fitting the bi-directional multi-pair benchmark (Thune et al., Algorithm 1):
// for every level and every N, a least-squares line through the per-message
// time t(s) = tau + N s / BW_MP(N) over the measured sizes (Thune eq. (2)
// with the max-rate notation), giving the tabulated BW_MP(N) of Table I.
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "sim/core/platform.hpp"

namespace contend::calibrate {

// One line of the benchmark's raw CSV (calibrate/multipair/bench).
struct MultipairSample {
  Level level = Level::IntraSocket;
  std::string direction;  // "bi" or "uni"
  int ranks = 0;          // P
  int n = 0;              // competing receivers per socket or node
  std::uint64_t size = 0;
  int repeats = 0;
  double time = 0;  // the slowest rank's window, seconds
};

// Reads a raw CSV; errors name file:line:col.
std::vector<MultipairSample> read_multipair_csv(std::istream& in, const std::string& name);
std::vector<MultipairSample> read_multipair_csv(const std::string& path);

// Several raw CSVs; `sources` names, per level, the files that hold it
// (without their directories, comma-separated) for the platform's comment.
struct MultipairData {
  std::vector<MultipairSample> samples;
  std::map<Level, std::string> sources;
};
MultipairData read_multipair_csvs(const std::vector<std::string>& paths);

struct LinePoint {
  double size = 0;
  double time = 0;  // median over samples of window time / repeats
  int samples = 0;
};

// The fit for one N of one level.
struct MultipairFit {
  int n = 0;
  int ranks = 0;
  std::string direction;
  std::vector<LinePoint> points;  // by size
  double intercept = 0;           // seconds
  double slope = 0;               // seconds per byte
  double bandwidth = 0;           // BW_MP(N) = N / slope, B/s aggregate
  double r_squared = 0;
};

struct LevelFit {
  Level level = Level::IntraSocket;
  std::vector<MultipairFit> by_n;  // increasing N
  double tau = 0;                  // the intercept at N = 2 (Thune Sec. II-B), or the smallest N's
  int tau_n = 0;                   // the N whose intercept tau is
  bool tau_clamped = false;        // the intercept was negative and tau set to 0
  BandwidthTable table() const;    // {N: BW_MP(N)}; needs N = 1
};

// Median over samples per size, then one least-squares line per (level, N).
// Two series with the same level and N are an error, as is a series with
// fewer than two sizes or a time that does not grow with size.
std::map<Level, LevelFit> fit_multipair(const std::vector<MultipairSample>& samples);

// The fitted lines as CSV: level,N,P,direction,sizes,intercept_s,slope_s_per_byte,bandwidth_bytes_per_s,r_squared,tau_s.
std::string fits_csv(const std::map<Level, LevelFit>& fits);

// Ordinary least squares y = a + b x; returns {a, b, r^2}.
struct LineFit {
  double intercept, slope, r_squared;
};
LineFit least_squares(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace contend::calibrate
