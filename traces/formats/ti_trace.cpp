#include "traces/formats/ti_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <type_traits>
#include <utility>

#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

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
    KindName{TiKind::Location, "location"},
    KindName{TiKind::Scan, "scan"},
    KindName{TiKind::Exscan, "exscan"},
    // The names SimGrid wrote before 3.20 (smpi_replay.cpp of 3.19), with the
    // arguments of today's except where parse_arguments says.
    KindName{TiKind::Isend, "Isend"},
    KindName{TiKind::Irecv, "Irecv"},
    KindName{TiKind::Waitall, "waitAll"},
    KindName{TiKind::Allreduce, "allReduce"},
    KindName{TiKind::Alltoall, "allToAll"},
    KindName{TiKind::Alltoallv, "allToAllV"},
    KindName{TiKind::Gatherv, "gatherV"},
    KindName{TiKind::Scatterv, "scatterV"},
    KindName{TiKind::Allgather, "allGather"},
    KindName{TiKind::Allgatherv, "allGatherV"},
    KindName{TiKind::ReduceScatter, "reduceScatter"},
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

// Field readers with errors that point at the field (its column in the
// line as written). The fields are views into the line, split into the
// reader's buffer: reading a line allocates nothing.
class Fields {
 public:
  Fields(std::string_view text, const std::vector<std::string_view>& fields, const std::string& file, int line)
      : text_(text), fields_(fields), size_(fields.size()), file_(file), line_no_(line) {}
  // The arguments: the fields but the trailing extensions taken off.
  std::size_t size() const { return size_; }
  std::string_view operator[](std::size_t i) const { return fields_[i]; }
  // Takes off the last argument (an extension read by the caller).
  void drop_last() { --size_; }
  SourceLocation where(std::size_t field) const {
    const int column = field < fields_.size() ? static_cast<int>(fields_[field].data() - text_.data()) + 1 : 1;
    return SourceLocation{file_, line_no_, column};
  }
  [[noreturn]] void fail(std::size_t field, const std::string& message) const { throw Error(where(field), message); }
  // A documented limit passed (docs/limits.md): exit status 3.
  [[noreturn]] void refuse(std::size_t field, const std::string& message) const {
    throw LimitError(where(field), message);
  }
  // At least n fields; `usage` (text, or a function giving it: formatted
  // only for the error) says what the line should look like.
  template <typename Usage>
  void need(std::size_t n, const Usage& usage) const {
    if (size_ >= n) return;
    if constexpr (std::is_invocable_v<Usage>) {
      fail(size_ - 1, fmt::format("expected '{}': {} field(s) missing", usage(), n - size_));
    } else {
      fail(size_ - 1, fmt::format("expected '{}': {} field(s) missing", usage, n - size_));
    }
  }
  long long integer(std::size_t i, const char* what) const {
    const auto text = fields_[i];
    long long v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc{} && ptr == text.data() + text.size()) return v;
    // SimGrid reads counts as doubles and truncates them.
    double d = 0;
    auto [dptr, dec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (dec == std::errc{} && dptr == text.data() + text.size() && std::isfinite(d) && std::abs(d) < 9e18) {
      return static_cast<long long>(std::trunc(d));
    }
    fail(i, fmt::format("{}: expected an integer, got '{}'", what, text));
  }
  int in_range(std::size_t i, const char* what, long long lo, long long hi) const {
    const long long v = integer(i, what);
    if (v < lo || v > hi) fail(i, fmt::format("{}: {} is out of range [{}, {}]", what, v, lo, hi));
    return static_cast<int>(v);
  }
  int rank(std::size_t i, const char* what, int world, bool any_allowed = false) const {
    return in_range(i, what, any_allowed ? -1 : 0, world - 1);
  }
  // A count of elements: at least 0 (or -1, "unknown", where SimGrid's
  // receive probes for the size), at most a message's limit.
  std::int64_t count(std::size_t i, const char* what, bool unknown_allowed = false) const {
    const long long v = integer(i, what);
    if (v < 0 && !(unknown_allowed && v == kTiUnknownCount)) {
      fail(i, fmt::format("{}: expected a count >= 0{}, got {}", what, unknown_allowed ? " (or -1)" : "", v));
    }
    if (static_cast<std::uint64_t>(std::max(v, 0LL)) > limits::kMaxMessageBytes) {
      refuse(i,
             fmt::format("{}: {}", what, limits::exceeds(fmt::format("{} elements", v), limits::kMaxMessageBytesText)));
    }
    return v;
  }
  // Flops (compute, reductions) or seconds (sleep), within contend's limits.
  double amount(std::size_t i, const char* what, bool seconds = false) const {
    const auto text = fields_[i];
    double d = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if ((ec != std::errc{} && ec != std::errc::result_out_of_range) || ptr != text.data() + text.size() ||
        (ec == std::errc{} && !std::isfinite(d)) || d < 0 || text.front() == '-') {
      fail(i, fmt::format("{}: expected a number >= 0, got '{}'", what, text));
    }
    const double max = seconds ? limits::kMaxDuration : limits::kMaxFlops;
    if (ec == std::errc::result_out_of_range || d > max) {
      refuse(i, fmt::format("{}: {}", what,
                            limits::exceeds(fmt::format("'{}'", text),
                                            seconds ? limits::kMaxDurationText : limits::kMaxFlopsText)));
    }
    return d;
  }
  std::string datatype(std::size_t i) const {
    if (i >= size_) return {};
    if (fields_[i] == "-1") return {};  // SimGrid before 3.20: a type it could not encode, replayed as the default
    if (!simgrid_datatype_size(fields_[i])) {
      fail(i, fmt::format("unknown datatype id '{}': SimGrid 3.32 predefines ids 0 to 59", fields_[i]));
    }
    return std::string(fields_[i]);
  }
  std::vector<std::int64_t> counts(std::size_t first, int n, const char* what) const {
    std::vector<std::int64_t> v;
    for (int k = 0; k < n; ++k) v.push_back(count(first + static_cast<std::size_t>(k), what));
    return v;
  }
  int optional_root(std::size_t i, int world) const { return i < size_ ? rank(i, "root", world) : 0; }
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

