// The Paje trace format (Schnorr et al.'s pajeng reads and checks it; ViTE
// shows it): a header defining each event's fields (%EventDef), the types
// (containers, states, links, variables) and their values, then events in
// time order. Times are seconds with nine decimals (whole nanoseconds).
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>

#include "sim/core/buffered_output.hpp"
#include "sim/core/timeline.hpp"

namespace contend {
namespace {

// The event definitions this writer uses, with the ids it numbers them by.
constexpr std::string_view kHeader = R"(%EventDef PajeDefineContainerType 0
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineVariableType 1
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeDefineStateType 2
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineLinkType 4
%       Alias string
%       Type string
%       StartContainerType string
%       EndContainerType string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 5
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeCreateContainer 6
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 7
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajeSetVariable 8
%       Time date
%       Type string
%       Container string
%       Value double
%EndEventDef
%EventDef PajePushState 11
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajePopState 12
%       Time date
%       Type string
%       Container string
%EndEventDef
%EventDef PajeStartLink 14
%       Time date
%       Type string
%       Container string
%       Value string
%       StartContainer string
%       Key string
%EndEventDef
%EventDef PajeEndLink 15
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
)";

// Seconds with nine decimals, from whole nanoseconds (never negative here).
struct Seconds {
  std::int64_t ns;
};

}  // namespace
}  // namespace contend

template <>
struct fmt::formatter<contend::Seconds> : fmt::formatter<std::string_view> {
  auto format(contend::Seconds t, format_context& ctx) const {
    auto out = ctx.out();
    const fmt::format_int whole(t.ns / 1000000000);
    out = std::copy(whole.data(), whole.data() + whole.size(), out);
    *out++ = '.';
    auto fraction = static_cast<int>(t.ns % 1000000000);
    char digits[9];
    for (int i = 8; i >= 0; --i, fraction /= 10) digits[i] = static_cast<char>('0' + fraction % 10);
    return std::copy(digits, digits + 9, out);
  }
};

namespace contend {
namespace {

// Paje strings are words or double-quoted.
std::string paje_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' ? '\'' : c;
  return out + '"';
}

std::string_view color_of(RankActivity a) {
  switch (a) {
    case RankActivity::Compute:
      return "0.3 0.7 0.3";
    case RankActivity::Mpi:
      return "0.9 0.6 0.1";
    case RankActivity::Waiting:
      return "0.8 0.2 0.2";
  }
  return "0.5 0.5 0.5";
}

// One event of the body, ordered by time; `order` keeps, among events of one
// instant, the order they were produced in (a pop before the next push on a
// rank, a link's start before its end).
struct Event {
  std::int64_t ns;
  enum Kind : std::uint8_t { Push, Pop, StartLink, EndLink, SetLoad } kind;
  std::uint32_t index;  // span, message or load
};

// Each rank's pushes and pops. Spans are sorted by rank, begin and order;
// the only nesting is a wait inside the MPI call that holds it (the engine
// records calls inside a collective as the collective), so a span either
// nests in the open one or follows it.
void nest_spans(const std::vector<TimelineSpan>& spans, std::vector<Event>& events) {
  std::vector<std::uint32_t> open;
  const auto pop = [&](std::int64_t not_after) {
    const auto& s = spans[open.back()];
    events.push_back({std::min(to_nanoseconds(s.end), not_after), Event::Pop, open.back()});
    open.pop_back();
  };
  for (std::uint32_t i = 0; i < spans.size(); ++i) {
    const auto& s = spans[i];
    const std::int64_t begin = to_nanoseconds(s.begin);
    if (i > 0 && s.rank != spans[i - 1].rank) {
      while (!open.empty()) pop(INT64_MAX);
    }
    while (!open.empty()) {
      const auto& outer = spans[open.back()];
      const bool inside = outer.activity == RankActivity::Mpi && s.activity == RankActivity::Waiting &&
                          to_nanoseconds(s.end) <= to_nanoseconds(outer.end);
      if (inside) break;
      pop(begin);
    }
    events.push_back({begin, Event::Push, i});
    open.push_back(i);
  }
  while (!open.empty()) pop(INT64_MAX);
}

class PajeWriter {
 public:
  PajeWriter(std::ostream& out, const std::vector<Placement>& placements) : out_(out), placements_(placements) {}

