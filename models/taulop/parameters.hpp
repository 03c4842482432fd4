#pragma once
// The `models: taulop:` section of a platform file: tau-Lop channel
// parameters (Rico-Gallego et al.; Nuriyev et al. JPDC 2022 Sec. 4), the
// broadcast-model parameters gamma^c(P) and Q(m) (Sec. 4.1, 5.1) and the
// per-algorithm o/L estimates of Sec. 5.2 (Table 2). Every key:
// models/taulop/README.md.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/yaml_field.hpp"

namespace contend::taulop {

// A quantity that depends on the message size m (seconds, or a ratio for Q):
//   a number or duration          constant (Table 2 gives constants)
//   {intercept: X, per_byte: Y}   X + Y m
//   {SIZE: X, SIZE: X, ...}       measured points, piecewise linear in m;
//                                 beyond the ends, the end segments extended
//                                 (one point: constant)
class SizeFunction {
 public:
  SizeFunction() = default;
  static SizeFunction constant(double value);
  static SizeFunction linear(double intercept, double per_byte);
  static SizeFunction table(std::vector<std::pair<double, double>> points);  // sorted by size
  double operator()(double bytes) const;

 private:
  std::vector<std::pair<double, double>> points_;  // (size, value); empty = linear form
  double intercept_ = 0, per_byte_ = 0;
};

// A function of a count (gamma^c(P) over NBFT nodes, concurrency over tau),
// given at some integer points. Between points: linear interpolation. Beyond
// the last: the last two points extended (one point: constant), which keeps
// gamma^0 = 1 when the file gives gamma^0 = 1 (Nuriyev Sec. 6.2).
class CountFunction {
 public:
  CountFunction() = default;
  explicit CountFunction(std::map<int, double> points) : points_(std::move(points)) {}
  double operator()(int n) const;
  bool empty() const { return points_.empty(); }
  const std::map<int, double>& points() const { return points_; }

 private:
  std::map<int, double> points_;
};

enum Channel { kSharedMemory = 0, kNetwork = 1 };  // tau-Lop c = 0, 1

struct ChannelParameters {
  SizeFunction o;             // o^c(m), protocol overhead
  SizeFunction L;             // L^c(m), one transfer alone on the channel
  CountFunction gamma;        // gamma^c(P), NBFT of P nodes (eq. 8); gamma(2) = 1
  CountFunction concurrency;  // L^c(m, tau) / L^c(m, 1); absent: tau (one channel shared equally)
};

// The six Open MPI broadcast algorithms the paper models (Sec. 3), by the
// paper's names, with Open MPI's coll_tuned_bcast_algorithm id and its name
// in Open MPI (and in sim/collectives): linear = basic_linear (1), kchain =
// chain with fanout K (2), chain = pipeline (3), split_binary (4), binary =
// bintree (5), binomial (6). Knomial and the scatter-allgather broadcasts
// have no model.
enum class BcastAlgorithm { Linear, Chain, KChain, SplitBinary, Binary, Binomial };
inline constexpr std::array<BcastAlgorithm, 6> kBcastAlgorithms = {BcastAlgorithm::Linear, BcastAlgorithm::Chain,
                                                                   BcastAlgorithm::KChain, BcastAlgorithm::SplitBinary,
                                                                   BcastAlgorithm::Binary, BcastAlgorithm::Binomial};
struct BcastAlgorithmInfo {
  BcastAlgorithm algorithm;
  std::string_view name;       // the paper's, as in platform files and raw CSVs
  int ompi_id;                 // coll_tuned_bcast_algorithm
  std::string_view ompi_name;  // Open MPI's (and sim/collectives') name
};
const BcastAlgorithmInfo& bcast_algorithm_info(BcastAlgorithm a);
std::string_view bcast_algorithm_name(BcastAlgorithm a);  // "linear", "chain", "kchain", ...
const std::vector<std::string>& bcast_algorithm_names();
std::optional<BcastAlgorithm> bcast_algorithm_by_name(std::string_view name);
// The model of Open MPI's `ompi_algorithm` run with chain fanout `fanout`
// (Open MPI's chain of fanout 1 is the paper's chain), or nothing.
std::optional<BcastAlgorithm> modelled_bcast(std::string_view ompi_algorithm, int fanout);

// o^0, o^1, L^0, L^1 estimated for one algorithm (Nuriyev Sec. 5.2, Table 2).
struct AlgorithmParameters {
  SizeFunction o0, o1, L0, L1;
};

struct Parameters {
  std::string source;
  std::uint64_t segment_size = 8192;  // m_s (Sec. 6.1: 8 KB)
  int kchain_fanout = 4;              // K (Open MPI coll_tuned_bcast_algorithm_chain_fanout default)
  SizeFunction q;                     // Q(m) (eq. 3), used at m_s
  std::array<ChannelParameters, 2> channels;
  std::map<BcastAlgorithm, AlgorithmParameters> bcast;  // absent algorithms use the channels' o and L

  // The o/L the analytical model of `a` uses: its own estimate if the file
  // has one, else the channels' (the dynamic model's) parameters.
  AlgorithmParameters for_algorithm(BcastAlgorithm a) const;
};

// Parses and checks the section; errors carry file:line:col.
Parameters parse_parameters(const YamlField& section);

}  // namespace contend::taulop
