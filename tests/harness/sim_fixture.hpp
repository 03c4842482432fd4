#pragma once
// Helpers for simulation tests: a platform from inline YAML, a pattern or a
// scripted workload, one simulate() call.
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/datatype.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/results.hpp"
#include "sim/engine/model.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/engine/workload.hpp"
#include "sim/workload/pattern_workload.hpp"
#include "tests/harness/platform_text.hpp"

namespace contend::test {

// Each rank runs script(mpi).
class ScriptWorkload final : public Workload {
 public:
  ScriptWorkload(int ranks, std::function<void(Mpi&)> script) : ranks_(ranks), script_(std::move(script)) {}
  int rank_count() const override { return ranks_; }
  std::string description() const override { return "script"; }
  void run(Mpi& mpi) override { script_(mpi); }

 private:
  int ranks_;
  std::function<void(Mpi&)> script_;
};

// Scripts of two ranks that several tests run:
// rank 0 Isends `bytes` to rank 1, computes `compute_seconds`, waits; rank 1
// sleeps `receive_after` seconds (none if 0), then receives.
ScriptWorkload isend_compute_wait(std::uint64_t bytes, double compute_seconds, double receive_after = 0);
// Rank 0 posts three receives at t = 0; rank r (1, 2, 3) sends it `bytes`
// at (r - 1) x 0.5 ms.
ScriptWorkload staggered_fan_in_of_three(std::uint64_t bytes);
// What node 0's NIC in carries in that fan-in of 1 MB messages on
// nic_bound_star(4), from L (the route's latency) on, as (time, flows):
// flow 1 alone (0.5 MB in 0.5 ms), flows 1 and 2 (0.25 MB each in 0.5 ms),
// then all three at 1/3 GB/s: flow 1 has 0.25 MB left and ends at
// L + 1.75 ms; flow 2 then has 0.5 MB left at 0.5 GB/s (L + 2.75 ms), flow 3
// 0.5 MB: 0.5 ms of it shared, the last 0.25 MB alone (L + 3 ms).
std::vector<std::pair<double, double>> staggered_fan_in_nic_loads(double L);
// Rank 0 sends `bytes` to rank 1, which posts its receive after `receive_after` seconds.
ScriptWorkload late_receive(std::uint64_t bytes, double receive_after);
// Rank 0 Isends `first` then `second` bytes to rank 1 and waits for both;
// rank 1 posts the matching Irecvs in the same order and waits for both.
ScriptWorkload two_messages(std::uint64_t first, std::uint64_t second);
// One message of `bytes` in `type` from rank 0 to rank 1 (Isend/Irecv, Wait).
ScriptWorkload typed_message(const Datatype& type, std::uint64_t bytes);

struct RunOptions {
  std::string mapping = "block";
  std::string model = "maxmin";
  bool oversubscribe = false;
  std::optional<Progress> progress = {};   // overrides the platform's
  const ModelRegistry* models = nullptr;   // all_models() when null
  ProgressLineOptions progress_line = {};  // off
  bool attribution = false;                // record what bounded each message
  bool timeline = false;                   // record the timeline (and the models' resource loads)
};

// Messages are recorded; the platform's errors name test.yaml.
Results run(const std::string& platform, Workload& workload, const RunOptions& options = {});
Results run_pattern(const std::string& platform, const std::vector<PatternMessage>& messages, int ranks,
                    const RunOptions& options = {});
// The error a run ends with ("(no error)" if none).
std::string run_error(const std::string& platform, Workload& workload, const RunOptions& options = {});

// A registry holding one model (a test double).
ModelRegistry registry_of(const std::string& name, const std::string& description,
                          std::function<std::unique_ptr<CommunicationModel>(const ModelContext&)> create);

// Message records between src and dst, in completion order.
std::vector<MessageRecord> messages_between(const Results& r, int src, int dst);
// The attribution of the seq-th message from src to dst (the run must be
// attributed; fails the test when there is none).
const MessageAttribution& attribution_of(const Results& r, int src, int dst, std::uint32_t seq = 0);
// "resource [begin, end) @rate" per interval, for readable failures.
std::string describe_intervals(const MessageAttribution& m);

// The load samples (time, load) of the timeline's resource `name`, in time
// order (the run must record a timeline; none if the resource is unknown).
std::vector<std::pair<double, double>> load_samples(const Results& r, const std::string& name);
// The loads alone, in time order.
std::vector<double> load_values(const Results& r, const std::string& name);
// Checks that `name`'s samples are `expected`, (time, load) pairs: as many,
// times within `time_tolerance` (relative), loads exactly.
void check_load_samples(const Results& r, const std::string& name,
                        const std::vector<std::pair<double, double>>& expected, double time_tolerance);

// The end of the one message from src to dst, less its start.
double duration(const Results& r, int src, int dst);

// Random cases (property tests): a level's bandwidth, a value or about half
// the time a sub-linear BW_MP(n) table.
std::string random_bandwidth_table(std::mt19937& rng);
// Up to `count` messages between random distinct ranks, one per pair (so
// that matching order cannot truncate): eager below 16 KiB or rendezvous,
// now and then empty, half of them starting later (up to 2 ms).
std::vector<PatternMessage> random_messages(std::mt19937& rng, int ranks, int count);
// One line "src dst bytes end" per message, sorted by (src, dst, start,
// bytes), the end printed exactly (17 digits): equal texts, equal bits.
std::string exact_message_ends(const Results& r);
// A case as a pattern file and its progression, to replay a failure with
// `contend simulate`.
std::string describe_pattern(const std::vector<PatternMessage>& messages, int ranks, Progress progress);

}  // namespace contend::test
