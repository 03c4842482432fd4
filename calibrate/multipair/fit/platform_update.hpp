#pragma once
// Writes fitted levels into a platform file's text, touching nothing else:
// only the entries levels.<level> that were fitted are rewritten (latency and
// bandwidth replaced, eager_threshold and full-line comments kept); every
// other line stays byte for byte. The result is parsed again before it is
// returned, so a file is never left invalid.
#include <map>
#include <string>

#include "calibrate/multipair/fit/multipair_fit.hpp"

namespace contend::calibrate {

// `text` is the platform file's content, `name` its path (for errors);
// `sources` names each level's raw data in the comment written above its values.
std::string update_platform_levels(const std::string& text, const std::string& name, const std::map<Level, LevelFit>& fits,
                                   const std::map<Level, std::string>& sources);

// "11.93MB/s", "85.31us": four significant digits in a unit that keeps the
// number between 1 and 1000, in the platform file's own syntax.
std::string format_bandwidth(double bytes_per_second);
std::string format_duration(double seconds);

}  // namespace contend::calibrate
