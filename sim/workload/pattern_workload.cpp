#include "sim/workload/pattern_workload.hpp"

#include <algorithm>

#include "sim/engine/mpi.hpp"
#include "sim/workload/collective_step.hpp"

namespace contend {
namespace {

// Compressed rows: for each rank, the indices of its messages in file order.
void build_rows(const std::vector<PatternMessage>& messages, int ranks, bool by_source,
                std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& index) {
  offsets.assign(static_cast<std::size_t>(ranks) + 1, 0);
  for (const auto& m : messages) ++offsets[static_cast<std::size_t>(by_source ? m.src : m.dst) + 1];
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks); ++r) offsets[r + 1] += offsets[r];
  index.assign(messages.size(), 0);
  std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (std::uint32_t i = 0; i < messages.size(); ++i) {
    const auto r = static_cast<std::size_t>(by_source ? messages[i].src : messages[i].dst);
    index[fill[r]++] = i;
  }
}

void run_compute(const ComputeSpec& compute, Mpi& mpi) {
  if (!compute.ranks.empty() && !std::binary_search(compute.ranks.begin(), compute.ranks.end(), mpi.rank())) return;
  if (compute.unit == ComputeSpec::Unit::Seconds) {
    mpi.compute_seconds(compute.amount);
  } else {
    mpi.compute(compute.amount);
  }
}

class ComputeStep final : public PatternStep {
 public:
  explicit ComputeStep(const ComputeSpec& compute) : compute_(compute) {}
  void run(Mpi& mpi) const override { run_compute(compute_, mpi); }

 private:
  const ComputeSpec& compute_;
};

// Algorithm 2 (see pattern_workload.hpp).
class ExchangeStep final : public PatternStep {
 public:
  ExchangeStep(int ranks, const ExchangeSpec& exchange, const std::vector<Datatype>& datatypes)
      : exchange_(exchange), datatypes_(datatypes) {
    build_rows(exchange_.messages, ranks, true, out_offsets_, out_index_);
    build_rows(exchange_.messages, ranks, false, in_offsets_, in_index_);
  }

  void run(Mpi& mpi) const override {
    const auto& messages = exchange_.messages;
    const auto r = static_cast<std::size_t>(mpi.rank());
    const double begin = mpi.now();
    std::vector<DatatypeId> types;
    types.reserve(datatypes_.size());
    for (const auto& d : datatypes_) types.push_back(mpi.datatype(d));
    std::vector<RequestId> sends, recvs;
    std::vector<std::uint32_t> delayed;
    sends.reserve(out_offsets_[r + 1] - out_offsets_[r]);
    recvs.reserve(in_offsets_[r + 1] - in_offsets_[r]);
    mpi.reserve_requests(sends.capacity() + recvs.capacity());
    for (auto i = out_offsets_[r]; i < out_offsets_[r + 1]; ++i) {
      const auto& m = messages[out_index_[i]];
      if (m.start > 0) {
        delayed.push_back(out_index_[i]);
      } else {
        sends.push_back(mpi.isend(m.dst, m.bytes, 0, Mpi::kCommWorld, types[m.datatype]));
      }
    }
    // The rank's incoming messages lie scattered over the step (the file
    // is in sender order): copied out first, in a loop whose loads do not
    // depend on each other and so overlap, rather than one cache miss
    // after another between the receives' posts. Freed before the waits:
    // every rank waits at once.
    {
      std::vector<PatternMessage> incoming;
      incoming.reserve(recvs.capacity());
      for (auto i = in_offsets_[r]; i < in_offsets_[r + 1]; ++i) incoming.push_back(messages[in_index_[i]]);
      for (const auto& m : incoming) recvs.push_back(mpi.irecv(m.src, m.bytes, 0, Mpi::kCommWorld, types[m.datatype]));
    }
    std::stable_sort(delayed.begin(), delayed.end(),
                     [&messages](std::uint32_t a, std::uint32_t b) { return messages[a].start < messages[b].start; });
    for (std::uint32_t i : delayed) {
      const auto& m = messages[i];
      mpi.sleep(std::max(0.0, begin + m.start - mpi.now()));
      sends.push_back(mpi.isend(m.dst, m.bytes, 0, Mpi::kCommWorld, types[m.datatype]));
    }
    for (const auto& compute : exchange_.overlapped) run_compute(compute, mpi);
    mpi.waitall(sends);
    mpi.waitall(recvs);
  }

 private:
  const ExchangeSpec& exchange_;
  const std::vector<Datatype>& datatypes_;  // index 0 is contiguous
  // Per rank, indices into the messages (compressed rows: offsets, indices).
  std::vector<std::uint32_t> out_offsets_, out_index_, in_offsets_, in_index_;
};

}  // namespace

PatternWorkload::PatternWorkload(Pattern pattern, coll::CollectiveSettings collectives)
    : pattern_(std::move(pattern)), collectives_(std::move(collectives)) {
  if (pattern_.datatypes.empty()) pattern_.datatypes.push_back(Datatype{});
  for (const auto& step : pattern_.steps) {
    if (const auto* exchange = std::get_if<ExchangeSpec>(&step.content)) {
      steps_.push_back(std::make_unique<ExchangeStep>(pattern_.ranks, *exchange, pattern_.datatypes));
    } else if (const auto* compute = std::get_if<ComputeSpec>(&step.content)) {
      steps_.push_back(std::make_unique<ComputeStep>(*compute));
    } else {
      steps_.push_back(std::make_unique<CollectiveStep>(std::get<coll::CollectiveCall>(step.content), collectives_));
    }
  }
}

PatternWorkload::PatternWorkload(const ManyPairPattern& exchange) : PatternWorkload(to_pattern(exchange)) {}

bool PatternWorkload::receives_from_any_source() const {
  return std::any_of(pattern_.steps.begin(), pattern_.steps.end(),
                     [](const StepSpec& step) { return std::holds_alternative<coll::CollectiveCall>(step.content); });
}

void PatternWorkload::run(Mpi& mpi) {
  for (const auto& step : steps_) step->run(mpi);
}

}  // namespace contend
