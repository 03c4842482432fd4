#include "traces/replay/otf2_workload.hpp"

#include <fmt/format.h>

#include "sim/engine/mpi.hpp"

namespace contend {

namespace {

class Otf2Source final : public ActionSource {
 public:
  Otf2Source(const Otf2Definitions& defs, int rank) : reader_(defs, rank) {}
  std::optional<TiAction> next() override { return reader_.next(); }
  SourceLocation where() const override { return reader_.where(); }

 private:
  Otf2RankReader reader_;
};

}  // namespace

Otf2Workload::Otf2Workload(const std::string& anchor, const coll::CollectiveSettings& collectives)
    : TraceWorkload(collectives), defs_(read_otf2_definitions(anchor)) {
  check_otf2_events(defs_);
}

std::string Otf2Workload::description() const {
  return fmt::format("OTF2 trace {} ({} communicators besides MPI_COMM_WORLD)", defs_.path, defs_.communicators.size());
}

void Otf2Workload::run(Mpi& mpi) {
  Otf2Source source(defs_, mpi.rank());
  replay_rank(mpi, source, shared_, defs_.communicators);
}

}  // namespace contend
