#include "sim/core/collective_call.hpp"

#include <fmt/format.h>

#include <array>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend::coll {
namespace {

struct OpName {
  CollectiveOp op;
  const char* name;
};

constexpr std::array<OpName, 13> kOpNames = {{
    {CollectiveOp::bcast, "bcast"},
    {CollectiveOp::reduce, "reduce"},
    {CollectiveOp::allreduce, "allreduce"},
    {CollectiveOp::barrier, "barrier"},
    {CollectiveOp::gather, "gather"},
    {CollectiveOp::gatherv, "gatherv"},
    {CollectiveOp::scatter, "scatter"},
    {CollectiveOp::scatterv, "scatterv"},
    {CollectiveOp::allgather, "allgather"},
    {CollectiveOp::allgatherv, "allgatherv"},
    {CollectiveOp::alltoall, "alltoall"},
    {CollectiveOp::alltoallv, "alltoallv"},
    {CollectiveOp::reduce_scatter, "reduce_scatter"},
}};

}  // namespace

const std::vector<CollectiveOp>& all_collective_ops() {
  static const std::vector<CollectiveOp> ops = [] {
    std::vector<CollectiveOp> v;
    for (const OpName& o : kOpNames) v.push_back(o.op);
    return v;
  }();
  return ops;
}

std::string_view to_string(CollectiveOp op) {
  for (const OpName& o : kOpNames) {
    if (o.op == op) return o.name;
  }
  throw Error("internal error: unknown collective operation");
}

CollectiveOp parse_collective_op(std::string_view name) {
  std::vector<std::string> names;
  for (const OpName& o : kOpNames) {
    if (name == o.name) return o.op;
    names.emplace_back(o.name);
  }
  throw Error(
      fmt::format("unknown collective '{}'{}; expected one of {}", name, did_you_mean(name, names), join(names)));
}

std::string summary(const CollectiveCall& call) {
  const auto name = to_string(call.op);
  switch (call.op) {
    case CollectiveOp::barrier:
      return "barrier";
    case CollectiveOp::bcast:
    case CollectiveOp::reduce:
    case CollectiveOp::gather:
    case CollectiveOp::scatter:
      return fmt::format("{} of {} B, root {}", name, call.bytes, call.root);
    case CollectiveOp::gatherv:
    case CollectiveOp::scatterv:
      return fmt::format("{} of {} blocks, root {}", name, call.counts.size(), call.root);
    case CollectiveOp::allgatherv:
    case CollectiveOp::alltoallv:
      return fmt::format("{} of {} blocks", name, call.counts.size());
    case CollectiveOp::reduce_scatter:
      if (!call.counts.empty()) return fmt::format("{} of {} blocks", name, call.counts.size());
      return fmt::format("{} of {} B", name, call.bytes);
    default:
      return fmt::format("{} of {} B", name, call.bytes);
  }
}

}  // namespace contend::coll
