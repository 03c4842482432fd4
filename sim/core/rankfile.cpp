#include "sim/core/rankfile.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <map>
#include <optional>
#include <tuple>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace {

// One rank's cores: [first, first + count) of `socket`.
struct Slot {
  int socket = 0;
  int first = 0;
  int count = 1;
};

// Reads a line left to right, knowing each token's column for messages.
class LineReader {
 public:
  LineReader(const std::string& path, int line_no, std::string_view text)
      : path_(path), line_no_(line_no), text_(text) {}

  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) ++pos_;
  }
  bool at_end() {
    skip_blanks();
    return pos_ >= text_.size();
  }
  SourceLocation here() const { return SourceLocation{path_, line_no_, static_cast<int>(pos_) + 1}; }
  // The next word: up to a blank or '='.
  std::string_view word() {
    skip_blanks();
    const std::size_t from = pos_;
    while (pos_ < text_.size() && text_[pos_] != ' ' && text_[pos_] != '\t' && text_[pos_] != '\r' &&
           text_[pos_] != '=')
      ++pos_;
    return text_.substr(from, pos_ - from);
  }
  void expect(char c, std::string_view what) {
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != c) fail(what);
    ++pos_;
  }
  [[noreturn]] void fail(std::string_view expected) {
    skip_blanks();
    const auto rest = trim(text_.substr(pos_));
    throw Error(here(), "expected " + std::string(expected) + ", got " +
                            (rest.empty() ? std::string("the end of the line") : "'" + std::string(rest) + "'"));
  }

 private:
  const std::string& path_;
  int line_no_;
  std::string_view text_;
  std::size_t pos_ = 0;
};

std::optional<int> to_int(std::string_view text) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// "C" or "C1-C2" as [first, last].
std::optional<std::pair<int, int>> core_range(std::string_view text) {
  const auto dash = text.find('-');
  const auto first = to_int(text.substr(0, dash));
  if (!first) return std::nullopt;
  if (dash == std::string_view::npos) return std::make_pair(*first, *first);
  const auto last = to_int(text.substr(dash + 1));
  if (!last || *last < *first) return std::nullopt;
  return std::make_pair(*first, *last);
}

const char* kSlotForms = "slot=S:C, S:C1-C2, C or C1-C2 (one core or one range of cores)";

Slot parse_slot(std::string_view spec, const NodeArchitecture& nodes, const std::string& host,
                const SourceLocation& where) {
  const auto colon = spec.find(':');
  Slot slot;
  std::optional<std::pair<int, int>> range;
  if (colon == std::string_view::npos) {
    range = core_range(spec);
    if (!range) throw Error(where, std::string("expected ") + kSlotForms + ", got 'slot=" + std::string(spec) + "'");
    if (range->second >= nodes.cores_per_node()) {
      throw Error(where, fmt::format("slot={}: {} has {} cores (0-{})", spec, host, nodes.cores_per_node(),
                                     nodes.cores_per_node() - 1));
    }
    slot.socket = range->first / nodes.cores_per_socket;
    if (range->second / nodes.cores_per_socket != slot.socket) {
      throw Error(where,
                  fmt::format("slot={}: the cores span two sockets; contend binds a rank within one socket", spec));
    }
    slot.first = range->first % nodes.cores_per_socket;
  } else {
    const auto socket = to_int(spec.substr(0, colon));
    range = core_range(spec.substr(colon + 1));
    if (!socket || !range) {
      throw Error(where, std::string("expected ") + kSlotForms + ", got 'slot=" + std::string(spec) + "'");
    }
    if (*socket >= nodes.sockets) {
      throw Error(where, fmt::format("slot={}: {} has {} socket{} (0-{})", spec, host, nodes.sockets,
                                     nodes.sockets == 1 ? "" : "s", nodes.sockets - 1));
    }
    if (range->second >= nodes.cores_per_socket) {
      throw Error(where, fmt::format("slot={}: socket {} of {} has {} cores (0-{})", spec, *socket, host,
                                     nodes.cores_per_socket, nodes.cores_per_socket - 1));
    }
    slot.socket = *socket;
    slot.first = range->first;
  }
  slot.count = range->second - range->first + 1;
  return slot;
}

// The host of `rank R=HOST`: a machine's host, user@host, host.domain, or +nK.
int parse_host(std::string_view text, const Machine& machine, const SourceLocation& where) {
  if (text.starts_with("+n")) {
    const auto k = to_int(text.substr(2));
    if (!k || *k >= machine.nodes().count) {
      throw Error(where, fmt::format("'{}': the machine has {} nodes (+n0 to +n{})", text, machine.nodes().count,
                                     machine.nodes().count - 1));
    }
    return *k;
  }
  std::string_view name = text.substr(text.find('@') == std::string_view::npos ? 0 : text.find('@') + 1);
  if (auto node = machine.node_named(name)) return *node;
  // Open MPI strips the domain of a fully qualified name.
  if (auto node = machine.node_named(name.substr(0, name.find('.')))) return *node;
  const auto names = machine.host_names();
  std::string listed =
      join(std::vector<std::string>(names.begin(), names.begin() + std::min<std::size_t>(names.size(), 8)));
  if (names.size() > 8) listed += ", ...";
  throw Error(where, "unknown host '" + std::string(name) + "'" + did_you_mean(name, names) +
                         "; the machine's hosts are " + listed + " (nodes.hosts in the platform, or --hosts FILE)");
}

}  // namespace

