#pragma once
// LogGOPS parameters (Hoefler et al., LogGOPSim, HPDC 2010; Bacon et al.,
// EuroMPI 2023) as the platform file holds them under `models: loggops:`
// (every key: models/loggops/README.md): per level (or `default`), per protocol
// range (eager below the level's eager_threshold S, rendezvous from S), the
// network's L, g, G and, per datatype, the CPU overheads o_s, O_s, o_r, O_r.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "sim/core/datatype.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend {

// CPU time a rank spends on one message of k bytes: o + O k.
struct LogGopsOverheads {
  double o_s = 0, O_s = 0;  // sender: per message (s), per byte (s/B)
  double o_r = 0, O_r = 0;  // receiver
  double send(double k) const { return o_s + O_s * k; }
  double receive(double k) const { return o_r + O_r * k; }
};

// One protocol range of one level.
struct LogGopsProtocol {
  double L = 0;  // latency (s); for rendezvous it includes the handshake, as measured
  double g = 0;  // NIC gap per message (s)
  double G = 0;  // NIC gap per byte (s/B)
  std::map<std::string, LogGopsOverheads> datatypes;  // by Datatype::name(); "contiguous" always there
  std::string path;                                   // e.g. models.loggops.default.eager (for messages)
  SourceLocation where;
  // Throws contend::Error naming the section when the datatype has no entry.
  const LogGopsOverheads& overheads(const Datatype& type) const;
  // Bacon et al. eq. (2), one direction: max(o_s + O_s k, g + G k) + L + O_r k + o_r.
  double one_way(const Datatype& type, double k) const;
};

struct LogGopsLevel {
  LogGopsProtocol eager, rendezvous;
};

class LogGopsParameters {
 public:
  // Validates `section` (models.loggops) against the platform; errors name file:line:col.
  LogGopsParameters(const Platform& platform, const YamlField& section);
  const LogGopsProtocol& protocol(Level level, bool eager) const;
  // The protocol range a k-byte message of `level` uses (the engine's rule).
  const LogGopsProtocol& protocol_for(Level level, std::uint64_t bytes) const;

 private:
  std::array<std::uint64_t, 3> thresholds_{};  // S per level: the levels' eager_threshold
  std::array<LogGopsLevel, 3> levels_;
};

}  // namespace contend