  void write(const Timeline& t) {
    out_.append(kHeader);
    define_types(t);
    std::vector<Event> events;
    nest_spans(t.spans(), events);
    const auto& messages = t.messages();
    for (std::uint32_t i = 0; i < messages.size(); ++i)
      events.push_back({to_nanoseconds(messages[i].post), Event::StartLink, i});
    for (std::uint32_t i = 0; i < messages.size(); ++i)
      events.push_back({to_nanoseconds(messages[i].received), Event::EndLink, i});
    for (std::uint32_t i = 0; i < t.loads().size(); ++i)
      events.push_back({to_nanoseconds(t.loads()[i].time), Event::SetLoad, i});
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.ns < b.ns; });
    std::int64_t last = 0;
    for (const auto& e : events) {
      body(t, e);
      last = std::max(last, e.ns);
    }
    destroy_containers(t, last);
    out_.flush();
  }

 private:
  std::set<int> nodes() const {
    std::set<int> n;
    for (const auto& p : placements_) n.insert(p.node);
    return n;
  }

  void define_types(const Timeline& t) {
    line("0 CT_Node 0 Node");
    line("0 CT_Rank CT_Node Rank");
    line("2 ST_Rank CT_Rank \"Rank state\"");
    line("4 LT_Message 0 CT_Rank CT_Rank Message");
    line("5 LV_eager LT_Message eager \"0.2 0.4 0.8\"");
    line("5 LV_rendezvous LT_Message rendezvous \"0.6 0.2 0.8\"");
    // Every name a span uses, coloured by its activity.
    std::vector<bool> defined(t.names().size(), false);
    for (const auto& s : t.spans()) {
      if (defined[s.name]) continue;
      defined[s.name] = true;
      line(fmt::format("5 SV_{} ST_Rank {} \"{}\"", s.name, paje_string(t.names()[s.name]), color_of(s.activity)));
    }
    if (!t.resources().empty()) {
      line("0 CT_Resource 0 Resource");
      line("1 VT_Load CT_Resource Load \"0.8 0.2 0.2\"");
    }
    for (int node : nodes()) line(fmt::format("6 0.000000000 node{} CT_Node 0 \"node {}\"", node, node));
    for (std::size_t r = 0; r < placements_.size(); ++r) {
      const auto& p = placements_[r];
      line(fmt::format("6 0.000000000 rank{} CT_Rank node{} \"rank {} (socket {}, core {})\"", r, p.node, r, p.socket,
                       p.core));
    }
    for (std::size_t i = 0; i < t.resources().size(); ++i) {
      const auto& res = t.resources()[i];
      line(fmt::format("6 0.000000000 resource{} CT_Resource 0 {}", i,
                       paje_string(res.unit.empty() ? res.name : res.name + " (" + res.unit + ")")));
    }
  }

  void body(const Timeline& t, const Event& e) {
    const Seconds at{e.ns};
    switch (e.kind) {
      case Event::Push: {
        const auto& s = t.spans()[e.index];
        return print("11 {} ST_Rank rank{} SV_{}\n", at, s.rank, s.name);
      }
      case Event::Pop:
        return print("12 {} ST_Rank rank{}\n", at, t.spans()[e.index].rank);
      case Event::StartLink: {
        const auto& m = t.messages()[e.index];
        return print("14 {} LT_Message 0 LV_{} rank{} m{}\n", at, m.eager ? "eager" : "rendezvous", m.src, e.index);
      }
      case Event::EndLink: {
        const auto& m = t.messages()[e.index];
        return print("15 {} LT_Message 0 LV_{} rank{} m{}\n", at, m.eager ? "eager" : "rendezvous", m.dst, e.index);
      }
      case Event::SetLoad: {
        const auto& l = t.loads()[e.index];
        return print("8 {} VT_Load resource{} {}\n", at, l.resource, l.load);
      }
    }
  }

  template <typename... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    out_.print(format, std::forward<Args>(args)...);
  }

  void destroy_containers(const Timeline& t, std::int64_t end) {
    const Seconds at{end};
    for (std::size_t i = 0; i < t.resources().size(); ++i) line(fmt::format("7 {} CT_Resource resource{}", at, i));
    for (std::size_t r = 0; r < placements_.size(); ++r) line(fmt::format("7 {} CT_Rank rank{}", at, r));
    for (int node : nodes()) line(fmt::format("7 {} CT_Node node{}", at, node));
  }

  void line(std::string_view text) {
    out_.append(text);
    out_.append("\n");
  }

  BufferedOutput out_;
  const std::vector<Placement>& placements_;
};

}  // namespace

void write_paje_trace(std::ostream& out, const Timeline& sorted, const std::vector<Placement>& placements) {
  PajeWriter(out, placements).write(sorted);
}

}  // namespace contend
