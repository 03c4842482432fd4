#include "calibrate/taulop/fit/taulop_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <tuple>

#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/text.hpp"

namespace contend::calibrate {
namespace {

CsvColumns raw_columns() {
  return CsvColumns{.required = {"experiment", "channel", "algorithm", "ompi_algorithm", "segment", "fanout", "P",
                                 "nodes", "size", "calls", "sample", "time_s"},
                    .former_names = {{"time_s", "time"}},
                    .header_error = [](std::string_view header) {
                      return "expected the header '" + std::string(kTaulopCsvHeader) + "', got '" +
                             std::string(header) + "'";
                    }};
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto a : taulop::kBcastAlgorithms) names.emplace_back(bcast_algorithm_info(a).name);
  return names;
}

// "0:0:1:1": the node index of each rank.
std::vector<int> node_list(const CsvRow& row) {
  std::vector<int> nodes;
  const std::string_view text = row.text("nodes");
  std::size_t begin = 0;
  while (true) {
    const auto colon = text.find(':', begin);
    const auto item =
        trim(text.substr(begin, colon == std::string_view::npos ? std::string_view::npos : colon - begin));
    int node = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), node);
    if (ec != std::errc{} || ptr != item.data() + item.size() || node < 0) {
      row.fail("nodes", "nodes: expected a number >= 0, got '" + std::string(item) + "'");
    }
    nodes.push_back(node);
    if (colon == std::string_view::npos) return nodes;
    begin = colon + 1;
  }
}

TaulopSample parse_sample(const CsvRow& row) {
  TaulopSample s;
  const std::string& experiment = row.text("experiment");
  if (experiment == "nbft") {
    s.nbft = true;
    s.channel = row.at_least<int>("channel", 0);
    if (s.channel > 1) row.fail("channel", "channel: expected 0 (shared memory) or 1 (network)");
  } else if (experiment == "bcast_gather") {
    const std::string& name = row.text("algorithm");
    s.algorithm = taulop::bcast_algorithm_by_name(name);
    if (!s.algorithm) {
      row.fail("algorithm", "algorithm: unknown '" + name + "'" + did_you_mean(name, algorithm_names()) +
                                "; expected one of: " + join(algorithm_names()));
    }
    const int id = row.at_least<int>("ompi_algorithm", 1);
    if (id != bcast_algorithm_info(*s.algorithm).ompi_id) {
      row.fail("ompi_algorithm", "ompi_algorithm: " + name + " is Open MPI's algorithm " +
                                     std::to_string(bcast_algorithm_info(*s.algorithm).ompi_id) + ", got " +
                                     std::to_string(id));
    }
  } else {
    row.fail("experiment", "experiment: expected 'nbft' or 'bcast_gather', got '" + experiment + "'");
  }
  s.segment = row.at_least<std::uint64_t>("segment", 1);
  s.fanout = s.nbft ? 0 : row.at_least<int>("fanout", 1);
  const int procs = row.at_least<int>("P", 2);
  s.nodes = node_list(row);
  if (static_cast<int>(s.nodes.size()) != procs) {
    row.fail("nodes", "nodes: expected one node index per rank (" + std::to_string(procs) + "), got " +
                          std::to_string(s.nodes.size()));
  }
  s.size = row.at_least<std::uint64_t>("size", 1);
  s.calls = row.at_least<int>("calls", 1);
  s.sample = row.at_least<int>("sample", 0);
  s.time = row.at_least<double>("time_s", 0.0);
  if (!(s.time > 0)) row.fail("time_s", "time_s: expected a positive number of seconds");
  return s;
}

