#include "sim/engine/per_level_model.hpp"

#include <fmt/format.h>

#include <utility>

#include "sim/core/error.hpp"

namespace contend {
namespace {

class PerLevelModel final : public CommunicationModel {
 public:
  PerLevelModel(TransferSink& sink, std::vector<std::unique_ptr<CommunicationModel>> parts,
                const std::array<std::size_t, 3>& part_of)
      : sink_(sink), parts_(std::move(parts)), part_of_(part_of) {}

  void start(TransferId id) override { part(level_of(id)).start(id); }
  bool delivers_by_itself() const override { return parts_.front()->delivers_by_itself(); }
  void await(TransferId id) override { part(level_of(id)).await(id); }
  void poll(TransferId id) override { part(level_of(id)).poll(id); }
  double send_overhead(const Transfer& t) const override { return part(t.level).send_overhead(t); }
  double receive_overhead(const Transfer& t) const override { return part(t.level).receive_overhead(t); }
  double overhead_gap(const Transfer& t) const override { return part(t.level).overhead_gap(t); }
  double contention_free_time(const Transfer& t) const override { return part(t.level).contention_free_time(t); }
  void drain(int rank) override {
    for (auto& p : parts_) p->drain(rank);
  }
  bool releases_senders(Level level) const override { return part(level).releases_senders(level); }
  std::string no_release_reason() const override {
    for (Level level : kAllLevels) {
      if (!part(level).releases_senders(level)) return part(level).no_release_reason();
    }
    return {};
  }
  bool moving_transfers(std::vector<MovingTransfer>& out) const override {
    for (const auto& p : parts_) {
      if (!p->moving_transfers(out)) return false;
    }
    return true;
  }

 private:
  Level level_of(TransferId id) const { return sink_.transfer(id).level; }
  CommunicationModel& part(Level level) const { return *parts_[part_of_[static_cast<std::size_t>(level)]]; }

  TransferSink& sink_;
  std::vector<std::unique_ptr<CommunicationModel>> parts_;
  std::array<std::size_t, 3> part_of_;
};

}  // namespace

std::unique_ptr<CommunicationModel> per_level_model(std::string_view name, TransferSink& sink,
                                                    std::vector<std::unique_ptr<CommunicationModel>> parts,
                                                    const std::array<std::size_t, 3>& part_of) {
  for (const auto& p : parts) {
    if (p->delivers_by_itself() != parts.front()->delivers_by_itself()) {
      throw Error(fmt::format(
          "model '{}': simgrid-lmm (SimGrid activities, delivered when a rank awaits them) cannot share a run with "
          "the fluid models, which deliver by themselves; use maxmin, its fluid equivalent, for that level",
          name));
    }
  }
  return std::make_unique<PerLevelModel>(sink, std::move(parts), part_of);
}

}  // namespace contend
