#include "models/taulop/parameters.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/core/units.hpp"

namespace contend::taulop {
namespace {

constexpr std::string_view kSizeFunctionHelp =
    "a duration (2us), a linear form {intercept: 2us, per_byte: 0.1ns} or a table {8KiB: 10us, 64KiB: 40us}";
constexpr std::string_view kRatioFunctionHelp =
    "a number (6) or a table of numbers by message size {8KiB: 6, 64KiB: 4}";

double interpolate(double x, double x0, double y0, double x1, double y1) {
  return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

// A duration (or, for ratios, a plain number) >= 0.
double parse_value(const YamlField& field, bool is_duration) {
  const double v = is_duration ? field.as_duration() : field.as_number();
  if (v < 0) field.fail(is_duration ? "a duration >= 0" : "a number >= 0");
  return v;
}

SizeFunction parse_size_function(const YamlField& field, bool is_duration) {
  const std::string_view help = is_duration ? kSizeFunctionHelp : kRatioFunctionHelp;
  if (field.is_scalar()) return SizeFunction::constant(parse_value(field, is_duration));
  if (!field.is_map()) field.fail(help);
  if (is_duration && field.child("intercept").present()) {
    field.allow_only({"intercept", "per_byte"});
    const double a = parse_value(field.require("intercept", "a duration"), true);
    const double b = parse_value(field.require("per_byte", "a duration per byte such as 0.1ns"), true);
    return SizeFunction::linear(a, b);
  }
  std::vector<std::pair<double, double>> points;
  for (const auto& [key, value] : field.entries()) {
    const auto size = units::parse_size(key.as_string());
    if (!size) key.fail(is_duration ? "a message size (or intercept/per_byte)" : "a message size");
    points.emplace_back(static_cast<double>(*size), parse_value(value, is_duration));
  }
  if (points.empty()) field.fail(help);
  std::sort(points.begin(), points.end());
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (points[i].first == points[i - 1].first) field.fail_with("the same message size appears twice");
  }
  return SizeFunction::table(std::move(points));
}

// {P: value, ...} with P >= min_key, values >= 1.
CountFunction parse_count_function(const YamlField& field, int min_key, std::string_view what) {
  constexpr double min_value = 1;  // gamma >= 1 (eq. 7), a slowdown >= 1
  if (!field.is_map()) field.fail(what);
  std::map<int, double> points;
  for (const auto& [key, value] : field.entries()) {
    const int n = static_cast<int>(key.as_int(min_key, 1 << 30));
    const double v = value.as_number();
    if (v < min_value) value.fail("a number >= 1");
    if (!points.emplace(n, v).second) key.fail_with("the same count appears twice");
  }
  if (points.empty()) field.fail(what);
  return CountFunction(std::move(points));
}

ChannelParameters parse_channel(const YamlField& field) {
  if (!field.is_map()) field.fail("a mapping with o, L, gamma and optionally concurrency");
  field.allow_only({"o", "L", "gamma", "concurrency"});
  ChannelParameters c;
  c.o = parse_size_function(field.require("o", kSizeFunctionHelp), true);
  c.L = parse_size_function(field.require("L", kSizeFunctionHelp), true);
  // gamma^c(P): 1 <= gamma <= P - 1 (eq. 7) is not enforced beyond >= 1:
  // estimates may exceed the bound by noise.
  c.gamma = parse_count_function(field.require("gamma", "gamma^c(P) by NBFT size, such as {2: 1, 3: 1.11}"), 2,
                                 "gamma^c(P) by NBFT size P >= 2, such as {2: 1, 3: 1.11}");
  if (const auto conc = field.child("concurrency"); conc.present()) {
    c.concurrency = parse_count_function(conc, 1, "slowdown L(m,tau)/L(m,1) by tau >= 1, such as {1: 1, 4: 2.5}");
  }
  return c;
}

AlgorithmParameters parse_algorithm(const YamlField& field) {
  if (!field.is_map()) field.fail("a mapping with o0, o1, L0 and L1");
  field.allow_only({"o0", "o1", "L0", "L1"});
  AlgorithmParameters a;
  a.o0 = parse_size_function(field.require("o0", kSizeFunctionHelp), true);
  a.o1 = parse_size_function(field.require("o1", kSizeFunctionHelp), true);
  a.L0 = parse_size_function(field.require("L0", kSizeFunctionHelp), true);
  a.L1 = parse_size_function(field.require("L1", kSizeFunctionHelp), true);
  return a;
}

}  // namespace

SizeFunction SizeFunction::constant(double value) { return linear(value, 0); }

SizeFunction SizeFunction::linear(double intercept, double per_byte) {
  SizeFunction f;
  f.intercept_ = intercept;
  f.per_byte_ = per_byte;
  return f;
}

SizeFunction SizeFunction::table(std::vector<std::pair<double, double>> points) {
  SizeFunction f;
  f.points_ = std::move(points);
  return f;
}

double SizeFunction::operator()(double bytes) const {
  if (points_.empty()) return intercept_ + per_byte_ * bytes;
  if (points_.size() == 1) return points_.front().second;
  // The segment that holds `bytes`, or the end segment on its side.
  std::size_t i = 1;
  while (i + 1 < points_.size() && points_[i].first < bytes) ++i;
  const auto& [x0, y0] = points_[i - 1];
  const auto& [x1, y1] = points_[i];
  return std::max(0.0, interpolate(bytes, x0, y0, x1, y1));
}

double CountFunction::operator()(int n) const {
  const auto exact = points_.find(n);
  if (exact != points_.end()) return exact->second;
  if (points_.size() == 1) return points_.begin()->second;
  auto hi = points_.upper_bound(n);
  if (hi == points_.begin()) ++hi;  // below the first point: first segment extended
  if (hi == points_.end()) --hi;    // beyond the last: last segment extended
  const auto lo = std::prev(hi);
  return interpolate(n, lo->first, lo->second, hi->first, hi->second);
}

namespace {

constexpr std::array<BcastAlgorithmInfo, 6> kBcastAlgorithmTable = {{
    {BcastAlgorithm::Linear, "linear", 1, "linear"},
    {BcastAlgorithm::Chain, "chain", 3, "pipeline"},
    {BcastAlgorithm::KChain, "kchain", 2, "chain"},
    {BcastAlgorithm::SplitBinary, "split_binary", 4, "split_binary"},
    {BcastAlgorithm::Binary, "binary", 5, "binary"},
    {BcastAlgorithm::Binomial, "binomial", 6, "binomial"},
}};

}  // namespace

const BcastAlgorithmInfo& bcast_algorithm_info(BcastAlgorithm a) {
  for (const auto& info : kBcastAlgorithmTable) {
    if (info.algorithm == a) return info;
  }
  throw Error("internal error: unknown broadcast algorithm");
}

std::string_view bcast_algorithm_name(BcastAlgorithm a) { return bcast_algorithm_info(a).name; }

std::optional<BcastAlgorithm> modelled_bcast(std::string_view ompi_algorithm, int fanout) {
  if (ompi_algorithm == "chain" && fanout == 1) return BcastAlgorithm::Chain;
  for (const auto& info : kBcastAlgorithmTable) {
    if (info.ompi_name == ompi_algorithm) return info.algorithm;
  }
  return std::nullopt;
}

const std::vector<std::string>& bcast_algorithm_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (auto a : kBcastAlgorithms) n.emplace_back(bcast_algorithm_name(a));
    return n;
  }();
  return names;
}

