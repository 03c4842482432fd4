#pragma once
// From netgauge_bench's raw PRTT(n, d, s) timings to LogGOPS parameters
// (Hoefler et al.'s Netgauge method; Bacon et al., EuroMPI 2023, Sec. 3):
//
//   per size s (medians of the repetitions):
//     gap(s)  = (PRTT(n,0,s) - PRTT(1,0,s)) / (n - 1)        = g + G s
//     o_s^(s) = (PRTT(n,d,s) - PRTT(1,0,s)) / (n - 1) - d
//     o_r^(s) = the server's n - 1 timed receives / (n - 1)
//   the protocol switch: a changepoint of contiguous PRTT(1,0,s) (line_fit.hpp);
//   per protocol range (eager below the switch, rendezvous from it):
//     g, G      = line of gap(s) (contiguous data; the network's)
//     o_s, O_s  = line of o_s^(s), per datatype (Bacon Sec. 3.1)
//     o_r, O_r  = line of o_r^(s), per datatype
//     L         = median over the range's contiguous sizes of
//                 PRTT(1,0,s)/2 - max(o_s + O_s s, g + G s) - (o_r + O_r s)
// Netgauge itself reports L = PRTT(1,0,1)/2, which still holds both
// overheads (reference/calibration-methods.md); Bacon's model formula adds
// the overheads to L again, so contend takes the part of the one-way time
// the overheads and the gap do not explain (kept as netgauge_L for reference).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/netgauge/fit/line_fit.hpp"

namespace contend::calibrate {

// One row of the raw CSV.
struct NetgaugeSample {
  std::string datatype;
  std::uint64_t bytes = 0;
  std::string quantity;  // prtt, orecv, pingpong, pingpong_median
  int n = 1;
  double delay = 0;
  double time = 0;
};

// Reads a raw CSV (sim/core/csv); errors name file:line:col.
std::vector<NetgaugeSample> read_netgauge_csv(const std::string& path);
std::vector<NetgaugeSample> read_netgauge_csvs(const std::vector<std::string>& paths);

// The medians of one (datatype, size).
struct SizeEstimate {
  std::uint64_t bytes = 0;
  int n = 0;
  double delay = 0;
  double prtt1 = 0, prttn = 0, prttnd = 0;  // PRTT(1,0,s), PRTT(n,0,s), PRTT(n,d,s)
  double orecv = 0;                         // sum of the n - 1 timed receives
  double pingpong = 0;                      // one round trip: a block's mean (Bacon Sec. 4.3)
  double pingpong_median = 0;               // one round trip: a block's median (0 if not measured)
  double gap() const { return (prttn - prtt1) / (n - 1); }
  double send_overhead() const { return (prttnd - prtt1) / (n - 1) - delay; }
  double receive_overhead() const { return orecv / (n - 1); }
};

// How the repetitions of one quantity become one value: the median (Netgauge,
// Bacon), or the minimum: on a machine shared with other work, preemptions
// only ever add time, and when more than half of the long samples (PRTT(n,d,s)
// of large non-contiguous messages spans milliseconds) caught one, the
// median holds it too.
enum class Statistic { Median, Minimum };

// Per datatype, sizes in increasing order. Throws when a size lacks a quantity.
std::map<std::string, std::vector<SizeEstimate>> estimate_sizes(const std::vector<NetgaugeSample>& samples,
                                                                Statistic statistic = Statistic::Median);

struct OverheadFit {
  LineFit send;     // o_s (intercept), O_s (slope)
  LineFit receive;  // o_r, O_r
  std::size_t sizes = 0;
  bool borrowed = false;  // no sizes of this datatype in this range: the other range's fit
};

struct ProtocolFit {
  std::uint64_t first_bytes = 0, last_bytes = 0;  // contiguous sizes of the range
  std::size_t sizes = 0;
  LineFit gap;  // g (intercept), G (slope)
  double L = 0;
  bool L_clamped = false;  // the residual was negative: L set to 0
  std::map<std::string, OverheadFit> datatypes;
};

// How the protocol switch is chosen.
struct SwitchChoice {
  enum class Mode { Detect, None, Given } mode = Mode::Detect;
  std::uint64_t bytes = 0;  // Given: the first rendezvous size
  SwitchOptions detection;
};

struct LogGopsFit {
  std::vector<Changepoint> changepoints;  // of contiguous PRTT(1,0,s), all found
  std::vector<std::uint64_t> changepoint_bytes;
  std::optional<std::uint64_t> switch_bytes;  // first rendezvous size; none: one range
  ProtocolFit eager, rendezvous;              // without a switch both hold the one range
  double netgauge_L = 0;                      // PRTT(1,0,s_min)/2, Netgauge's L
};

LogGopsFit fit_loggops(const std::map<std::string, std::vector<SizeEstimate>>& estimates, const SwitchChoice& choice);

// Bacon et al. Sec. 3.1: 2(max(o_s + O_s k, g + G k) + L + O_r k + o_r).
double model_round_trip(const ProtocolFit& range, const std::string& datatype, double k);

// The fitted parameters as CSV: range,first_bytes,last_bytes,datatype,L_s,g_s,G_s_per_byte,o_s_s,O_s_s_per_byte,o_r_s,O_r_s_per_byte,switch_bytes,netgauge_L_s.
std::string fits_csv(const LogGopsFit& fit);
// The per-size estimates, ping-pong and model round trip as CSV.
std::string sizes_csv(const std::map<std::string, std::vector<SizeEstimate>>& estimates, const LogGopsFit& fit);

}  // namespace contend::calibrate
