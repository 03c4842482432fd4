#include "traces/replay/ti_workload.hpp"

#include <fmt/format.h>

#include "sim/core/text.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/mpi.hpp"
#include "traces/replay/otf2_workload.hpp"

namespace contend {

namespace {

class TiSource final : public ActionSource {
 public:
  TiSource(const TiTraceFiles& files, int rank) : reader_(files, rank) {}
  std::optional<TiAction> next() override { return reader_.next(); }
  SourceLocation where() const override { return reader_.where(); }
  void communicator_created(int id, int size) override { reader_.set_comm_size(id, size); }

 private:
  TiRankReader reader_;
};

}  // namespace

TiWorkload::TiWorkload(const std::string& path, const coll::CollectiveSettings& collectives, ComputeMode compute)
    : TraceWorkload(collectives), files_(open_ti_trace(path)) {
  if (compute != ComputeMode::measured) return;
  if (!files_.recorded_speed) {
    throw Error(path +
                ": --compute measured needs the speed the trace's flops were recorded at (a '# contend-trace "
                "compute-speed' line, written by contend's tracer and convert-trace); this trace has none: its "
                "computation can only replay at the platform's core speed (--compute scaled)");
  }
  shared_.replay_flops_as_seconds(*files_.recorded_speed);
}

std::string TiWorkload::description() const {
  return fmt::format("TI trace {} ({})", files_.path, files_.single_file ? "one file" : "index of rank files");
}

const std::vector<std::string>& compute_mode_names() {
  static const std::vector<std::string> names = {"scaled", "measured"};
  return names;
}

ComputeMode compute_mode_by_name(std::string_view name) {
  if (name == "scaled") return ComputeMode::scaled;
  if (name == "measured") return ComputeMode::measured;
  throw Error(fmt::format("--compute: unknown mode '{}'{}; expected one of: {}", name,
                          did_you_mean(name, compute_mode_names()), join(compute_mode_names())));
}

std::unique_ptr<TraceWorkload> open_trace_workload(const std::string& path, const coll::CollectiveSettings& collectives,
                                                   ComputeMode compute) {
  // OTF2 records seconds: replayed as measured whatever the mode.
  if (path.ends_with(".otf2")) return std::make_unique<Otf2Workload>(path, collectives);
  return std::make_unique<TiWorkload>(path, collectives, compute);
}

std::optional<std::string> compute_note(const TraceWorkload& trace, double core_speed, ComputeMode compute) {
  const auto recorded = trace.recorded_speed();
  if (compute != ComputeMode::scaled || !recorded || *recorded == core_speed) return std::nullopt;
  const double ratio = *recorded / core_speed;
  return fmt::format(
      "the trace's computation was recorded in flops at {} Gflop/s per core; the platform's cores run at {} Gflop/s, "
      "so it replays {} ({}x the measured time); --compute measured keeps the recorded seconds",
      units::in_giga(*recorded), units::in_giga(core_speed), ratio < 1 ? "faster" : "slower",
      fmt::format("{:.3g}", ratio));
}

void TiWorkload::run(Mpi& mpi) {
  TiSource source(files_, mpi.rank());
  replay_rank(mpi, source, shared_);
}

}  // namespace contend
