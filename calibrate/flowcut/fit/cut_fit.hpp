#pragma once
// From measured conflict times to a flow-cut table (Martinasso & Mehaut
// RR-5910, Sec. 6.1) and into a platform file.
//
// Sec. 6.1's linear equation: two equal flows start together, the one with
// the smaller cut a ends first, after T1 = (1 + a) tau (tau: the
// contention-free time of the data, T(NC) less the latency L); the other,
// cut b, had moved T1 / (1 + b) of its data by then and moves the rest alone:
//   T2 = T1 + tau - T1 / (1 + b)   so   b = T1 / (tau - (T2 - T1)) - 1.
#include <string>
#include <utility>
#include <vector>

#include "models/flowcut/cut_table.hpp"

namespace contend::calibrate {

// One line of flowcut_bench's raw CSV.
struct RawTime {
  std::string conflict;
  int repetition = 0;
  int flow = 0;
  double bytes = 0;
  double seconds = 0;
};

// Reads the raw CSV (sim/core/csv: the columns above, any order; errors name
// file:line:col).
std::vector<RawTime> read_raw_csv(const std::string& path);

// Cuts (faster, slower) of two equal flows started together from their data
// times `fast` <= `slow` and the contention-free data time `tau`; clamped to
// [0, kMaxCut] (measurement noise, or a flow that did not move at all).
inline constexpr double kMaxCut = 100.0;
std::pair<double, double> cuts_of_two(double fast, double slow, double tau);

struct Calibration {
  FlowCutTable table;
  double latency = 0;  // one-way, 1 byte
  double tau = 0;      // contention-free data time of the benchmark's message
  double bytes = 0;
  int repetitions = 0;
};

// Medians over the repetitions, then the cuts of each conflict of
// conflicts.hpp. Throws contend::Error when a conflict is missing.
Calibration fit_calibration(const std::vector<RawTime>& raw);

// The `models: flowcut:` section (two-space indented) for `c`.
std::string flowcut_section(const Calibration& c, const std::string& source);

// `yaml` (the file `name`) with its models.flowcut section replaced by
// `section` (or added to `models:`, or a `models:` block appended):
// YamlText::set_entry. Comments and the other sections are kept as they are.
std::string replace_flowcut_section(const std::string& yaml, const std::string& section,
                                    const std::string& name = "platform");

// The section's source key when none is given: the benchmark's message and
// repetitions, and the raw file.
std::string default_source(const Calibration& c, const std::string& raw_path);

// The platform file `text` (named `name`) with `c` as its models.flowcut,
// checked: the result parses as a platform and its table as a flow-cut table.
std::string update_platform_flowcut(const std::string& text, const std::string& name, const Calibration& c,
                                    const std::string& source);

// The table as CSV (entry,value): latency_s, tau_s, then the cuts.
std::string cuts_csv(const Calibration& c);

}  // namespace contend::calibrate