 private:
  std::string_view text_;
  const std::vector<std::string_view>& fields_;
  std::size_t size_;
  const std::string& file_;
  int line_no_;
};

// Takes off a trailing `comm=ID` (contend's extension).
int take_comm(Fields& f) {
  if (f.size() < 3 || !f[f.size() - 1].starts_with("comm=")) return 0;
  const auto field = f[f.size() - 1];
  const auto text = field.substr(5);
  int id = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc{} || ptr != text.data() + text.size() || id < 0) {
    f.fail(f.size() - 1, fmt::format("expected 'comm=ID' with ID >= 0, got '{}'", field));
  }
  f.drop_last();
  return id;
}

// Takes off a trailing `type=LAYOUT` (contend's extension).
std::string_view take_layout(Fields& f) {
  if (f.size() < 3 || !f[f.size() - 1].starts_with("type=")) return {};
  const auto layout = f[f.size() - 1].substr(5);
  f.drop_last();
  return layout;
}

// SimGrid before 3.20 wrote point-to-point lines without a tag:
// `send PEER COUNT [DATATYPE]`; they are replayed with tag 0, as it did.
void point_to_point_arguments(TiAction& a, Fields& f, int world, TiDialect dialect) {
  const std::string_view name = a.name.empty() ? ti_kind_name(a.kind) : a.name;
  const bool receive = a.kind == TiKind::Recv || a.kind == TiKind::Irecv;
  if (dialect == TiDialect::before_3_20) {
    f.need(4, [&] { return fmt::format("RANK {} PEER COUNT [DATATYPE] (SimGrid before 3.20)", name); });
    a.peer = f.rank(2, "peer", world, receive);
    a.count = f.count(3, "count", receive);
    a.datatype1 = f.datatype(4);
    return;
  }
  f.need(5, [&] { return fmt::format("RANK {} PEER TAG COUNT [DATATYPE]", name); });
  a.peer = f.rank(2, "peer", world, receive);
  a.tag = f.in_range(3, "tag", receive ? -1 : 0, 2147483647);
  a.count = f.count(4, "count", receive);  // a receive of unknown size (-1): SimGrid probes for it
  a.datatype1 = f.datatype(5);
}

// allgatherv SEND_COUNT RECV_COUNT x n, then what SimGrid 3.32's parser
// accepts after them: [DATATYPE1 DATATYPE2] [DISPLACEMENT x n], told apart
// by their number as it does (GatherVArgParser); displacements do not
// change what moves.
void allgatherv_tail(TiAction& a, Fields& f, std::size_t n) {
  const std::size_t after_counts = 3 + n;
  if (f.size() > after_counts + n) {
    f.datatypes(after_counts, a);  // datatypes and displacements
  } else if (f.size() > after_counts + 2) {
    return;  // displacements only: the default datatype
  } else {
    f.datatypes(after_counts, a);
  }
}

