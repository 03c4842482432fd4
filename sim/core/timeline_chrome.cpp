// The Chrome trace-event format, JSON object form: {"displayTimeUnit": "ns",
// "traceEvents": [...]}, one event per line. Perfetto and chrome://tracing
// read it; docs/timelines.md shows what each event is.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/core/buffered_output.hpp"
#include "sim/core/timeline.hpp"

namespace contend {
namespace {

// Microseconds with three decimals, from whole nanoseconds: exact decimal
// text, so a viewer reading it (Perfetto rounds ts * 1000 to the nearest
// nanosecond) gets the nanosecond back.
struct Microseconds {
  std::int64_t ns;
};

}  // namespace
}  // namespace contend

template <>
struct fmt::formatter<contend::Microseconds> : fmt::formatter<std::string_view> {
  // Digits written by hand: millions of times per timeline.
  auto format(contend::Microseconds t, format_context& ctx) const {
    auto out = ctx.out();
    std::int64_t ns = t.ns;
    if (ns < 0) {
      *out++ = '-';
      ns = -ns;
    }
    const fmt::format_int whole(ns / 1000);
    out = std::copy(whole.data(), whole.data() + whole.size(), out);
    const auto fraction = static_cast<int>(ns % 1000);
    *out++ = '.';
    *out++ = static_cast<char>('0' + fraction / 100);
    *out++ = static_cast<char>('0' + fraction / 10 % 10);
    *out++ = static_cast<char>('0' + fraction % 10);
    return out;
  }
};

namespace contend {
namespace {

std::string json_string(std::string_view text) { return nlohmann::json(std::string(text)).dump(); }

class ChromeWriter {
 public:
  ChromeWriter(std::ostream& out, const std::vector<Placement>& placements) : out_(out), placements_(placements) {}

  void write(const Timeline& t) {
    std::vector<std::string> names;
    for (const auto& n : t.names()) names.push_back(json_string(n));
    out_.append("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    metadata(t);
    for (const auto& item : track_order(t)) {
      switch (item.kind) {
        case Item::Span:
          span(t.spans()[item.index], names[t.spans()[item.index].name]);
          break;
        case Item::FlowStart:
          flow_start(t.messages()[item.index], item.index + 1);
          break;
        case Item::FlowEnd:
          flow_end(t.messages()[item.index], item.index + 1);
          break;
      }
    }
    // Each resource's name and unit quoted once, the process found once: a
    // timeline may hold a million samples.
    std::vector<std::pair<std::string, std::string>> quoted;
    for (const auto& r : t.resources())
      quoted.emplace_back(json_string(r.name), json_string(r.unit.empty() ? "load" : r.unit));
    const int pid = resource_process();
    for (const auto& l : t.loads()) load(quoted[l.resource].first, quoted[l.resource].second, pid, l);
    out_.append("\n]}\n");
    out_.flush();
  }

 private:
  // A slice or a flow's end on a rank's track.
  struct Item {
    int rank;
    std::int64_t ns;
    std::uint64_t order;
    enum Kind : std::uint8_t { Span, FlowStart, FlowEnd } kind;
    std::uint32_t index;  // span or message
  };

  // Each track's events in time order and, within an instant, in the order
  // they happened (Timeline::next_order): a flow's start right after the
  // slice of the call that posted it, its end before the slices that began
  // after the receive completed. Perfetto binds a flow event to the slice
  // open on its track when it reads it, in this order for equal times.
  static std::vector<Item> track_order(const Timeline& t) {
    std::vector<Item> items;
    items.reserve(t.spans().size() + 2 * t.messages().size());
    for (std::uint32_t i = 0; i < t.spans().size(); ++i) {
      const auto& s = t.spans()[i];
      items.push_back({s.rank, to_nanoseconds(s.begin), s.order, Item::Span, i});
    }
    for (std::uint32_t i = 0; i < t.messages().size(); ++i) {
      const auto& m = t.messages()[i];
      items.push_back({m.src, to_nanoseconds(m.post), m.post_order, Item::FlowStart, i});
      items.push_back({m.dst, to_nanoseconds(m.received), m.receive_order, Item::FlowEnd, i});
    }
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return std::tie(a.rank, a.ns, a.order, a.kind, a.index) < std::tie(b.rank, b.ns, b.order, b.kind, b.index);
    });
    return items;
  }

