#include "traces/replay/ti_workload.hpp"

#include <fmt/format.h>

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

TiWorkload::TiWorkload(const std::string& path, const coll::CollectiveSettings& collectives)
    : TraceWorkload(collectives), files_(open_ti_trace(path)) {}

std::string TiWorkload::description() const {
  return fmt::format("TI trace {} ({})", files_.path, files_.single_file ? "one file" : "index of rank files");
}

std::unique_ptr<TraceWorkload> open_trace_workload(const std::string& path,
                                                   const coll::CollectiveSettings& collectives) {
  if (path.ends_with(".otf2")) return std::make_unique<Otf2Workload>(path, collectives);
  return std::make_unique<TiWorkload>(path, collectives);
}

void TiWorkload::run(Mpi& mpi) {
  TiSource source(files_, mpi.rank());
  replay_rank(mpi, source, shared_);
}

}  // namespace contend
