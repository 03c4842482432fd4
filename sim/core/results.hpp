#pragma once
// What a simulation predicts, and how it is written out.
#include <algorithm>
#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/attribution.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/timeline.hpp"

namespace contend {

struct RankResult {
  int rank = 0;
  Placement place;
  double recv_time = 0;   // when the rank's last incoming message completed
  double send_time = 0;   // when its last outgoing message was delivered
  double total_time = 0;  // when the rank finished its communication (its program ended)
};

struct MessageRecord {
  int src = 0, dst = 0;
  std::uint64_t bytes = 0;
  Level level = Level::IntraSocket;
  double start = 0;      // when the data began to move (matching time under rendezvous)
  double end = 0;        // when its last byte was delivered
  std::uint64_t id = 0;  // the message's posting order in the run
};

// Time a rank spent in each kind of MPI call, as a PMPI profiler counts it
// (Denis et al.'s classification, CCGRID 2022 Sec. III-C1): the input of
// `contend progress` when the run had no progression.
struct CallStats {
  std::uint64_t count = 0;
  double total = 0;
  double min = 0;  // of one call; 0 if none
  void add(double seconds) {
    min = count == 0 ? seconds : std::min(min, seconds);
    ++count;
    total += seconds;
  }
};
struct MpiCallStats {
  CallStats nonblocking;  // Isend, Irecv
  CallStats test;         // Test
  CallStats wait;         // Wait, Waitall
  CallStats blocking;     // Send, Recv
  double outside = 0;     // compute and sleep: time outside MPI (t_comp)
};

struct LevelStats {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
};

struct Results {
  std::string model;
  // Where the model came from when the platform chose it ("default_model of
  // FILE"); empty when --model or the built-in default did (the summary then
  // says nothing more).
  std::string model_origin;
  std::string platform;
  std::string workload;
  std::string mapping;
  std::vector<RankResult> ranks;
  std::vector<MpiCallStats> calls;      // per rank
  std::vector<MessageRecord> messages;  // only when asked for (--messages)
  Timeline timeline;                    // only when asked for (--timeline, --paje); sorted
  // Only when asked for (--explain, --attribution, contend explain): every
  // delivered message by id, with its intervals (sim/core/attribution.hpp).
  bool attributed = false;
  std::vector<MessageAttribution> attribution;
  std::array<LevelStats, 3> levels{};
  std::vector<std::string> warnings;

  double makespan() const;
  std::uint64_t total_messages() const;
  std::uint64_t total_bytes() const;
};

// What every JSON document of contend begins with (docs/commands.md, "JSON
// output"): "schema" ("contend.COMMAND"), "schema_version", "contend_version",
// "units" (the unit of each quantity the document holds) and "options" (the
// options the run used, defaults included).
inline constexpr int kJsonSchemaVersion = 1;
nlohmann::ordered_json json_head(const std::string& command, const std::string& contend_version,
                                 const nlohmann::ordered_json& units, const nlohmann::ordered_json& options);

// Writers. Times in seconds with 12 significant digits (CSV: a column's unit
// ends its name, "total_time_s").
void write_rank_csv(std::ostream& out, const Results& r);
// The attribution of message `id` (null if it has none: not attributed, or not delivered).
const MessageAttribution* find_attribution(const Results& r, std::uint64_t id);

// With attribution, two more columns: limited_by and slowdown.
void write_messages_csv(std::ostream& out, const Results& r);
// `head` from json_head (command "simulate"); its units are added here.
void write_json(std::ostream& out, const Results& r, nlohmann::ordered_json head);
// The terminal summary: makespan, slowest/fastest rank, messages by level,
// volume, and a short per-rank table. The warnings are not in it: they go to
// standard error whether or not the summary is printed.
void print_summary(std::ostream& out, const Results& r, std::size_t table_rows = 8);

}  // namespace contend
