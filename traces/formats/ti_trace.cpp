#include "traces/formats/ti_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <utility>

#include "sim/core/pattern.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace fs = std::filesystem;

namespace {

struct KindName {
  TiKind kind;
  std::string_view name;
};

constexpr std::array kKindNames{
    KindName{TiKind::Init, "init"},
    KindName{TiKind::Finalize, "finalize"},
    KindName{TiKind::Send, "send"},
    KindName{TiKind::Isend, "isend"},
    KindName{TiKind::Recv, "recv"},
    KindName{TiKind::Irecv, "irecv"},
    KindName{TiKind::Test, "test"},
    KindName{TiKind::Wait, "wait"},
    KindName{TiKind::Waitall, "waitall"},
    KindName{TiKind::Compute, "compute"},
    KindName{TiKind::Sleep, "sleep"},
    KindName{TiKind::Barrier, "barrier"},
    KindName{TiKind::Bcast, "bcast"},
    KindName{TiKind::Reduce, "reduce"},
    KindName{TiKind::Allreduce, "allreduce"},
    KindName{TiKind::Alltoall, "alltoall"},
    KindName{TiKind::Alltoallv, "alltoallv"},
    KindName{TiKind::Gather, "gather"},
    KindName{TiKind::Gatherv, "gatherv"},
    KindName{TiKind::Scatter, "scatter"},
    KindName{TiKind::Scatterv, "scatterv"},
    KindName{TiKind::Allgather, "allgather"},
    KindName{TiKind::Allgatherv, "allgatherv"},
    KindName{TiKind::ReduceScatter, "reducescatter"},
    KindName{TiKind::CommSize, "comm_size"},
    KindName{TiKind::CommSplit, "comm_split"},
    KindName{TiKind::CommDup, "comm_dup"},
    // What else SimGrid 3.32's tracer writes (smpi_pmpi_request.cpp).
    KindName{TiKind::SendRecv, "sendRecv"},
    KindName{TiKind::Send, "Ssend"},
    KindName{TiKind::Send, "bsend"},
    KindName{TiKind::Isend, "ISsend"},
    KindName{TiKind::Isend, "ibsend"},
    KindName{TiKind::WaitAny, "waitAny"},
    KindName{TiKind::TestAny, "testany"},
    KindName{TiKind::TestAll, "testall"},
    KindName{TiKind::TestSome, "testsome"},
};

// SimGrid 3.32's predefined datatypes (smpi_datatype.cpp), by id: the size is
// sizeof of the C type SimGrid declares for it (e.g. MPI_INTEGER1 is an int
// there, MPI_COMPLEX32 a pair of doubles).
constexpr std::array<int, 60> kSimgridTypeSizes{
    8,  4,  1,  2,  8,  4, 1,  8,  1, 1,   // 0 double .. 9 unsigned char
    2,  4,  8,  8,  16, 4, 1,  1,  2, 4,   // 10 unsigned short .. 19 int32_t
    8,  1,  2,  4,  8,  8, 16, 32, 8, 8,   // 20 int64_t .. 29 offset
    8,  16, 16, 8,  8,  8, 16, 16, 4, 4,   // 30 float_int .. 39 real4
    8,  16, 8,  16, 16, 4, 2,  4,  8, 16,  // 40 real8 .. 49 integer16
    32, 1,  8,  16, 32, 0, 0,  1,  8, 8,   // 50 long_double_int .. 59 count
};

// Field readers with errors that point at the field.
class Fields {
 public:
  Fields(PatternLine& line) : line_(line) {}
  std::size_t size() const { return line_.size(); }
  void need(std::size_t n, std::string_view usage) const {
    if (line_.size() < n) {
      line_.fail(line_.size() - 1, fmt::format("expected '{}': {} field(s) missing", usage, n - line_.size()));
    }
  }
  long long integer(std::size_t i, const char* what) const {
    const auto text = line_[i];
    long long v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc{} && ptr == text.data() + text.size()) return v;
    // SimGrid reads counts as doubles and truncates them.
    double d = 0;
    auto [dptr, dec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (dec == std::errc{} && dptr == text.data() + text.size() && std::isfinite(d) && std::abs(d) < 9e18) {
      return static_cast<long long>(std::trunc(d));
    }
    line_.fail(i, fmt::format("{}: expected an integer, got '{}'", what, text));
  }
  int in_range(std::size_t i, const char* what, long long lo, long long hi) const {
    const long long v = integer(i, what);
    if (v < lo || v > hi) line_.fail(i, fmt::format("{}: {} is out of range [{}, {}]", what, v, lo, hi));
    return static_cast<int>(v);
  }
  int rank(std::size_t i, const char* what, int world, bool any_allowed = false) const {
    return in_range(i, what, any_allowed ? -1 : 0, world - 1);
  }
  std::int64_t count(std::size_t i, const char* what) const {
    const long long v = integer(i, what);
    if (v < 0) line_.fail(i, fmt::format("{}: expected a count >= 0, got {}", what, v));
    return v;
  }
  double amount(std::size_t i, const char* what) const {
    const auto text = line_[i];
    double d = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec != std::errc{} || ptr != text.data() + text.size() || !std::isfinite(d) || d < 0) {
      line_.fail(i, fmt::format("{}: expected a number >= 0, got '{}'", what, text));
    }
    return d;
  }
  std::string datatype(std::size_t i) const {
    if (i >= line_.size()) return {};
    if (!simgrid_datatype_size(line_[i])) {
      line_.fail(i, fmt::format("unknown datatype id '{}': SimGrid 3.32 predefines ids 0 to 59", line_[i]));
    }
    return std::string(line_[i]);
  }
  std::vector<std::int64_t> counts(std::size_t first, int n, const char* what) const {
    std::vector<std::int64_t> v;
    for (int k = 0; k < n; ++k) v.push_back(count(first + static_cast<std::size_t>(k), what));
    return v;
  }
  int optional_root(std::size_t i, int world) const { return i < line_.size() ? rank(i, "root", world) : 0; }
  // [DATATYPE1 [DATATYPE2]] from field i.
  void datatypes(std::size_t i, TiAction& a) const {
    a.datatype1 = datatype(i);
    a.datatype2 = datatype(i + 1);
  }
  // [ROOT [DATATYPE1 [DATATYPE2]]] from field i.
  void root_and_datatypes(std::size_t i, int world, TiAction& a) const {
    a.root = optional_root(i, world);
    datatypes(i + 1, a);
  }
  PatternLine& line() { return line_; }