  int node_of(int rank) const { return placements_[static_cast<std::size_t>(rank)].node; }
  // The process holding the counter tracks, after the nodes.
  int resource_process() const {
    int nodes = 0;
    for (const auto& p : placements_) nodes = std::max(nodes, p.node + 1);
    return nodes;
  }

  // Each event on its own line, separated by commas.
  template <typename... Args>
  void event(fmt::format_string<Args...> format, Args&&... args) {
    if (events_++ > 0) out_.append(",\n");
    out_.print(format, std::forward<Args>(args)...);
  }
  void json_event(const nlohmann::ordered_json& e) { event("{}", e.dump()); }

  // Process (node) and thread (rank) names, and their order.
  void metadata(const Timeline& t) {
    std::set<int> nodes;
    for (const auto& p : placements_) nodes.insert(p.node);
    for (int node : nodes) process(node, fmt::format("node {}", node));
    for (std::size_t r = 0; r < placements_.size(); ++r) {
      const auto& p = placements_[r];
      const auto rank = static_cast<int>(r);
      const std::string name = fmt::format("rank {} (node {}, socket {}, core {})", r, p.node, p.socket, p.core);
      json_event({{"name", "thread_name"}, {"ph", "M"}, {"pid", p.node}, {"tid", rank}, {"args", {{"name", name}}}});
      json_event({{"name", "thread_sort_index"},
                  {"ph", "M"},
                  {"pid", p.node},
                  {"tid", rank},
                  {"args", {{"sort_index", rank}}}});
    }
    if (!t.resources().empty()) process(resource_process(), "resources");
  }

  void process(int pid, const std::string& name) {
    json_event({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}});
    json_event({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
  }

  void span(const TimelineSpan& s, const std::string& name) {
    const std::int64_t begin = to_nanoseconds(s.begin);
    event("{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{}}}", name,
          activity_name(s.activity), node_of(s.rank), s.rank, Microseconds{begin},
          Microseconds{to_nanoseconds(s.end) - begin});
  }

  // A flow arrow from the send's post (bound to the slice enclosing it on the
  // sender's track) to the receive's completion (bound to the slice enclosing
  // it on the receiver's track: "bp":"e"). The arguments ride on the start.
  void flow_start(const TimelineMessage& m, std::uint64_t id) {
    event(
        "{{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":{},\"pid\":{},\"tid\":{},\"ts\":{},"
        "\"args\":{{\"src\":{},\"dst\":{},\"bytes\":{},\"protocol\":\"{}\",\"level\":\"{}\","
        "\"data_start_us\":{},\"arrived_us\":{}}}}}",
        id, node_of(m.src), m.src, Microseconds{to_nanoseconds(m.post)}, m.src, m.dst, m.bytes,
        m.eager ? "eager" : "rendezvous", level_name(m.level), Microseconds{to_nanoseconds(m.start)},
        Microseconds{to_nanoseconds(m.arrived)});
  }
  void flow_end(const TimelineMessage& m, std::uint64_t id) {
    event(
        "{{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":{},\"pid\":{},"
        "\"tid\":{},\"ts\":{}}}",
        id, node_of(m.dst), m.dst, Microseconds{to_nanoseconds(m.received)});
  }

  // A counter track per resource: its load from this time on.
  void load(const std::string& name, const std::string& unit, int pid, const ResourceLoadSample& l) {
    event("{{\"name\":{},\"ph\":\"C\",\"pid\":{},\"ts\":{},\"args\":{{{}:{}}}}}", name, pid,
          Microseconds{to_nanoseconds(l.time)}, unit, l.load);
  }

  BufferedOutput out_;
  const std::vector<Placement>& placements_;
  std::uint64_t events_ = 0;
};

}  // namespace

void write_chrome_trace(std::ostream& out, const Timeline& sorted, const std::vector<Placement>& placements) {
  ChromeWriter(out, placements).write(sorted);
}

}  // namespace contend
