#include "sim/engine/simulation.hpp"

#include <fmt/format.h>
#include <malloc.h>
#include <signal.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/core/asan_build.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/timeline_loads.hpp"
#include "sim/engine/engine_core.hpp"
#include "sim/engine/mpi.hpp"
#include "sim/engine/simgrid_platform.hpp"
#include "sim/engine/step_log.hpp"

namespace contend {
namespace sg4 = simgrid::s4u;

namespace {

constexpr const char* kNoGuardPages = "--cfg=contexts/guard-size:0";

// The memory maps a process may have (vm.max_map_count; Linux's default
// when unreadable).
long max_memory_maps() {
  long limit = 65530;
  if (std::FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
    if (std::fscanf(f, "%ld", &limit) != 1) limit = 65530;
    std::fclose(f);
  }
  return limit;
}

// A build with AddressSanitizer (CMake option CONTEND_SANITIZE): ASan does
// not know the stacks SimGrid's ucontext contexts switch between and reports
// every switch as a stack-use-after-scope; thread contexts are real threads
// it knows. A property of the build, not a model choice: results are the same.
constexpr bool kSanitizedBuild = CONTEND_ASAN_BUILD;

// SimGrid's settings, made explicit: pure max-min sharing (CM02) without the
// LV08 corrections (x0.97 bandwidth, x13.01 latency), without cross-traffic
// (a reverse flow of 5% on symmetric routes) and without the TCP window bound.
// Each actor (rank) has its own stack; SimGrid protects each with a guard
// page, which splits the stacks' memory into two maps per actor: beyond
// about 32 k ranks the process runs out of maps (vm.max_map_count) and
// SimGrid aborts. Then the stacks go without guard pages, one contiguous
// allocation each (adjacent ones merge into one map).
// network/optim:Full re-solves the whole system at every step: the lazy
// default's selective update (SimGrid 3.32, lmm::System::
// update_modified_cnst_set) misses the links of a flow whose first link is
// already marked modified, so two flows starting at one instant can leave a
// link over its capacity; Full gives the max-min sharing itself, which the
// `maxmin` model computes incrementally (models/maxmin/README.md).
// SimGrid's own deadlock report ("Oops! Deadlock detected", kernel category
// ker_engine) goes nowhere: contend reports a deadlock itself, naming the
// ranks and what they wait for (EngineCore::unfinished_report).
std::vector<std::string> simgrid_arguments(int ranks) {
  std::vector<std::string> args = {"contend",
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
                                   "--cfg=network/optim:Full",
                                   "--cfg=contexts/stack-size:1024"};
  constexpr long kMapsBesideStacks = 8192;  // libraries, heap, SimGrid's own
  if (2L * ranks + kMapsBesideStacks > max_memory_maps()) args.emplace_back(kNoGuardPages);
  if (kSanitizedBuild) args.emplace_back("--cfg=contexts/factory:thread");
  return args;
}

// Watches the run's wall-clock time: gives up past the limit, and keeps the
// progress line. SimGrid calls it at every simulated time step; the clock is
// read only every kStepsPerCheck steps, so that it costs nothing measurable.
class RunMonitor {
 public:
  RunMonitor(double limit, const ProgressLineOptions& line, const EngineCore& core)
      : limit_(limit), line_(line), core_(core), begin_(std::chrono::steady_clock::now()) {}
  RunMonitor(const RunMonitor&) = delete;
  RunMonitor& operator=(const RunMonitor&) = delete;
  ~RunMonitor() { end_line(); }

  bool needed() const { return limit_ > 0 || line_.enabled; }

  void step() {
    // The first step is checked too: a run shorter than kStepsPerCheck
    // steps still honours a limit it has already passed.
    if (++steps_ % kStepsPerCheck != 0 && steps_ != 1) return;
    const double spent = seconds_since(begin_);
    if (limit_ > 0 && spent > limit_) give_up(spent);
    // The first line once the run has taken after_seconds, the next ones
    // every_seconds apart.
    if (line_.enabled && spent >= line_.after_seconds && (!printed_any_ || spent >= last_line_ + line_.every_seconds)) {
      print_line(spent);
      last_line_ = spent;
    }
  }

  // Ends the progress line (if any) so that what follows starts on its own line.
  void end_line() {
    if (!printed_) return;
    std::fputc('\n', line_.out);
    std::fflush(line_.out);
    printed_ = false;
  }

 private:
  static constexpr std::uint64_t kStepsPerCheck = 16;

  static double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }

  void print_line(double spent) {
    const auto delivered = static_cast<unsigned long long>(core_.messages_delivered());
    // \r and erase to the end of the line: the new line may be shorter.
    std::fprintf(line_.out,
                 "\rsimulated %.6g s, %llu of %llu posted messages delivered, wall %.1f s, %.0f messages/s\033[K",
                 sg4::Engine::get_clock(), delivered, static_cast<unsigned long long>(core_.messages_posted()), spent,
                 static_cast<double>(delivered) / spent);
    std::fflush(line_.out);
    printed_ = true;
    printed_any_ = true;
  }

  // SimGrid gives no way to stop a run from here, so an exhausted budget
  // ends the process (no output is written).
  [[noreturn]] void give_up(double spent) {
    end_line();
    const auto delivered = static_cast<unsigned long long>(core_.messages_delivered());
    std::fprintf(stderr,
                 "contend: error: wall-clock limit of %g s reached at simulated time %.9g s, %llu of %llu posted "
                 "messages delivered (%.0f messages/s); no output written\n",
                 limit_, sg4::Engine::get_clock(), delivered, static_cast<unsigned long long>(core_.messages_posted()),
                 static_cast<double>(delivered) / spent);
    std::fflush(stderr);
    std::_Exit(3);
  }