 private:
  PatternLine& line_;
};

// Splits off a trailing `comm=ID` (contend's extension).
int take_comm(std::vector<std::string_view>& fields, PatternLine& probe) {
  if (fields.size() < 3 || !fields.back().starts_with("comm=")) return 0;
  const auto text = fields.back().substr(5);
  int id = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc{} || ptr != text.data() + text.size() || id < 0) {
    probe.fail(fields.size() - 1, fmt::format("expected 'comm=ID' with ID >= 0, got '{}'", fields.back()));
  }
  fields.pop_back();
  return id;
}

// Splits off a trailing `type=LAYOUT` (contend's extension).
std::string take_layout(std::vector<std::string_view>& fields) {
  if (fields.size() < 3 || !fields.back().starts_with("type=")) return {};
  std::string layout(fields.back().substr(5));
  fields.pop_back();
  return layout;
}

void parse_arguments(TiAction& a, Fields& f, int world) {
  const std::string_view name = ti_kind_name(a.kind);
  switch (a.kind) {
    case TiKind::Init:
      a.init_has_argument = f.size() > 2;
      break;
    case TiKind::Finalize:
    case TiKind::Barrier:
      break;
    case TiKind::Send:
    case TiKind::Isend:
    case TiKind::Recv:
    case TiKind::Irecv: {
      f.need(5, fmt::format("RANK {} PEER TAG COUNT [DATATYPE]", name));
      const bool receive = a.kind == TiKind::Recv || a.kind == TiKind::Irecv;
      a.peer = f.rank(2, "peer", world, receive);
      a.tag = f.in_range(3, "tag", receive ? -1 : 0, 2147483647);
      a.count = f.count(4, "count");
      a.datatype1 = f.datatype(5);
      break;
    }
    case TiKind::Test:
    case TiKind::Wait:
      f.need(5, fmt::format("RANK {} SRC DST TAG", name));
      a.src = f.rank(2, "src", world, true);
      a.dst = f.rank(3, "dst", world);
      a.tag = f.in_range(4, "tag", -1, 2147483647);
      break;
    case TiKind::Waitall:
      f.need(3, "RANK waitall N");
      a.amount = static_cast<double>(f.count(2, "request count"));
      break;
    case TiKind::Compute:
      f.need(3, "RANK compute FLOPS");
      a.amount = f.amount(2, "flops");
      break;
    case TiKind::Sleep:
      f.need(3, "RANK sleep SECONDS");
      a.amount = f.amount(2, "seconds");
      break;
    case TiKind::Bcast:
      f.need(3, "RANK bcast COUNT [ROOT [DATATYPE]]");
      a.count = f.count(2, "count");
      a.root = f.optional_root(3, world);
      a.datatype1 = f.datatype(4);
      break;
    case TiKind::Reduce:
    case TiKind::Allreduce: {
      const bool rooted = a.kind == TiKind::Reduce;
      f.need(4, fmt::format("RANK {} COUNT FLOPS [{}]", name, rooted ? "ROOT [DATATYPE]" : "DATATYPE"));
      a.count = f.count(2, "count");
      a.amount = f.amount(3, "flops");
      if (rooted) a.root = f.optional_root(4, world);
      a.datatype1 = f.datatype(rooted ? 5 : 4);
      break;
    }
    case TiKind::Alltoall:
    case TiKind::Allgather:
    case TiKind::Gather:
    case TiKind::Scatter: {
      const bool rooted = a.kind == TiKind::Gather || a.kind == TiKind::Scatter;
      f.need(4, fmt::format("RANK {} SEND_COUNT RECV_COUNT [{}DATATYPE1 [DATATYPE2]{}]", name, rooted ? "ROOT [" : "",
                            rooted ? "]" : ""));
      a.send_count = f.count(2, "send count");
      a.recv_count = f.count(3, "receive count");
      if (rooted) {
        f.root_and_datatypes(4, world, a);
      } else {
        f.datatypes(4, a);
      }
      break;
    }
    case TiKind::Gatherv:
    case TiKind::Allgatherv: {
      const auto n = static_cast<std::size_t>(world);
      f.need(3 + n, fmt::format("RANK {} SEND_COUNT RECV_COUNT x {} ...", name, world));
      a.send_count = f.count(2, "send count");
      a.recv_counts = f.counts(3, world, "receive count");
      if (a.kind == TiKind::Gatherv) {
        f.root_and_datatypes(3 + n, world, a);
      } else {
        f.datatypes(3 + n, a);
      }
      break;
    }
    case TiKind::Scatterv: {
      const auto n = static_cast<std::size_t>(world);
      f.need(3 + n, fmt::format("RANK scatterv SEND_COUNT x {} RECV_COUNT [ROOT [DATATYPE1 [DATATYPE2]]]", world));
      a.send_counts = f.counts(2, world, "send count");
      a.recv_count = f.count(2 + n, "receive count");
      f.root_and_datatypes(3 + n, world, a);
      break;
    }
    case TiKind::ReduceScatter: {
      const auto n = static_cast<std::size_t>(world);
      f.need(3 + n, fmt::format("RANK reducescatter RECV_COUNT x {} FLOPS [DATATYPE]", world));
      a.recv_counts = f.counts(2, world, "receive count");
      a.amount = f.amount(2 + n, "flops");
      a.datatype1 = f.datatype(3 + n);
      break;
    }
    case TiKind::Alltoallv: {
      const auto n = static_cast<std::size_t>(world);
      f.need(4 + 2 * n, fmt::format("RANK alltoallv SEND_SUM SEND_COUNT x {0} RECV_SUM RECV_COUNT x {0} "
                                    "[DATATYPE1 [DATATYPE2]]",
                                    world));
      a.send_count = f.count(2, "send buffer size");
      a.send_counts = f.counts(3, world, "send count");
      a.recv_count = f.count(3 + n, "receive buffer size");
      a.recv_counts = f.counts(4 + n, world, "receive count");
      f.datatypes(4 + 2 * n, a);
      break;
    }
    case TiKind::CommSize:
      f.need(3, "RANK comm_size N");
      a.count = f.count(2, "size");
      break;
    case TiKind::CommSplit:
      // SimGrid writes no arguments (and replays it as a no-op): then it is a
      // split of the world that keeps every rank together.
      if (f.size() > 2) {
        f.need(5, "RANK comm_split PARENT COLOR KEY");
        a.parent = f.in_range(2, "parent communicator", 0, 2147483647);
        a.color = f.in_range(3, "color", -32766, 2147483647);  // -32766: MPI_UNDEFINED in Open MPI
        a.key = f.in_range(4, "key", -2147483647, 2147483647);
      }
      break;
    case TiKind::CommDup:
      if (f.size() > 2) a.parent = f.in_range(2, "parent communicator", 0, 2147483647);
      break;
    case TiKind::SendRecv:
      f.need(6, "RANK sendRecv SEND_COUNT DST RECV_COUNT SRC [DATATYPE1 [DATATYPE2]]");
      a.send_count = f.count(2, "send count");
      a.dst = f.rank(3, "destination", world);
      a.recv_count = f.count(4, "receive count");
      a.src = f.rank(5, "source", world, true);
      f.datatypes(6, a);
      break;
    case TiKind::WaitAny:
      f.need(3, "RANK waitAny N");
      a.amount = static_cast<double>(f.count(2, "request count"));
      break;
    case TiKind::TestAny:
    case TiKind::TestAll:
    case TiKind::TestSome:
      break;
  }
}

}  // namespace

