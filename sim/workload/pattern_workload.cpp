#include "workload/pattern_workload.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "engine/mpi.hpp"

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

}  // namespace

ExchangeStep::ExchangeStep(int ranks, std::vector<PatternMessage> messages, std::vector<Datatype> datatypes,
                           std::vector<std::unique_ptr<PatternStep>> overlapped)
    : messages_(std::move(messages)), datatypes_(std::move(datatypes)), overlapped_(std::move(overlapped)) {
  if (datatypes_.empty()) datatypes_.push_back(Datatype{});
  build_rows(messages_, ranks, true, out_offsets_, out_index_);
  build_rows(messages_, ranks, false, in_offsets_, in_index_);
}

std::string ExchangeStep::summary() const {
  std::string out = "exchange of " + std::to_string(messages_.size()) + " messages";
  for (const auto& step : overlapped_) out += " overlapping " + step->summary();
  return out;
}

void ExchangeStep::run(Mpi& mpi) const {
  const auto r = static_cast<std::size_t>(mpi.rank());
  const double begin = mpi.now();
  std::vector<DatatypeId> types;
  types.reserve(datatypes_.size());
  for (const auto& d : datatypes_) types.push_back(mpi.datatype(d));
  std::vector<RequestId> sends, recvs;
  std::vector<std::uint32_t> delayed;
  sends.reserve(out_offsets_[r + 1] - out_offsets_[r]);
  recvs.reserve(in_offsets_[r + 1] - in_offsets_[r]);
  for (auto i = out_offsets_[r]; i < out_offsets_[r + 1]; ++i) {
    const auto& m = messages_[out_index_[i]];
    if (m.start > 0) {
      delayed.push_back(out_index_[i]);
    } else {
      sends.push_back(mpi.isend(m.dst, m.bytes, 0, Mpi::kCommWorld, types[m.datatype]));
    }
  }
  for (auto i = in_offsets_[r]; i < in_offsets_[r + 1]; ++i) {
    const auto& m = messages_[in_index_[i]];
    recvs.push_back(mpi.irecv(m.src, m.bytes, 0, Mpi::kCommWorld, types[m.datatype]));
  }
  std::stable_sort(delayed.begin(), delayed.end(),
                   [this](std::uint32_t a, std::uint32_t b) { return messages_[a].start < messages_[b].start; });
  for (std::uint32_t i : delayed) {
    const auto& m = messages_[i];
    mpi.sleep(std::max(0.0, begin + m.start - mpi.now()));
    sends.push_back(mpi.isend(m.dst, m.bytes, 0, Mpi::kCommWorld, types[m.datatype]));
  }
  for (const auto& step : overlapped_) step->run(mpi);
  mpi.waitall(sends);
  mpi.waitall(recvs);
}

ComputeStep::ComputeStep(double amount, Unit unit, std::vector<int> ranks, bool overlap)
    : amount_(amount), unit_(unit), ranks_(std::move(ranks)), overlap_(overlap) {
  std::sort(ranks_.begin(), ranks_.end());
}

void ComputeStep::run(Mpi& mpi) const {
  if (!ranks_.empty() && !std::binary_search(ranks_.begin(), ranks_.end(), mpi.rank())) return;
  if (unit_ == Unit::Seconds) {
    mpi.compute_seconds(amount_);
  } else {
    mpi.compute(amount_);
  }
}

std::string ComputeStep::summary() const {
  std::string out = "compute " + fmt::format("{:g}", amount_) + (unit_ == Unit::Seconds ? " s" : " flop");
  if (!ranks_.empty()) out += " on " + std::to_string(ranks_.size()) + " ranks";
  return out;
}

PatternWorkload::PatternWorkload(std::string name, int ranks, std::vector<std::unique_ptr<PatternStep>> steps)
    : name_(std::move(name)), ranks_(ranks), steps_(std::move(steps)) {}

PatternWorkload::PatternWorkload(const ManyPairPattern& pattern) : name_(pattern.name), ranks_(pattern.ranks) {
  steps_.push_back(std::make_unique<ExchangeStep>(pattern.ranks, pattern.messages, pattern.datatypes));
}

std::string PatternWorkload::description() const {
  std::string out = "pattern " + name_ + " (";
  for (std::size_t i = 0; i < steps_.size(); ++i) out += (i ? ", " : "") + steps_[i]->summary();
  return out + ")";
}

void PatternWorkload::run(Mpi& mpi) {
  for (const auto& step : steps_) step->run(mpi);
}

}  // namespace contend
