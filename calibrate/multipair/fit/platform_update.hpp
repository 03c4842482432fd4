#pragma once
// Writes fitted levels into a platform file's text, touching nothing else:
// only the entries levels.<level> that were fitted are rewritten (latency and
// bandwidth replaced, eager_threshold and full-line comments kept); every
// other line stays byte for byte (sim/core/yaml_edit). The result is parsed
// again before it is returned, so a file is never left invalid.
#include <map>
#include <string>

#include "calibrate/multipair/fit/multipair_fit.hpp"

namespace contend::calibrate {

// `text` is the platform file's content, `name` its path (for errors);
// `sources` names each level's raw data in the comment written above its values.
std::string update_platform_levels(const std::string& text, const std::string& name,
                                   const std::map<Level, LevelFit>& fits, const std::map<Level, std::string>& sources);

}  // namespace contend::calibrate