std::string_view ti_action_name(const TiAction& action) {
  return action.name.empty() ? ti_kind_name(action.kind) : action.name;
}

std::string_view ti_kind_name(TiKind kind) {
  for (const auto& k : kKindNames) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

const std::vector<std::string>& ti_action_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& k : kKindNames) v.emplace_back(k.name);
    return v;
  }();
  return names;
}

std::optional<int> simgrid_datatype_size(std::string_view id) {
  int v = -1;
  auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
  if (ec != std::errc{} || ptr != id.data() + id.size() || v < 0 || v >= static_cast<int>(kSimgridTypeSizes.size())) {
    return std::nullopt;
  }
  return kSimgridTypeSizes[static_cast<std::size_t>(v)];
}

std::optional<TiAction> parse_ti_line(std::string_view text, const std::string& file, int line_no, int world,
                                      const CommSizeLookup& comm_size) {
  std::string_view content = text;
  if (auto hash = content.find('#'); hash != std::string_view::npos) content = content.substr(0, hash);
  if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
  auto fields = split_blanks(content);
  if (fields.empty()) return std::nullopt;
  PatternLine probe(text, fields, file, line_no, -1);
  if (fields.size() < 2) probe.fail(0, "expected 'RANK ACTION ARGUMENTS...'");
  TiAction action;
  const std::size_t last_field = fields.size() - 1;
  const int comm = take_comm(fields, probe);
  const std::string layout = take_layout(fields);
  PatternLine line(text, fields, file, line_no, -1);
  Fields f(line);
  action.rank = f.rank(0, "rank", world);
  const auto name = fields[1];
  const auto* found = std::find_if(kKindNames.begin(), kKindNames.end(), [&](const auto& k) { return k.name == name; });
  if (found == kKindNames.end()) {
    line.fail(1, fmt::format("unknown action '{}'{}", name, did_you_mean(name, ti_action_names())));
  }
  action.kind = found->kind;
  action.name = found->name;
  action.comm = comm;
  action.layout = layout;
  // Peers, roots and count arrays are relative to the call's communicator.
  int size = world;
  if (comm != 0) {
    const auto known = comm_size ? comm_size(comm) : std::nullopt;
    if (!known)
      probe.fail(last_field, fmt::format("communicator {} was not created on this rank (by comm_split "
                                         "or comm_dup) before this line",
                                         comm));
    size = *known;
  }
  parse_arguments(action, f, size);
  return action;
}

