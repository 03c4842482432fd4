#include "sim/core/results.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sim/core/buffered_output.hpp"
#include "sim/core/error.hpp"
#include "sim/core/parallel_rows.hpp"
#include "sim/core/units.hpp"

namespace contend {

double Results::makespan() const {
  double m = 0;
  for (const auto& r : ranks) m = std::max(m, r.total_time);
  return m;
}

std::uint64_t Results::total_messages() const {
  std::uint64_t n = 0;
  for (const auto& l : levels) n += l.messages;
  return n;
}

std::uint64_t Results::total_bytes() const {
  std::uint64_t n = 0;
  for (const auto& l : levels) n += l.bytes;
  return n;
}

// Millions of rows: formatted in place into one buffer (BufferedOutput), not
// through a stream per row.
void write_rank_csv(std::ostream& out, const Results& r) {
  BufferedOutput text(out);
  text.append("rank,node,socket,core,recv_time_s,send_time_s,total_time_s\n");
  for (const auto& x : r.ranks) {
    text.print("{},{},{},{},{:.12g},{:.12g},{:.12g}\n", x.rank, x.place.node, x.place.socket, x.place.core, x.recv_time,
               x.send_time, x.total_time);
  }
}

// Millions of rows: formatted in blocks on two threads (parallel_rows.hpp).
void write_messages_csv(std::ostream& out, const Results& r) {
  out << (r.attributed ? "src,dst,bytes,level,start_s,end_s,limited_by,slowdown\n"
                       : "src,dst,bytes,level,start_s,end_s\n");
  write_rows_in_parallel(out, r.messages.size(), [&r](fmt::memory_buffer& text, std::size_t begin, std::size_t end) {
    auto row = std::back_inserter(text);
    for (std::size_t i = begin; i < end; ++i) {
      const MessageRecord& m = r.messages[i];
      fmt::format_to(row, "{},{},{},{},{:.12g},{:.12g}", m.src, m.dst, m.bytes, level_name(m.level), m.start, m.end);
      if (r.attributed) {
        const MessageAttribution* a = find_attribution(r, m.id);
        if (a == nullptr) throw Error(fmt::format("internal error: message {} has no attribution", m.id));
        fmt::format_to(row, ",{},{:.12g}", a->limited_by(), a->slowdown());
      }
      text.push_back('\n');
    }
  });
}

const MessageAttribution* find_attribution(const Results& r, std::uint64_t id) {
  const auto it = std::lower_bound(r.attribution.begin(), r.attribution.end(), id,
                                   [](const MessageAttribution& a, std::uint64_t key) { return a.id < key; });
  return it != r.attribution.end() && it->id == id ? &*it : nullptr;
}

nlohmann::ordered_json json_head(const std::string& command, const std::string& contend_version,
                                 const nlohmann::ordered_json& units, const nlohmann::ordered_json& options) {
  nlohmann::ordered_json j;
  j["schema"] = "contend." + command;
  j["schema_version"] = kJsonSchemaVersion;
  j["contend_version"] = contend_version;
  j["units"] = units;
  j["options"] = options;
  return j;
}

void write_json(std::ostream& out, const Results& r, nlohmann::ordered_json head) {
  nlohmann::ordered_json& j = head;
  for (const char* time : {"makespan", "recv_time", "send_time", "total_time"}) j["units"][time] = "s";
  j["units"]["bytes"] = "B";
  j["model"] = r.model;
  j["platform"] = r.platform;
  j["workload"] = r.workload;
  j["mapping"] = r.mapping;
  j["makespan"] = r.makespan();
  j["messages"] = r.total_messages();
  j["bytes"] = r.total_bytes();
  for (Level l : kAllLevels) {
    const auto& s = r.levels[static_cast<std::size_t>(l)];
    j["levels"][std::string(level_name(l))] = {{"messages", s.messages}, {"bytes", s.bytes}};
  }
  auto& ranks = j["ranks"] = nlohmann::ordered_json::array();
  for (const auto& x : r.ranks) {
    ranks.push_back({{"rank", x.rank},
                     {"node", x.place.node},
                     {"socket", x.place.socket},
                     {"core", x.place.core},
                     {"recv_time", x.recv_time},
                     {"send_time", x.send_time},
                     {"total_time", x.total_time}});
  }
  j["warnings"] = r.warnings;
  out << j.dump(2) << "\n";
}

namespace {

void print_rank_row(std::ostream& out, const RankResult& x) {
  fmt::print(out, "  {:>7} {:>5} {:>6} {:>5} {:>14.9f} {:>14.9f} {:>14.9f}\n", x.rank, x.place.node, x.place.socket,
             x.place.core, x.recv_time, x.send_time, x.total_time);
}

}  // namespace

void print_summary(std::ostream& out, const Results& r, std::size_t table_rows) {
  fmt::print(out, "contend: {} on {} ({} ranks, mapping {}), model {}{}\n", r.workload, r.platform, r.ranks.size(),
             r.mapping, r.model, r.model_origin.empty() ? "" : " (" + r.model_origin + ")");
  if (r.ranks.empty()) return;
  auto by_time = r.ranks;
  std::stable_sort(by_time.begin(), by_time.end(),
                   [](const RankResult& a, const RankResult& b) { return a.total_time > b.total_time; });
  const auto& slow = by_time.front();
  const auto& fast = by_time.back();
  fmt::print(out, "  makespan        {}\n", units::human_duration(r.makespan()));
  fmt::print(out, "  slowest rank    {} ({}, node {} socket {} core {})\n", slow.rank,
             units::human_duration(slow.total_time), slow.place.node, slow.place.socket, slow.place.core);
  fmt::print(out, "  fastest rank    {} ({}, node {} socket {} core {})\n", fast.rank,
             units::human_duration(fast.total_time), fast.place.node, fast.place.socket, fast.place.core);
  fmt::print(out, "  messages        {} ({})\n", r.total_messages(),
             units::human_size(static_cast<double>(r.total_bytes())));
  for (Level l : kAllLevels) {
    const auto& s = r.levels[static_cast<std::size_t>(l)];
    const double share =
        r.total_bytes() ? 100.0 * static_cast<double>(s.bytes) / static_cast<double>(r.total_bytes()) : 0;
    fmt::print(out, "    {:<13} {:>10} messages {:>12} {:5.1f}% of volume\n", level_name(l), s.messages,
               units::human_size(static_cast<double>(s.bytes)), share);
  }
  fmt::print(out, "  {:>7} {:>5} {:>6} {:>5} {:>14} {:>14} {:>14}\n", "rank", "node", "socket", "core", "recv_time[s]",
             "send_time[s]", "total_time[s]");
  if (r.ranks.size() <= 2 * table_rows) {
    for (const auto& x : r.ranks) print_rank_row(out, x);
    return;
  }
  for (std::size_t i = 0; i < table_rows; ++i) print_rank_row(out, by_time[i]);
  fmt::print(out, "  {:>7}   ({} ranks not shown; the {} slowest and {} fastest are; --per-rank FILE has all)\n", "...",
             r.ranks.size() - 2 * table_rows, table_rows, table_rows);
  for (std::size_t i = by_time.size() - table_rows; i < by_time.size(); ++i) print_rank_row(out, by_time[i]);
}

}  // namespace contend
