// Names of operations and algorithms, --ompi and --coll parsing, and the
// choice between a forced algorithm and the fixed decision rules.
#include <fmt/format.h>

#include <charconv>
#include <numeric>

#include "sim/collectives/collectives.hpp"
#include "sim/collectives/decision.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

namespace contend::coll {
namespace {

struct OpInfo {
  CollectiveOp op;
  std::vector<std::string> algorithms;  // Open MPI id order (id = index + 1)
};

const std::vector<OpInfo>& op_table() {
  static const std::vector<OpInfo> table = {
      {CollectiveOp::bcast,
       {"linear", "chain", "pipeline", "split_binary", "binary", "binomial", "knomial", "scatter_allgather",
        "scatter_allgather_ring"}},
      {CollectiveOp::reduce, {"linear", "chain", "pipeline", "binary", "binomial", "in_order_binary", "rabenseifner"}},
      {CollectiveOp::allreduce,
       {"linear", "nonoverlapping", "recursive_doubling", "ring", "segmented_ring", "rabenseifner"}},
      {CollectiveOp::barrier, {"linear", "double_ring", "recursive_doubling", "bruck", "two_proc", "tree"}},
      {CollectiveOp::gather, {"linear", "binomial", "linear_sync"}},
      {CollectiveOp::gatherv, {"linear"}},
      {CollectiveOp::scatter, {"linear", "binomial", "linear_nb"}},
      {CollectiveOp::scatterv, {"linear"}},
      {CollectiveOp::allgather, {"linear", "bruck", "recursive_doubling", "ring", "neighbor", "two_proc"}},
      {CollectiveOp::allgatherv, {"default", "bruck", "ring", "neighbor", "two_proc"}},
      {CollectiveOp::alltoall, {"linear", "pairwise", "modified_bruck", "linear_sync", "two_proc"}},
      {CollectiveOp::alltoallv, {"linear", "pairwise"}},
      {CollectiveOp::reduce_scatter, {"non_overlapping", "recursive_halving", "ring", "butterfly"}},
  };
  return table;
}

const OpInfo& info(CollectiveOp op) {
  for (const OpInfo& i : op_table()) {
    if (i.op == op) return i;
  }
  throw Error("internal error: unknown collective operation");
}

std::uint64_t total(const std::vector<std::uint64_t>& v) {
  return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
}

// What Open MPI's fixed rule measures for this call.
std::uint64_t decision_bytes(const CollectiveCall& call, int comm_size) {
  switch (call.op) {
    case CollectiveOp::allgatherv:
      return comm_size > 0 ? total(call.counts) / static_cast<std::uint64_t>(comm_size) : 0;
    case CollectiveOp::reduce_scatter:
      return call.counts.empty() ? call.bytes * static_cast<std::uint64_t>(comm_size) : total(call.counts);
    default:
      return call.bytes;
  }
}

}  // namespace

std::vector<std::string> algorithm_names(CollectiveOp op) { return info(op).algorithms; }

std::string_view to_string(OmpiVersion v) { return v == OmpiVersion::v3_1 ? "3.1" : "4.1"; }

OmpiVersion parse_ompi_version(std::string_view text) {
  std::string_view t = text;
  if (!t.empty() && (t[0] == 'v' || t[0] == 'V')) t.remove_prefix(1);
  if (t == "3.1" || t == "3") return OmpiVersion::v3_1;
  if (t == "4.1" || t == "4") return OmpiVersion::v4_1;
  throw Error(fmt::format("unknown Open MPI version '{}'; expected 3.1 or 4.1", text));
}

void apply_coll_options(CollectiveSettings& settings, const std::vector<std::string>& options) {
  if (options.size() > limits::kMaxCollOptions) {
    throw LimitError(limits::exceeds(
        fmt::format("--coll given {} times", options.size()),
        fmt::format("{} --coll options (one per collective operation is enough)", limits::kMaxCollOptions)));
  }
  for (const std::string& option : options) apply_coll_option(settings, option);
}

void apply_coll_option(CollectiveSettings& settings, std::string_view option) {
  const auto eq = option.find('=');
  if (eq == std::string_view::npos) {
    throw Error(fmt::format("--coll '{}': expected OP=ALGORITHM[:SEGSIZE[:FANOUT]], e.g. bcast=chain:8192", option));
  }
  const CollectiveOp op = parse_collective_op(option.substr(0, eq));
  std::string_view rest = option.substr(eq + 1);
  std::string_view alg = rest, seg, fan;
  if (const auto colon = rest.find(':'); colon != std::string_view::npos) {
    alg = rest.substr(0, colon);
    seg = rest.substr(colon + 1);
    if (const auto second = seg.find(':'); second != std::string_view::npos) {
      fan = seg.substr(second + 1);
      seg = seg.substr(0, second);
    }
  }
  const std::vector<std::string>& names = info(op).algorithms;
  ForcedAlgorithm forced;
  int id = 0;
  const auto [end, ec] = std::from_chars(alg.data(), alg.data() + alg.size(), id);
  if (ec == std::errc{} && end == alg.data() + alg.size() && !alg.empty()) {
    if (id < 1 || id > static_cast<int>(names.size())) {
      throw Error(fmt::format("--coll '{}': {} algorithm id {} out of range 1..{} ({})", option, to_string(op), id,
                              names.size(), join(names)));
    }
    forced.algorithm = names[static_cast<std::size_t>(id - 1)];
  } else {
    for (const std::string& n : names) {
      if (alg == n) forced.algorithm = n;
    }
    if (forced.algorithm.empty()) {
      throw Error(fmt::format("--coll '{}': unknown {} algorithm '{}'{}; expected one of {}", option, to_string(op),
                              alg, did_you_mean(alg, names), join(names)));
    }
  }
  if (!seg.empty()) {
    const auto bytes = units::parse_size(seg);
    if (!bytes)
      throw Error(fmt::format("--coll '{}': bad segment size '{}'; expected {}", option, seg, units::kSizeHelp));
    forced.segment_bytes = *bytes;
  }
  if (!fan.empty()) {
    const auto [end, ec] = std::from_chars(fan.data(), fan.data() + fan.size(), forced.fanout);
    const int limit = forced.algorithm == "knomial" ? 1024 : 32;
    if (ec != std::errc{} || end != fan.data() + fan.size() ||
        forced.fanout < (forced.algorithm == "knomial" ? 2 : 1) || forced.fanout > limit) {
      throw Error(fmt::format("--coll '{}': bad fanout '{}'; expected an integer from {} to {}", option, fan,
                              forced.algorithm == "knomial" ? 2 : 1, limit));
    }
    if (forced.algorithm != "chain" && forced.algorithm != "knomial") {
      throw Error(
          fmt::format("--coll '{}': a fanout applies to chain and knomial only, not {}", option, forced.algorithm));
    }
  }
  settings.forced[op] = forced;
}

AlgorithmChoice choose_algorithm(const CollectiveCall& call, int comm_size, const CollectiveSettings& settings) {
  AlgorithmChoice choice;
  if (auto it = settings.forced.find(call.op); it != settings.forced.end()) {
    choice.algorithm = it->second.algorithm;
    choice.segment_bytes = it->second.segment_bytes;
    choice.forced = true;
  } else {
    const std::uint64_t bytes = decision_bytes(call, comm_size);
    const std::uint64_t count = call.element_bytes == 0 ? 0 : bytes / call.element_bytes;
    const FixedDecision d = call.op == CollectiveOp::bcast && settings.version == OmpiVersion::v3_1
                                ? ompi31_bcast_decision(comm_size, bytes, count)
                                : ompi41_fixed_decision(call.op, comm_size, bytes, count, call.commutative);
    choice.algorithm = info(call.op).algorithms.at(static_cast<std::size_t>(d.algorithm_id - 1));
    choice.segment_bytes = d.segment_bytes;
  }
  // Fan-outs: the fixed rules pass 0, which build_chain turns into 1; a
  // forced chain uses the MCA default (4). K-nomial always uses the radix.
  if (choice.algorithm == "chain") choice.fanout = choice.forced ? settings.chain_fanout : 1;
  if (choice.algorithm == "knomial") choice.fanout = settings.knomial_radix;
  if (auto it = settings.forced.find(call.op); it != settings.forced.end() && it->second.fanout > 0) {
    choice.fanout = it->second.fanout;
  }
  return choice;
}

std::string describe_choice(const CollectiveCall& call, int comm_size, const CollectiveSettings& settings) {
  const AlgorithmChoice c = choose_algorithm(call, comm_size, settings);
  // Only the size the rule measures is shown (none for the rules that
  // depend on the communicator size alone).
  const bool size_free = call.op == CollectiveOp::barrier || call.op == CollectiveOp::gatherv ||
                         call.op == CollectiveOp::scatterv || call.op == CollectiveOp::alltoallv;
  std::string text = size_free ? fmt::format("{} on {} ranks: {}", to_string(call.op), comm_size, c.algorithm)
                               : fmt::format("{} {} B on {} ranks: {}", to_string(call.op),
                                             decision_bytes(call, comm_size), comm_size, c.algorithm);
  if (c.segment_bytes > 0) text += fmt::format(", {} B segments", c.segment_bytes);
  if (c.fanout > 0) text += fmt::format(", fanout {}", c.fanout);
  text += c.forced ? " (forced)" : fmt::format(" (Open MPI {} fixed rule)", to_string(settings.version));
  return text;
}

}  // namespace contend::coll