std::vector<TaulopSample> samples_of(const CsvFile& csv) {
  std::vector<TaulopSample> samples;
  for (const auto& row : csv.rows()) samples.push_back(parse_sample(row));
  return samples;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::uint64_t common_segment(const std::vector<TaulopSample>& samples) {
  if (samples.empty()) throw Error("no samples: the raw CSVs hold no data rows");
  const std::uint64_t segment = samples.front().segment;
  for (const auto& s : samples) {
    if (s.segment != segment) {
      throw Error("the samples use two segment sizes (" + std::to_string(segment) + " and " +
                  std::to_string(s.segment) + " bytes); the model has one m_s: calibrate one at a time");
    }
  }
  return segment;
}

AlgorithmFit fit_algorithm(BcastAlgorithm algorithm, const std::vector<const TaulopSample*>& rows,
                           const NbftParameters& nbft, const TaulopFitOptions& options) {
  AlgorithmFit fit;
  fit.algorithm = algorithm;
  fit.fanout = rows.front()->fanout;
  const std::string name(bcast_algorithm_info(algorithm).name);
  std::map<std::tuple<int, std::uint64_t, std::vector<int>>, std::vector<double>> groups;
  for (const auto* r : rows) {
    if (r->fanout != fit.fanout) {
      throw Error(name + ": samples with two chain fanouts (" + std::to_string(fit.fanout) + " and " +
                  std::to_string(r->fanout) + "); keep one");
    }
    groups[{static_cast<int>(r->nodes.size()), r->size, r->nodes}].push_back(r->time);
  }
  if (groups.size() < 2) {
    throw Error(name + ": needs experiments with at least two (P, m) pairs, got " + std::to_string(groups.size()));
  }
  for (const auto& [key, times] : groups) {
    TaulopEquation eq;
    eq.procs = std::get<0>(key);
    eq.size = std::get<1>(key);
    eq.samples = static_cast<int>(times.size());
    eq.measured = median(times);
    const Experiment experiment{algorithm, eq.size, rows.front()->segment, fit.fanout, std::get<2>(key)};
    eq.lambda = experiment_coefficients(experiment, nbft);
    // T^0 and T^1 carry everything (see AlgorithmFit); check that the equations have that form.
    const double a = eq.lambda[0], b = eq.lambda[1];
    if (std::abs(eq.lambda[2] - 2 * (a + b)) > 1e-9 * (a + b) || std::abs(eq.lambda[3] - b) > 1e-9 * (a + b)) {
      throw Error("internal error: an equation is not of the form a T^0 + b T^1");
    }
    fit.equations.push_back(eq);
  }
  fit.t1_from_q =
      std::all_of(fit.equations.begin(), fit.equations.end(), [](const auto& eq) { return eq.lambda[1] == 0; });
  const auto n = static_cast<Eigen::Index>(fit.equations.size());
  Eigen::MatrixXd design(n, fit.t1_from_q ? 1 : 2);
  Eigen::VectorXd t(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& eq = fit.equations[static_cast<std::size_t>(i)];
    const double scale = options.relative ? 1 / eq.measured : 1.0;
    design(i, 0) = scale * eq.lambda[0];
    if (!fit.t1_from_q) design(i, 1) = scale * eq.lambda[1];
    t[i] = scale * eq.measured;
  }
  fit.huber = huber_regression(design, t, options.huber);
  fit.t0 = fit.huber.coefficients[0];
  fit.t1 = fit.t1_from_q ? nbft.q * fit.t0 : fit.huber.coefficients[1];
  split_p2p_times(fit);
  for (std::size_t k = 0; k < fit.equations.size(); ++k) {
    auto& eq = fit.equations[k];
    eq.predicted = eq.lambda[0] * fit.o0 + eq.lambda[1] * fit.o1 + eq.lambda[2] * fit.l0 + eq.lambda[3] * fit.l1;
    eq.weight = fit.huber.weights[static_cast<Eigen::Index>(k)];
  }
  return fit;
}

}  // namespace

void split_p2p_times(AlgorithmFit& fit) {
  if (fit.t1 >= fit.t0) {
    fit.o0 = 0;
    fit.l0 = fit.t0 / 2;
    fit.o1 = fit.l1 = (fit.t1 - fit.t0) / 2;
  } else {
    fit.l0 = fit.t1 / 2;
    fit.o0 = fit.t0 - fit.t1;
    fit.o1 = fit.l1 = 0;
  }
}

std::vector<TaulopSample> read_taulop_csv(std::istream& in, const std::string& name) {
  return samples_of(CsvFile::read(in, name, raw_columns()));
}

std::vector<TaulopSample> read_taulop_csv(const std::string& path) {
  return samples_of(CsvFile::read(path, raw_columns()));
}

std::vector<TaulopSample> read_taulop_csvs(const std::vector<std::string>& paths) {
  return read_all(paths, [](const std::string& path) { return read_taulop_csv(path); });
}

