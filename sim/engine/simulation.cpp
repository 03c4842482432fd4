#include "sim/engine/simulation.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/engine/engine_core.hpp"
#include "sim/engine/mpi.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace sg4 = simgrid::s4u;

namespace {

// SimGrid's settings, made explicit: pure max-min sharing (CM02) without the
// LV08 corrections (x0.97 bandwidth, x13.01 latency), without cross-traffic
// (a reverse flow of 5% on symmetric routes) and without the TCP window bound.
// SimGrid's own deadlock report ("Oops! Deadlock detected", kernel category
// ker_engine) goes nowhere: contend reports a deadlock itself, naming the
// ranks and what they wait for (EngineCore::unfinished_report).
std::vector<std::string> simgrid_arguments() {
  return {"contend",
          "--log=root.thresh:critical",
          "--log=xbt_cfg.thresh:critical",
          "--log=ker_engine.additivity:off",
          "--log=ker_engine.app:file:/dev/null",
          "--cfg=network/model:CM02",
          "--cfg=network/crosstraffic:0",
          "--cfg=network/TCP-gamma:0",
          "--cfg=network/latency-factor:1",
          "--cfg=network/bandwidth-factor:1",
          "--cfg=network/weight-S:0",
          "--cfg=contexts/stack-size:1024"};
}

class WallClockGuard {
 public:
  WallClockGuard(double limit, const EngineCore& core)
      : limit_(limit), core_(core), begin_(std::chrono::steady_clock::now()) {}
  // Called at every simulated time step; SimGrid gives no way to stop a run
  // from here, so an exhausted budget ends the process (no output is written).
  void check() const {
    if (limit_ <= 0) return;
    const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - begin_;
    if (spent.count() > limit_) {
      const auto delivered = static_cast<unsigned long long>(core_.messages_delivered());
      std::fprintf(stderr,
                   "contend: error: wall-clock limit of %g s reached at simulated time %.9g s, %llu of %llu posted "
                   "messages delivered (%.0f messages/s); no output written\n",
                   limit_, sg4::Engine::get_clock(), delivered,
                   static_cast<unsigned long long>(core_.messages_posted()),
                   static_cast<double>(delivered) / spent.count());
      std::fflush(stderr);
      std::_Exit(3);
    }
  }

 private:
  double limit_;
  const EngineCore& core_;
  std::chrono::steady_clock::time_point begin_;
};

}  // namespace

Results simulate(const Platform& platform, const Mapping& mapping, Workload& workload, const ModelRegistry& models,
                 const SimulationOptions& options) {
  if (mapping.rank_count() != workload.rank_count()) {
    throw Error(fmt::format("the mapping places {} ranks but the workload has {}", mapping.rank_count(),
                            workload.rank_count()));
  }
  const ModelInfo& info = models.get(options.model);
  if (info.validate) info.validate(platform, platform.model_section(info.name));

  auto args = simgrid_arguments();
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  sg4::Engine engine(&argc, argv.data());

  const SimgridPlatform simgrid(platform, mapping);
  EngineCore core(platform, mapping, simgrid, options.record_messages, options.progress.value_or(platform.progress));
  auto model = info.create(ModelContext{platform, mapping, simgrid, platform.model_section(info.name), core});
  core.set_model(model.get());

  bool simgrid_deadlock = false;
  sg4::Engine::on_deadlock_cb([&simgrid_deadlock] { simgrid_deadlock = true; });
  WallClockGuard guard(options.wall_time_limit, core);
  if (options.wall_time_limit > 0) sg4::Engine::on_time_advance_cb([&guard](double) { guard.check(); });

  for (int r = 0; r < workload.rank_count(); ++r) {
    sg4::Actor::create(fmt::format("rank-{}", r), core.host_of(r), [&core, &workload, r] {
      try {
        Mpi mpi(core, r);
        workload.run(mpi);
        core.rank_finished(r);
        core.drain(r);
      } catch (const SimulationAborted&) {
        // Another rank failed or the run deadlocked: unwind quietly.
      } catch (const std::exception& e) {
        core.rank_failed(r, e.what());
      }
    });
  }
  engine.run();

  if (core.failure()) throw Error(*core.failure());
  if (simgrid_deadlock) {
    throw Error("internal error: the simulation stopped with ranks still waiting (SimGrid reported a deadlock):" +
                core.unfinished_report());
  }
  Results results = core.collect_results();
  results.model = info.name;
  results.workload = workload.description();
  results.platform = platform.name;
  results.mapping = options.mapping_name;
  return results;
}

}  // namespace contend
