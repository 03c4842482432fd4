#pragma once
// Estimation of the broadcast model's parameters from taulop_bench's raw CSV
// (Nuriyev et al. 2022, Sec. 5):
//  - Sec. 5.1: T_NBFT^c(P, m_s) = the median over samples of the NBFT
//    experiment's time per call; gamma^c(P) = T^c(P) / T^c(2) (eq. (14)),
//    Q(m_s) = T^1(2) / T^0(2) (eq. (15));
//  - Sec. 5.2: per algorithm, one equation (19) per (P, m) from the
//    broadcast + flat gather experiment (median over samples), solved for
//    o^0, o^1, L^0, L^1 by Huber regression (huber.hpp).
// Raw CSV (taulop_bench; one header, '#' comments):
//   experiment,channel,algorithm,ompi_algorithm,segment,fanout,P,nodes,size,calls,sample,time_s
// experiment is nbft (channel 0 = shared memory, 1 = network) or
// bcast_gather (algorithm = the paper's name, ompi_algorithm = Open MPI's id);
// nodes = each rank's node index, ':'-separated; time = seconds per call.
#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "calibrate/taulop/fit/bcast_stages.hpp"
#include "calibrate/taulop/fit/huber.hpp"

namespace contend::calibrate {

inline constexpr std::string_view kTaulopCsvHeader =
    "experiment,channel,algorithm,ompi_algorithm,segment,fanout,P,nodes,size,calls,sample,time_s";

struct TaulopSample {
  bool nbft = false;                        // false: bcast_gather
  int channel = -1;                         // nbft only
  std::optional<BcastAlgorithm> algorithm;  // bcast_gather only
  std::uint64_t segment = 0;
  int fanout = 0;
  std::vector<int> nodes;  // P = its size
  std::uint64_t size = 0;
  int calls = 1;
  int sample = 0;
  double time = 0;  // seconds per call
};

std::vector<TaulopSample> read_taulop_csv(std::istream& in, const std::string& name);
std::vector<TaulopSample> read_taulop_csv(const std::string& path);
std::vector<TaulopSample> read_taulop_csvs(const std::vector<std::string>& paths);

struct NbftEstimate {
  NbftParameters parameters;
  std::map<int, double> time_shared, time_network;  // T_NBFT^c(P, m_s), seconds
  std::vector<std::string> notes;                   // what was clamped or assumed
};

// Eqs. (14)-(15). `q_override` replaces eq. (15) when no network NBFT was measured.
NbftEstimate estimate_nbft(const std::vector<TaulopSample>& samples, std::optional<double> q_override);

struct TaulopEquation {
  int procs = 0;
  std::uint64_t size = 0;
  int samples = 0;
  Coefficients lambda{};
  double measured = 0;   // median time of the experiment, seconds
  double predicted = 0;  // lambda . (o^0, o^1, L^0, L^1)
  double weight = 1;     // Huber weight of the final iteration
};

// Every experiment's equation (19) depends on the four parameters only
// through T_p2p^0(m_s) = o^0 + 2 L^0 and T_p2p^1(m_s) = o^1 + 2 L^0 + L^1
// (the L^0 column is always 2 (o^0 column + o^1 column), the L^1 column
// equals the o^1 column), so no experiment design tells o^0, o^1, L^0, L^1
// apart. We fit T^0 and T^1 (Huber, >= 0) and split them as the paper's
// Table 2 does: o^0 = 0, L^0 = T^0 / 2, o^1 = L^1 = (T^1 - T^0) / 2 (when
// T^1 < T^0: L^0 = T^1 / 2, o^0 = T^0 - T^1, o^1 = L^1 = 0). When no
// experiment crossed nodes, T^1 = Q(m_s) T^0 (eq. (3)).
struct AlgorithmFit {
  BcastAlgorithm algorithm = BcastAlgorithm::Binomial;
  int fanout = 0;
  double t0 = 0, t1 = 0;   // T_p2p^0(m_s), T_p2p^1(m_s), seconds
  bool t1_from_q = false;  // no network transfer in the experiments: T^1 = Q T^0
  double o0 = 0, o1 = 0, l0 = 0, l1 = 0;
  std::vector<TaulopEquation> equations;
  HuberFit huber;  // on (T^0, T^1), or T^0 alone when t1_from_q
};

// The Table 2 split of T^0 and T^1 into o^0, o^1, L^0, L^1 (see above).
void split_p2p_times(AlgorithmFit& fit);

struct TaulopCalibration {
  std::uint64_t segment = 0;
  NbftEstimate nbft;
  std::vector<AlgorithmFit> algorithms;  // in taulop::kBcastAlgorithms order, those measured
};

struct TaulopFitOptions {
  std::optional<double> q;    // replaces eq. (15) when no network NBFT was measured
  bool literal_eq18 = false;  // NbftParameters::literal_eq18
  // Residuals relative to each measured time (each equation divided by its
  // time) instead of the paper's absolute seconds: for machines where large
  // messages are much noisier than small ones (shared or oversubscribed).
  bool relative = false;
  HuberOptions huber;
};

TaulopCalibration fit_taulop(const std::vector<TaulopSample>& samples, const TaulopFitOptions& options = {});

// How far an algorithm's equations are from their measured times, relative:
// |predicted - measured| / measured, the median (the upper one of an even
// count) and the largest.
struct FitErrors {
  double median = 0, largest = 0;
};
FitErrors fit_errors(const AlgorithmFit& fit);

// Every equation as CSV: algorithm,P,size,samples,lambda_o0,...,measured,predicted,weight,o0,o1,L0,L1.
std::string fits_csv(const TaulopCalibration& c);

}  // namespace contend::calibrate
