// Model `taulop`: the engine side of TransferModel (transfer_model.hpp).
#include "models/taulop/taulop.hpp"

#include "models/taulop/parameters.hpp"
#include "models/taulop/transfer_model.hpp"
#include "sim/engine/fluid_model.hpp"

namespace contend {
namespace {

class TauLopModel final : public FluidModel {
 public:
  TauLopModel(const ModelContext& c, taulop::Parameters parameters)
      : FluidModel(c), parameters_(std::move(parameters)), transfers_(parameters_, c.platform.nodes.count) {}

 protected:
  // No latency phase: L is in the message's transfer steps.
  double latency(const Transfer& /*t*/) const override { return 0; }

  void on_data_start(TransferId id, double now) override {
    const Transfer& t = sink().transfer(id);
    const taulop::TransferModel::Endpoints e{t.src, t.dst, context().mapping[t.src].node,
                                             context().mapping[t.dst].node};
    transfers_.start(id, e, static_cast<double>(t.bytes), now);
  }

  double next_sharing_event() const override { return transfers_.next_event(); }

  void advance_sharing(double now, std::vector<Completion>& completed) override {
    done_.clear();
    transfers_.advance(now, done_);
    for (const auto& d : done_) completed.push_back({d.id, d.time});
  }

 private:
  taulop::Parameters parameters_;  // before transfers_, which keeps a reference
  taulop::TransferModel transfers_;
  std::vector<taulop::TransferModel::Completion> done_;
};

}  // namespace

ModelInfo taulop_model_info() {
  return parameterized_model_info<TauLopModel>(
      "taulop", "tau-Lop: messages as transfers over shared-memory and network channels, slowed by concurrency",
      "J.-A. Rico-Gallego et al., tau-Lop (Parallel Comput. 2015, FGCS 2016); E. Nuriyev, J.-A. Rico-Gallego, "
      "A. Lastovetsky, JPDC 2022, Sec. 4",
      taulop::parse_parameters);
}

}  // namespace contend
