#pragma once
// Measured ping-pong round trips, to set against the model (Bacon et al.'s
// Figs. 2-5: relative prediction error per size). CSV with a header naming
// at least `bytes` (payload) and `seconds` (one round trip), optionally
// `datatype` (rows of other datatypes are ignored; quote names with commas:
// "vector:4,1,4:float"); '#' comments; repeated
// sizes are repetitions, summarised by their median.
#include <cstdint>
#include <map>
#include <string>

namespace contend {

// Median round trip per size for `datatype` (Datatype::name()); read with
// sim/core/csv, errors name file:line:col.
std::map<std::uint64_t, double> read_pingpong_medians(const std::string& path, const std::string& datatype);

}  // namespace contend