std::optional<BcastAlgorithm> bcast_algorithm_by_name(std::string_view name) {
  for (auto a : kBcastAlgorithms) {
    if (bcast_algorithm_name(a) == name) return a;
  }
  return std::nullopt;
}

AlgorithmParameters Parameters::for_algorithm(BcastAlgorithm a) const {
  if (const auto it = bcast.find(a); it != bcast.end()) return it->second;
  return {channels[kSharedMemory].o, channels[kNetwork].o, channels[kSharedMemory].L, channels[kNetwork].L};
}

Parameters parse_parameters(const YamlField& section) {
  if (!section.present()) {
    section.fail_with(
        "the taulop model needs its parameters under models: taulop: in the platform file "
        "(channels, Q, ...; see models/taulop/README.md)");
  }
  if (!section.is_map()) section.fail("a mapping with segment_size, Q, channels and optionally bcast");
  section.allow_only({"source", "segment_size", "kchain_fanout", "Q", "channels", "bcast"});
  Parameters p;
  if (const auto s = section.child("source"); s.present()) p.source = s.as_string();
  if (const auto s = section.child("segment_size"); s.present()) {
    p.segment_size = s.as_size();
    if (p.segment_size == 0) s.fail("a segment size > 0");
  }
  if (const auto k = section.child("kchain_fanout"); k.present()) {
    p.kchain_fanout = static_cast<int>(k.as_int(2, 32));  // Open MPI clamps the chain fanout to 32
  }
  p.q = parse_size_function(section.require("Q", "Q(m), the ratio T^1_p2p / T^0_p2p (eq. 3)"), false);
  const YamlField q_field = section.child("Q");
  if (p.q(static_cast<double>(p.segment_size)) < 1) q_field.fail("Q(m_s) >= 1 (a network message is no faster)");

  const auto channels = section.require("channels", "shared_memory and network channel parameters");
  if (!channels.is_map()) channels.fail("a mapping with shared_memory and network");
  channels.allow_only({"shared_memory", "network"});
  p.channels[kSharedMemory] = parse_channel(channels.require("shared_memory", "the shared-memory channel (c = 0)"));
  p.channels[kNetwork] = parse_channel(channels.require("network", "the network channel (c = 1)"));

  if (const auto bcast = section.child("bcast"); bcast.present()) {
    if (!bcast.is_map()) bcast.fail("a mapping from algorithm name to {o0, o1, L0, L1}");
    bcast.allow_only(bcast_algorithm_names());
    for (const auto& [key, value] : bcast.entries()) {
      p.bcast[*bcast_algorithm_by_name(key.as_string())] = parse_algorithm(value);
    }
  }
  return p;
}

}  // namespace contend::taulop
