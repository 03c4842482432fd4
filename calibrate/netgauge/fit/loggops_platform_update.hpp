#pragma once
// Writes a LogGOPS fit into a platform file's text: the section
// models.loggops.<level> (schema: models/loggops/README.md) is
// replaced or added, and levels.<level>.eager_threshold is set to the
// protocol switch found (the engine and the loggops model split eager from
// rendezvous there, so the fitted ranges must meet at that size). Every
// other line stays byte for byte (sim/core/yaml_edit); durations, per-byte
// ones included, are written as units::format_duration writes them. The result is parsed again before it is
// returned; the caller validates the models.
#include <optional>
#include <string>

#include "calibrate/netgauge/fit/netgauge_fit.hpp"
#include "sim/core/platform.hpp"

namespace contend::calibrate {

struct LoggopsUpdate {
  Level level = Level::IntraSocket;
  std::string source;         // the raw data, named in the comment above the values
  bool set_threshold = true;  // levels.<level>.eager_threshold
  std::string section;        // the key under models.loggops; empty: the level's name (or "default")
  std::string section_name() const { return section.empty() ? std::string(level_name(level)) : section; }
};

std::string update_platform_loggops(const std::string& text, const std::string& name, const LogGopsFit& fit,
                                    const LoggopsUpdate& update);

// Whether models.loggops already covers every level but `level` (with a
// 'default' or their own sections): otherwise the loggops model needs the
// fit as 'default'.
bool covers_other_levels(const Platform& platform, Level level);

// The section's lines, the level's key at column 0 (e.g. "intra_socket:").
std::vector<std::string> loggops_level_lines(const LogGopsFit& fit, const LoggopsUpdate& update);

}  // namespace contend::calibrate