  double limit_;
  ProgressLineOptions line_;
  const EngineCore& core_;
  std::chrono::steady_clock::time_point begin_;
  std::uint64_t steps_ = 0;
  double last_line_ = 0;
  bool printed_ = false;      // a line is on the terminal, not ended yet
  bool printed_any_ = false;  // a line has been printed in this run
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
  if (options.step_out != nullptr && workload.rank_count() > limits::kMaxStepRanks) {
    throw LimitError(
        limits::exceeds(fmt::format("--step on {} ranks", workload.rank_count()), limits::kMaxStepRanksText));
  }

  auto args = simgrid_arguments(workload.rank_count());
  if (args.back() == kNoGuardPages) {
    // Without guard pages SimGrid takes each stack from malloc and zeroes it;
    // glibc's mmap threshold, which grows as large blocks are freed, would
    // then serve stacks from the heap and the zeroing would touch every page
    // of every stack (40 k ranks: 5.6 GiB, 32 s). A fixed threshold keeps
    // each stack its own mapping, zero and untouched until used.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  // SimGrid's engine puts its own SIGINT handler in place, which exits with
  // status 1 and, at our log level, silently; keep the process's own (the
  // CLI's one-line report, sim/cli/interruption.hpp).
  struct sigaction interrupt_handler {};
  sigaction(SIGINT, nullptr, &interrupt_handler);
  sg4::Engine engine(&argc, argv.data());
  sigaction(SIGINT, &interrupt_handler, nullptr);

  const SimgridPlatform simgrid(platform, mapping);
  std::unique_ptr<AttributionRecorder> recorder;
  if (options.attribution) recorder = std::make_unique<AttributionRecorder>();
  std::unique_ptr<ResourceLoads> loads;
  if (options.record_timeline) loads = std::make_unique<ResourceLoads>();
  EngineCore core(platform, mapping, simgrid, options.record_messages, options.progress.value_or(platform.progress),
                  recorder.get());
  auto model = info.create(ModelContext{platform, mapping, simgrid, platform.model_section(info.name), core,
                                        recorder.get(), loads.get(), options.step_out != nullptr});
  core.set_model(model.get());
  core.expect_messages(workload.expected_messages());
  for (Level level : kAllLevels) {
    if (platform.level(level).transport_buffer > 0 && !model->releases_senders(level)) {
      throw Error(fmt::format("model {} cannot simulate levels.{}.transport_buffer: {} (docs/mpi-semantics.md)",
                              info.name, level_name(level), model->no_release_reason()));
    }
  }
  if (options.record_timeline) core.record_timeline();
  core.allow_posting_ahead(!workload.receives_from_any_source());
  std::shared_ptr<StepLog> step_log;
  if (options.step_out != nullptr) {
    std::vector<MovingTransfer> probe;
    if (!model->moving_transfers(probe)) {
      const std::string reason = model->no_rates_reason();
      throw Error(fmt::format(
          "model {} does not report its flows' rates, which --step prints{} (docs/timelines.md lists the models it "
          "works with)",
          info.name, reason.empty() ? "" : ": " + reason));
    }
    step_log = std::make_shared<StepLog>(*model, core, *options.step_out);
    sg4::Engine::on_time_advance_cb([weak = std::weak_ptr<StepLog>(step_log)](double) {
      if (auto log = weak.lock()) log->clock_advanced(sg4::Engine::get_clock());
    });
  }

  bool simgrid_deadlock = false;
  sg4::Engine::on_deadlock_cb([&simgrid_deadlock] { simgrid_deadlock = true; });
  RunMonitor monitor(options.wall_time_limit, options.progress_line, core);
  if (monitor.needed()) {
    sg4::Engine::on_time_advance_cb([&monitor](double) { monitor.step(); });
    core.set_heartbeat([&monitor] { monitor.step(); });
  }

  // Whether the run's first failure was a limit refusal (exit status 3): the
  // failure crosses the engine as a message, this keeps its kind.
  bool limit_reached = false;
  for (int r = 0; r < workload.rank_count(); ++r) {
    sg4::Actor::create(fmt::format("rank-{}", r), core.host_of(r), [&core, &workload, &limit_reached, r] {
      try {
        Mpi mpi(core, r);
        workload.run(mpi);
        core.rank_finished(r);
        core.drain(r);
      } catch (const SimulationAborted&) {
        // Another rank failed or the run deadlocked: unwind quietly.
      } catch (const LimitError& e) {
        if (!core.failure()) limit_reached = true;
        core.rank_failed(r, e.what());
      } catch (const std::exception& e) {
        core.rank_failed(r, e.what());
      }
    });
  }
  engine.run();
  monitor.end_line();
  if (step_log) {
    step_log->finish(sg4::Engine::get_clock());
    if (step_log->too_long()) throw LimitError(limits::exceeds("the run's instants", limits::kMaxStepInstantsText));
  }

  if (core.failure()) {
    if (limit_reached) throw LimitError(*core.failure());
    throw Error(*core.failure());
  }
  if (simgrid_deadlock) {
    throw Error("internal error: the simulation stopped with ranks still waiting (SimGrid reported a deadlock):" +
                core.unfinished_report());
  }
  Results results = core.collect_results();
  if (options.record_timeline) {
    results.timeline = core.take_timeline();
    // Appended by resource and time: still in Timeline::sort()'s order.
    loads->write_to(results.timeline, sg4::Engine::get_clock());
  }
  results.model = info.name;
  results.workload = workload.description();
  results.platform = platform.name;
  results.mapping = options.mapping_name;
  return results;
}

}  // namespace contend