Mapping read_rankfile(const std::string& path, int rank_count, const Machine& machine, bool oversubscribe) {
  std::ifstream in = open_input(path, "cannot open rankfile '" + path + "'");
  const NodeArchitecture& nodes = machine.nodes();
  std::vector<Placement> placements(static_cast<std::size_t>(rank_count));
  std::vector<int> defined_at(static_cast<std::size_t>(rank_count), 0);
  std::vector<int> per_node(static_cast<std::size_t>(nodes.count), 0);
  std::map<std::tuple<int, int, int>, int> core_owner;
  int width = 0, width_line = 0;
  std::string line;
  int line_no = 0;
  while (read_line(in, line, path, line_no + 1)) {
    ++line_no;
    std::string_view content = line;
    content = content.substr(0, std::min(content.find('#'), content.find("//")));
    LineReader reader(path, line_no, content);
    if (reader.at_end()) continue;
    if (reader.word() != "rank") reader.fail("'rank R=HOST slot=...'");
    reader.skip_blanks();
    const SourceLocation rank_at = reader.here();
    const auto rank = to_int(reader.word());
    if (!rank) reader.fail("a rank number after 'rank'");
    if (*rank >= rank_count) {
      throw Error(rank_at,
                  fmt::format("rank {}, but the workload has {} ranks (0-{})", *rank, rank_count, rank_count - 1));
    }
    reader.expect('=', "'=' after the rank");
    reader.skip_blanks();
    const SourceLocation host_at = reader.here();
    const int node = parse_host(reader.word(), machine, host_at);
    const auto keyword = reader.word();
    if (keyword != "slot" && keyword != "slots") reader.fail("'slot=' after the host");
    reader.expect('=', "'=' after 'slot'");
    reader.skip_blanks();
    const SourceLocation slot_at = reader.here();
    const Slot slot = parse_slot(reader.word(), nodes, machine.host(node).name, slot_at);
    if (!reader.at_end()) reader.fail("the end of the line after the slot");

    const auto r = static_cast<std::size_t>(*rank);
    if (defined_at[r] != 0) {
      throw Error(rank_at, fmt::format("rank {} is already placed on line {}", *rank, defined_at[r]));
    }
    if (width == 0) {
      width = slot.count;
      width_line = line_no;
    } else if (slot.count != width) {
      throw Error(slot_at, fmt::format("rank {} has {} cores but the rank on line {} has {}; contend needs the same "
                                       "number of cores for every rank",
                                       *rank, slot.count, width_line, width));
    }
    defined_at[r] = line_no;
    placements[r] = Placement{node, slot.socket, slot.first};
    if (++per_node[static_cast<std::size_t>(node)] > machine.host(node).slots && !oversubscribe) {
      throw Error(rank_at, fmt::format("{} gets more ranks than its {} slots; pass --oversubscribe to allow it",
                                       machine.host(node).name, machine.host(node).slots));
    }
    for (int c = slot.first; c < slot.first + slot.count; ++c) {
      auto [it, inserted] = core_owner.emplace(std::make_tuple(node, slot.socket, c), *rank);
      if (!inserted && !oversubscribe) {
        throw Error(slot_at, fmt::format("rank {} shares {} socket {} core {} with rank {}; pass --oversubscribe to "
                                         "allow it",
                                         *rank, machine.host(node).name, slot.socket, c, it->second));
      }
    }
  }
  for (int r = 0; r < rank_count; ++r) {
    if (defined_at[static_cast<std::size_t>(r)] == 0) {
      throw Error(SourceLocation{path, 0, 0},
                  fmt::format("rank {} is not placed (the workload has {} ranks)", r, rank_count));
    }
  }
  return Mapping(std::move(placements), std::max(width, 1));
}

void write_rankfile(std::ostream& out, const Mapping& mapping, const Machine& machine, SlotStyle style) {
  const NodeArchitecture& nodes = machine.nodes();
  const int width = mapping.cores_per_rank();
  for (int r = 0; r < mapping.rank_count(); ++r) {
    const Placement& p = mapping[r];
    const int first = style == SlotStyle::SocketCore ? p.core : p.socket * nodes.cores_per_socket + p.core;
    std::string slot =
        style == SlotStyle::SocketCore ? fmt::format("{}:{}", p.socket, first) : fmt::format("{}", first);
    if (width > 1) slot += fmt::format("-{}", first + width - 1);
    out << fmt::format("rank {}={} slot={}\n", r, machine.host(p.node).name, slot);
  }
}

}  // namespace contend
