#include "traces/convert/otf2_to_ti.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "sim/core/file_io.hpp"
#include "traces/formats/otf2_trace.hpp"
#include "traces/formats/ti_trace.hpp"

namespace contend {

ConversionSummary convert_otf2_to_ti(const std::string& anchor, const std::string& dir, double speed) {
  const Otf2Definitions defs = read_otf2_definitions(anchor);
  std::filesystem::create_directories(dir);
  // OTF2 communicator ids -> creation order on every rank (1, 2, ...).
  std::map<int, int> ti_comm;
  for (const auto& [id, members] : defs.communicators) ti_comm[id] = static_cast<int>(ti_comm.size()) + 1;
  ConversionSummary summary;
  summary.ranks = defs.ranks();
  std::vector<std::string> files;
  for (int r = 0; r < defs.ranks(); ++r) {
    const std::string name = "rank-" + std::to_string(r) + ".txt";
    files.push_back(name);
    write_file_atomically(dir + "/" + name, [&](std::ostream& out) {
      out << ti_speed_comment(speed) << '\n';  // for the replay's --compute measured
      for (const auto& [id, members] : defs.communicators) {
        TiAction split;
        split.kind = TiKind::CommSplit;
        split.rank = r;
        auto me = std::find(members.begin(), members.end(), r);
        split.color = me == members.end() ? -1 : 0;
        split.key = me == members.end() ? 0 : static_cast<int>(me - members.begin());
        out << format_ti_action(split) << '\n';
      }
      Otf2RankReader reader(defs, r);
      while (auto action = reader.next()) {
        if (action->kind == TiKind::Compute && action->in_seconds) {
          action->amount *= speed;
          action->in_seconds = false;
        }
        if (action->comm != 0) action->comm = ti_comm.at(action->comm);
        // TI counts are ints for SimGrid: unknown receive sizes become the
        // rank's total received bytes, a bound on each of its messages.
        for (auto* counts : {&action->recv_counts, &action->send_counts}) {
          std::replace(counts->begin(), counts->end(), kOtf2AnySize, action->receive_bound);
        }
        if (action->recv_count == kOtf2AnySize) action->recv_count = action->receive_bound;
        out << format_ti_action(*action) << '\n';
        ++summary.actions;
      }
    });
  }
  write_file_atomically(dir + "/trace.txt", [&](std::ostream& out) { write_ti_index(out, files); });
  return summary;
}

}  // namespace contend