void parse_arguments(TiAction& a, Fields& f, int world, TiDialect dialect) {
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
    case TiKind::Irecv:
      point_to_point_arguments(a, f, world, dialect);
      break;
    case TiKind::Test:
    case TiKind::Wait:
      // SimGrid before 3.20 named no request: the last one posted.
      if (f.size() == 2) {
        a.latest_request = true;
        break;
      }
      f.need(5, [&] { return fmt::format("RANK {} SRC DST TAG", name); });
      a.src = f.rank(2, "src", world, true);
      a.dst = f.rank(3, "dst", world);
      a.tag = f.in_range(4, "tag", -1, 2147483647);
      break;
    case TiKind::Waitall:
      // The count is informative (SimGrid waits for every pending request).
      if (f.size() > 2) a.amount = static_cast<double>(f.count(2, "request count"));
      break;
    case TiKind::Compute:
      f.need(3, "RANK compute FLOPS");
      a.amount = f.amount(2, "flops");
      break;
    case TiKind::Sleep:
      f.need(3, "RANK sleep SECONDS");
      a.amount = f.amount(2, "seconds", true);
      break;
    case TiKind::Location:
      // Where the call was made (smpi/trace-call-location); nothing to replay.
      f.need(4, "RANK location FILE LINE");
      a.count = f.count(3, "line");
      break;
    case TiKind::Scan:
    case TiKind::Exscan:
      f.need(4, [&] { return fmt::format("RANK {} COUNT FLOPS [DATATYPE]", name); });
      a.count = f.count(2, "count");
      a.amount = f.amount(3, "flops");
      a.datatype1 = f.datatype(4);
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
      f.need(4, [&] { return fmt::format("RANK {} COUNT FLOPS [{}]", name, rooted ? "ROOT [DATATYPE]" : "DATATYPE"); });
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
      f.need(4, [&] {
        return fmt::format("RANK {} SEND_COUNT RECV_COUNT [{}DATATYPE1 [DATATYPE2]{}]", name, rooted ? "ROOT [" : "",
                           rooted ? "]" : "");
      });
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
      f.need(3 + n, [&] { return fmt::format("RANK {} SEND_COUNT RECV_COUNT x {} ...", name, world); });
      a.send_count = f.count(2, "send count");
      a.recv_counts = f.counts(3, world, "receive count");
      if (a.kind == TiKind::Gatherv) {
        f.root_and_datatypes(3 + n, world, a);
      } else {
        allgatherv_tail(a, f, n);
      }
      break;
    }
    case TiKind::Scatterv: {
      const auto n = static_cast<std::size_t>(world);
      f.need(3 + n, [&] {
        return fmt::format("RANK scatterv SEND_COUNT x {} RECV_COUNT [ROOT [DATATYPE1 [DATATYPE2]]]", world);
      });
      a.send_counts = f.counts(2, world, "send count");
      a.recv_count = f.count(2 + n, "receive count");
      f.root_and_datatypes(3 + n, world, a);
      break;
    }
    case TiKind::ReduceScatter: {
      const auto n = static_cast<std::size_t>(world);
      f.need(3 + n, [&] { return fmt::format("RANK reducescatter RECV_COUNT x {} FLOPS [DATATYPE]", world); });
      a.recv_counts = f.counts(2, world, "receive count");
      a.amount = f.amount(2 + n, "flops");
      a.datatype1 = f.datatype(3 + n);
      break;
    }
    case TiKind::Alltoallv: {
      const auto n = static_cast<std::size_t>(world);
      f.need(4 + 2 * n, [&] {
        return fmt::format(
            "RANK alltoallv SEND_SUM SEND_COUNT x {0} RECV_SUM RECV_COUNT x {0} "
            "[DATATYPE1 [DATATYPE2]]",
            world);
      });
      a.send_count = f.count(2, "send buffer size");
      a.send_counts = f.counts(3, world, "send count");
      a.recv_count = f.count(3 + n, "receive buffer size");
      a.recv_counts = f.counts(4 + n, world, "receive count");
      f.datatypes(4 + 2 * n, a);
      break;
    }
    case TiKind::CommSize:
      if (f.size() > 2) a.count = f.count(2, "size");  // informative: SimGrid's replay ignores it
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
                                      const CommSizeLookup& comm_size, TiDialect dialect) {
  std::vector<std::string_view> fields;
  return parse_ti_line(text, file, line_no, world, fields, comm_size, dialect);
}

