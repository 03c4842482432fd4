#include "validation/testbed/runner/runner_steps.hpp"

#include <limits>

#include "sim/core/error.hpp"

namespace contend::testbed {
namespace {

const std::string kSupported =
    " is not supported by the real pattern runner (it runs exchanges 'src dst bytes [@start]' separated by "
    "'---', 'bcast ROOT BYTES' and 'barrier')";

// One MPI call sends at most INT_MAX bytes (MPI_BYTE counts are ints).
PatternLimits mpi_limits() {
  PatternLimits limits;
  limits.max_message_bytes = std::numeric_limits<int>::max();
  limits.max_message_bytes_text = "2 GiB - 1 in one MPI call";
  return limits;
}

Step exchange_step(const ExchangeSpec& exchange, const SourceLocation& where) {
  if (!exchange.overlapped.empty()) {
    throw Error(exchange.overlapped.front().where, "step 'compute ... overlap'" + kSupported);
  }
  for (const auto& m : exchange.messages) {
    if (m.datatype != 0) {
      throw Error(where,
                  "this exchange sends a message of a non-contiguous datatype (type=), which the real pattern "
                  "runner does not send");
    }
  }
  return exchange.messages;
}

Step collective_step(const coll::CollectiveCall& call, const SourceLocation& where) {
  if (call.op == coll::CollectiveOp::bcast) return Bcast{call.root, call.bytes};
  if (call.op == coll::CollectiveOp::barrier) return Barrier{};
  throw Error(where, "step '" + std::string(coll::to_string(call.op)) + "'" + kSupported);
}

}  // namespace

RealPattern runner_steps(const Pattern& pattern) {
  RealPattern real;
  real.ranks = pattern.ranks;
  for (const auto& step : pattern.steps) {
    if (const auto* exchange = std::get_if<ExchangeSpec>(&step.content)) {
      real.steps.push_back(exchange_step(*exchange, step.where));
    } else if (const auto* call = std::get_if<coll::CollectiveCall>(&step.content)) {
      real.steps.push_back(collective_step(*call, step.where));
    } else {
      throw Error(step.where, "step 'compute'" + kSupported);
    }
  }
  return real;
}

RealPattern read_real_pattern(std::istream& in, const std::string& name) {
  return runner_steps(read_pattern(in, name, mpi_limits()));
}

RealPattern read_real_pattern(const std::string& path) { return runner_steps(read_pattern(path, mpi_limits())); }

}  // namespace contend::testbed
