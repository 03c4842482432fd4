#pragma once
// Thune et al.'s closed forms, computed directly for a many-pair exchange
// (all messages posted together, Algorithm 2), no simulation:
//   staircase           eqs. (5)-(9) per level group, the mixed intra/inter-
//                       socket model (12)-(17) inside a socket, eq. (18) total
//   max-rate            eqs. (2)-(3)
//   extended-max-rate   eq. (10)
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/mapping.hpp"
#include "sim/core/pattern.hpp"
#include "sim/core/platform.hpp"

namespace contend {

enum class ClosedForm { Staircase, MaxRate, ExtendedMaxRate };
const std::vector<std::string>& closed_form_names();    // "staircase", "max-rate", "extended-max-rate"
ClosedForm closed_form_by_name(std::string_view name);  // throws with the valid names

struct AnalyzedRank {
  double intra_node_time = 0;  // T_i^intra-node (eq. (15) for the staircase)
  double inter_node_time = 0;  // T_i^inter-node (eq. (8))
  double total_time = 0;       // eq. (18): their sum
};

// Staircase building blocks, exposed for tests.
// Eqs. (5)/(7): receive times of processes with volumes v sharing bw(n).
std::vector<double> staircase_receive_times(const std::vector<double>& volumes,
                                            const std::function<double(double)>& aggregate_bandwidth);
// Eq. (9): completion times of one process's messages (sizes), given its total receive time.
std::vector<double> staircase_message_times(const std::vector<double>& sizes, double receive_time);
// Eqs. (12)-(17): receive times of processes with intra (on) and inter-socket
// (off) volumes sharing one socket.
std::vector<double> mixed_receive_times(const std::vector<double>& on, const std::vector<double>& off,
                                        const BandwidthTable& bw_on, const BandwidthTable& bw_off);

std::vector<AnalyzedRank> analyze(const Platform& platform, const Mapping& mapping,
                                  const std::vector<PatternMessage>& messages, ClosedForm form);

}  // namespace contend