namespace {

void append_counts(std::string& out, const std::vector<std::int64_t>& counts) {
  for (auto c : counts) out += fmt::format(" {}", c);
}

void append_types(std::string& out, const std::string& a, const std::string& b = {}) {
  if (a.empty()) return;
  out += " " + a;
  if (!b.empty()) out += " " + b;
}

}  // namespace

std::string format_ti_action(const TiAction& a) {
  std::string out = fmt::format("{} {}", a.rank, ti_action_name(a));
  auto number = [](double v) { return fmt::format("{}", v); };
  switch (a.kind) {
    case TiKind::Init:
      if (a.init_has_argument) out += " 1";
      break;
    case TiKind::Finalize:
    case TiKind::Barrier:
      break;
    case TiKind::Send:
    case TiKind::Isend:
    case TiKind::Recv:
    case TiKind::Irecv:
      out += fmt::format(" {} {} {}", a.peer, a.tag, a.count);
      append_types(out, a.datatype1);
      break;
    case TiKind::Test:
    case TiKind::Wait:
      out += fmt::format(" {} {} {}", a.src, a.dst, a.tag);
      break;
    case TiKind::Waitall:
    case TiKind::Compute:
    case TiKind::Sleep:
      out += " " + number(a.amount);
      break;
    case TiKind::Bcast:
      out += fmt::format(" {} {}", a.count, a.root);
      append_types(out, a.datatype1);
      break;
    case TiKind::Reduce:
      out += fmt::format(" {} {} {}", a.count, number(a.amount), a.root);
      append_types(out, a.datatype1);
      break;
    case TiKind::Allreduce:
      out += fmt::format(" {} {}", a.count, number(a.amount));
      append_types(out, a.datatype1);
      break;
    case TiKind::Alltoall:
    case TiKind::Allgather:
      out += fmt::format(" {} {}", a.send_count, a.recv_count);
      append_types(out, a.datatype1, a.datatype2);
      break;
    case TiKind::Gather:
    case TiKind::Scatter:
      out += fmt::format(" {} {} {}", a.send_count, a.recv_count, a.root);
      append_types(out, a.datatype1, a.datatype2);
      break;
    case TiKind::Gatherv:
    case TiKind::Allgatherv:
      out += fmt::format(" {}", a.send_count);
      append_counts(out, a.recv_counts);
      if (a.kind == TiKind::Gatherv) out += fmt::format(" {}", a.root);
      append_types(out, a.datatype1, a.datatype2);
      break;
    case TiKind::Scatterv:
      append_counts(out, a.send_counts);
      out += fmt::format(" {} {}", a.recv_count, a.root);
      append_types(out, a.datatype1, a.datatype2);
      break;
    case TiKind::ReduceScatter:
      append_counts(out, a.recv_counts);
      out += " " + number(a.amount);
      append_types(out, a.datatype1);
      break;
    case TiKind::Alltoallv:
      out += fmt::format(" {}", a.send_count);
      append_counts(out, a.send_counts);
      out += fmt::format(" {}", a.recv_count);
      append_counts(out, a.recv_counts);
      append_types(out, a.datatype1, a.datatype2);
      break;
    case TiKind::CommSize:
      out += fmt::format(" {}", a.count);
      break;
    case TiKind::CommSplit:
      out += fmt::format(" {} {} {}", a.parent, a.color, a.key);
      break;
    case TiKind::CommDup:
      out += fmt::format(" {}", a.parent);
      break;
    case TiKind::SendRecv:
      out += fmt::format(" {} {} {} {}", a.send_count, a.dst, a.recv_count, a.src);
      append_types(out, a.datatype1, a.datatype2);
      break;
    case TiKind::WaitAny:
      out += " " + number(a.amount);
      break;
    case TiKind::TestAny:
    case TiKind::TestAll:
    case TiKind::TestSome:
      break;
  }
  if (!a.layout.empty()) out += " type=" + a.layout;
  if (a.comm != 0) out += fmt::format(" comm={}", a.comm);
  return out;
}