std::optional<TiAction> parse_ti_line(std::string_view text, const std::string& file, int line_no, int world,
                                      std::vector<std::string_view>& fields, const CommSizeLookup& comm_size,
                                      TiDialect dialect) {
  std::string_view content = text;
  if (auto hash = content.find('#'); hash != std::string_view::npos) content = content.substr(0, hash);
  if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
  split_blanks(content, fields);
  if (fields.empty()) return std::nullopt;
  Fields f(text, fields, file, line_no);
  if (fields.size() < 2) f.fail(0, "expected 'RANK ACTION ARGUMENTS...'");
  TiAction action;
  const std::size_t last_field = fields.size() - 1;
  const int comm = take_comm(f);
  action.layout = take_layout(f);
  action.rank = f.rank(0, "rank", world);
  const auto name = fields[1];
  const auto* found = std::find_if(kKindNames.begin(), kKindNames.end(), [&](const auto& k) { return k.name == name; });
  if (found == kKindNames.end()) {
    f.fail(1, fmt::format("unknown action '{}'{}", name, did_you_mean(name, ti_action_names())));
  }
  action.kind = found->kind;
  action.name = found->name;
  action.comm = comm;
  // Peers, roots and count arrays are relative to the call's communicator.
  int size = world;
  if (comm != 0) {
    const auto known = comm_size ? comm_size(comm) : std::nullopt;
    if (!known)
      f.fail(last_field, fmt::format("communicator {} was not created on this rank (by comm_split "
                                     "or comm_dup) before this line",
                                     comm));
    size = *known;
  }
  parse_arguments(action, f, size, dialect);
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
    case TiKind::Location:
      out += fmt::format(" ? {}", a.count);
      break;
    case TiKind::Scan:
    case TiKind::Exscan:
      out += fmt::format(" {} {}", a.count, number(a.amount));
      append_types(out, a.datatype1);
      break;
  }
  if (!a.layout.empty()) out += " type=" + a.layout;
  if (a.comm != 0) out += fmt::format(" comm={}", a.comm);
  return out;
}

namespace {
constexpr std::string_view kSpeedComment = "# contend-trace compute-speed ";
}  // namespace

std::optional<double> ti_recorded_speed(std::string_view text, const std::string& file, int line) {
  if (!text.starts_with(kSpeedComment)) return std::nullopt;
  const std::string_view value = trim(text.substr(kSpeedComment.size()));
  const auto speed = units::parse_speed(value);
  if (!speed) {
    throw Error(SourceLocation{file, line, static_cast<int>(kSpeedComment.size()) + 1},
                fmt::format("compute-speed: expected {}, got '{}'", units::kSpeedHelp, value));
  }
  return speed;
}

std::string ti_speed_comment(double flops_per_second) { return fmt::format("{}{}", kSpeedComment, flops_per_second); }

std::optional<std::uint64_t> ti_bytes_within_limits(std::int64_t count, const std::string& datatype,
                                                    bool default_is_double) {
  const int size = datatype.empty() ? (default_is_double ? 8 : 1) : simgrid_datatype_size(datatype).value_or(-1);
  if (size < 0) return std::nullopt;
  if (count == kTiUnknownCount) return limits::kMaxMessageBytes;
  const auto bytes = limits::checked_multiply(static_cast<std::uint64_t>(count), static_cast<std::uint32_t>(size));
  if (!bytes || *bytes > limits::kMaxMessageBytes) return std::nullopt;
  return bytes;
}

std::uint64_t ti_bytes(std::int64_t count, const std::string& datatype, bool default_is_double,
                       const SourceLocation& where) {
  const int size = datatype.empty() ? (default_is_double ? 8 : 1) : simgrid_datatype_size(datatype).value_or(-1);
  if (size < 0) throw Error(where, "unknown datatype id '" + datatype + "'");
  return ti_element_bytes(count, static_cast<std::uint32_t>(size), where);
}

std::uint64_t ti_element_bytes(std::int64_t count, std::uint32_t element_bytes, const SourceLocation& where) {
  if (count == kTiUnknownCount) return limits::kMaxMessageBytes;  // a receive that takes any size
  const auto bytes = limits::checked_multiply(static_cast<std::uint64_t>(count), element_bytes);
  if (!bytes || *bytes > limits::kMaxMessageBytes) {
    throw LimitError(
        where, limits::exceeds(fmt::format("{} elements of {} B", count, element_bytes), limits::kMaxMessageBytesText));
  }
  return *bytes;
}

}  // namespace contend