NbftEstimate estimate_nbft(const std::vector<TaulopSample>& samples, std::optional<double> q_override) {
  NbftEstimate e;
  std::map<int, std::vector<double>> by_procs[2];
  for (const auto& s : samples) {
    if (s.nbft) by_procs[s.channel][static_cast<int>(s.nodes.size())].push_back(s.time);
  }
  for (int c = 0; c < 2; ++c) {
    auto& times = c == 0 ? e.time_shared : e.time_network;
    for (const auto& [p, t] : by_procs[c]) times[p] = median(t);
  }
  if (!e.time_shared.count(2)) {
    throw Error(
        "no NBFT experiment over shared memory with P = 2 (experiment nbft, channel 0): gamma^0 and Q need T_NBFT^0(2, "
        "m_s)");
  }
  // Eq. (14), within eq. (7)'s bounds 1 <= gamma^c(P) <= P - 1.
  for (int c = 0; c < 2; ++c) {
    const auto& times = c == 0 ? e.time_shared : e.time_network;
    auto& gamma = c == 0 ? e.parameters.gamma_shared : e.parameters.gamma_network;
    if (times.empty()) continue;
    if (!times.count(2)) throw Error("the network NBFT experiment lacks P = 2, the reference of eq. (14)");
    for (const auto& [p, t] : times) {
      const double raw = t / times.at(2);
      const double kept = std::clamp(raw, 1.0, static_cast<double>(std::max(1, p - 1)));
      if (kept != raw) {
        char note[160];
        std::snprintf(note, sizeof note, "gamma^%d(%d) measured %.4g, outside eq. (7)'s [1, %d]: set to %.4g", c, p,
                      raw, p - 1, kept);
        e.notes.emplace_back(note);
      }
      gamma[p] = kept;
    }
  }
  if (q_override) {
    if (!(*q_override > 0)) throw Error("Q must be positive");
    e.parameters.q = *q_override;
    e.notes.push_back("Q(m_s) given, not measured");
  } else if (e.time_network.count(2)) {
    e.parameters.q = e.time_network.at(2) / e.time_shared.at(2);  // eq. (15)
    if (e.parameters.q <= 1) {
      e.notes.push_back("Q(m_s) = " + std::to_string(e.parameters.q) +
                        " <= 1: the network NBFT was not slower than shared memory (eq. (3) assumes Q > 1)");
    }
  } else {
    throw Error(
        "no NBFT experiment over the network with P = 2 (experiment nbft, channel 1): eq. (15) needs it for Q(m_s); "
        "measure it or give Q");
  }
  return e;
}

TaulopCalibration fit_taulop(const std::vector<TaulopSample>& samples, const TaulopFitOptions& options) {
  TaulopCalibration c;
  c.segment = common_segment(samples);
  c.nbft = estimate_nbft(samples, options.q);
  c.nbft.parameters.literal_eq18 = options.literal_eq18;
  for (const auto a : taulop::kBcastAlgorithms) {
    const auto& info = bcast_algorithm_info(a);
    std::vector<const TaulopSample*> rows;
    for (const auto& s : samples) {
      if (!s.nbft && s.algorithm == info.algorithm) rows.push_back(&s);
    }
    if (!rows.empty()) c.algorithms.push_back(fit_algorithm(info.algorithm, rows, c.nbft.parameters, options));
  }
  if (c.algorithms.empty())
    throw Error("no broadcast experiment (experiment bcast_gather) in the samples: nothing to fit");
  for (const auto& f : c.algorithms) {
    if (!std::isfinite(f.o0) || !std::isfinite(f.o1) || !std::isfinite(f.l0) || !std::isfinite(f.l1)) {
      throw Error(std::string(bcast_algorithm_info(f.algorithm).name) + ": the fit did not give finite parameters");
    }
  }
  return c;
}

FitErrors fit_errors(const AlgorithmFit& fit) {
  std::vector<double> errors;
  for (const auto& eq : fit.equations) errors.push_back(std::abs(eq.predicted - eq.measured) / eq.measured);
  std::sort(errors.begin(), errors.end());
  return FitErrors{errors[errors.size() / 2], errors.back()};
}

std::string fits_csv(const TaulopCalibration& c) {
  std::string out =
      "algorithm,P,size_bytes,samples,lambda_o0,lambda_o1,lambda_L0,lambda_L1,measured_s,predicted_s,weight,o0_s,o1_s,"
      "L0_s,L1_s\n";
  for (const auto& f : c.algorithms) {
    for (const auto& eq : f.equations) {
      out +=
          fmt::format("{},{},{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.6f},{:.9g},{:.9g},{:.9g},{:.9g}\n",
                      bcast_algorithm_info(f.algorithm).name, eq.procs, eq.size, eq.samples, eq.lambda[0], eq.lambda[1],
                      eq.lambda[2], eq.lambda[3], eq.measured, eq.predicted, eq.weight, f.o0, f.o1, f.l0, f.l1);
    }
  }
  return out;
}

}  // namespace contend::calibrate