std::uint64_t ti_bytes(std::int64_t count, const std::string& datatype, bool default_is_double,
                       const SourceLocation& where) {
  const int size = datatype.empty() ? (default_is_double ? 8 : 1) : simgrid_datatype_size(datatype).value_or(-1);
  if (size < 0) throw Error(where, "unknown datatype id '" + datatype + "'");
  return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
}

namespace {

// A line that starts `RANK ACTION` with a known action: the file holds actions.
bool looks_like_action(const std::string& text) {
  const auto fields = split_blanks(text);
  if (fields.size() < 2) return false;
  int rank = 0;
  auto [ptr, ec] = std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), rank);
  if (ec != std::errc{} || ptr != fields[0].data() + fields[0].size()) return false;
  const auto& names = ti_action_names();
  return std::find(names.begin(), names.end(), fields[1]) != names.end();
}

std::string resolve_rank_file(const std::string& index, const std::string& name, int line) {
  const fs::path listed(name);
  const fs::path dir = fs::path(index).parent_path();
  std::vector<fs::path> candidates{dir / listed, listed};
  // SimGrid lists paths relative to the directory smpirun ran in: INDEX_files/
  // next to the index is where they are wherever the trace was moved.
  if (listed.has_parent_path()) candidates.push_back(dir / listed.parent_path().filename() / listed.filename());
  if (listed.is_absolute()) candidates = {listed, dir / listed.parent_path().filename() / listed.filename()};
  for (const auto& c : candidates) {
    if (fs::is_regular_file(c)) return c.string();
  }
  throw Error(
      SourceLocation{index, line, 1},
      fmt::format("rank file '{}' not found (looked in {}, the current directory and {})", name,
                  dir.empty() ? "." : dir.string(), (dir / (fs::path(index).filename().string() + "_files")).string()));
}

// Cheap test before parsing a line of a single-file trace: most lines belong
// to other ranks.
bool starts_with_rank(const std::string& text, int rank) {
  std::size_t i = text.find_first_not_of(" \t");
  if (i == std::string::npos || text[i] == '#') return false;
  int value = -1;
  auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), value);
  return ec != std::errc{} || value == rank;  // a malformed line is parsed (and reported)
}

}  // namespace

namespace {

// The highest rank a single-file trace names (one streaming pass).
int highest_rank_in(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the trace");
  std::string text;
  int line = 0;
  int highest = -1;
  while (std::getline(in, text)) {
    ++line;
    auto content = trim(std::string_view(text).substr(0, text.find('#')));
    if (content.empty()) continue;
    const auto fields = split_blanks(content);
    int rank = -1;
    auto [ptr, ec] = std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), rank);
    if (ec != std::errc{} || ptr != fields[0].data() + fields[0].size() || rank < 0) {
      throw Error(SourceLocation{path, line, 1}, fmt::format("expected 'RANK ACTION ...', got '{}'", content));
    }
    highest = std::max(highest, rank);
  }
  return highest;
}

}  // namespace

TiTraceFiles open_ti_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the trace");
  TiTraceFiles files;
  files.path = path;
  std::string text;
  int line = 0;
  std::vector<std::string> listed;
  while (std::getline(in, text)) {
    ++line;
    auto content = trim(std::string_view(text).substr(0, text.find('#')));
    if (content.empty()) continue;
    if (listed.empty() && looks_like_action(std::string(content))) {
      // The file holds actions: every rank's, in one file.
      files.rank_files.assign(static_cast<std::size_t>(highest_rank_in(path) + 1), path);
      files.single_file = true;
      return files;
    }
    listed.push_back(resolve_rank_file(path, std::string(content), line));
  }
  if (listed.size() == 1) {
    // SimGrid's tracing/smpi/format/ti-one-file: an index naming one file of every rank.
    const int ranks = std::max(highest_rank_in(listed.front()) + 1, 1);
    files.single_file = ranks > 1;
    files.rank_files.assign(static_cast<std::size_t>(ranks), listed.front());
  } else {
    files.rank_files = std::move(listed);
  }
  if (files.rank_files.empty()) throw Error(path + ": empty trace (expected an index of rank files or TI actions)");
  return files;
}

TiRankReader::TiRankReader(const TiTraceFiles& files, int rank)
    : file_(files.rank_files.at(static_cast<std::size_t>(rank))),
      in_(file_),
      rank_(rank),
      world_(files.ranks()),
      single_file_(files.single_file) {
  if (!in_) throw Error(file_ + ": cannot open rank " + std::to_string(rank) + "'s trace");
}

std::optional<TiAction> TiRankReader::next() {
  while (std::getline(in_, text_)) {
    ++line_;
    if (single_file_ && !starts_with_rank(text_, rank_)) continue;
    auto action = parse_ti_line(text_, file_, line_, world_, [this](int id) -> std::optional<int> {
      auto it = comm_sizes_.find(id);
      if (it == comm_sizes_.end()) return std::nullopt;
      return it->second;
    });
    if (!action) continue;
    if (action->rank != rank_) {
      if (single_file_) continue;
      throw Error(SourceLocation{file_, line_, 1},
                  fmt::format("line for rank {} in rank {}'s file", action->rank, rank_));
    }
    return action;
  }
  if (in_.bad()) throw Error(file_ + ": read error");
  return std::nullopt;
}

void write_ti_index(std::ostream& out, const std::vector<std::string>& rank_files) {
  for (const auto& f : rank_files) out << f << '\n';
}

}  // namespace contend
