#include "sim/core/attribution.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <limits>
#include <utility>

namespace contend {

std::string MessageAttribution::limited_by() const {
  // Few distinct resources per message: a linear list keeps first-met order.
  std::vector<std::pair<const std::string*, double>> totals;
  for (const auto& i : intervals) {
    auto it = totals.begin();
    while (it != totals.end() && *it->first != i.resource) ++it;
    if (it == totals.end()) {
      totals.emplace_back(&i.resource, i.end - i.begin);
    } else {
      it->second += i.end - i.begin;
    }
  }
  const std::string* best = nullptr;
  double longest = -1;
  for (const auto& [resource, seconds] : totals) {
    if (seconds > longest) {
      longest = seconds;
      best = resource;
    }
  }
  return best ? *best : std::string("none");
}

double MessageAttribution::slowdown() const {
  const double duration = end - start;
  if (contention_free <= 0) return duration <= 0 ? 1.0 : std::numeric_limits<double>::infinity();
  return duration / contention_free;
}

double MessageAttribution::time_on(const std::string& resource) const {
  double total = 0;
  for (const auto& i : intervals) {
    if (i.resource == resource) total += i.end - i.begin;
  }
  return total;
}

namespace {

// A CSV field in double quotes, a quote doubled (sim/core/csv.hpp reads it back).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

void write_explain_csv(std::ostream& out, const std::vector<MessageAttribution>& messages) {
  out << "id,src,dst,tag,seq,begin_s,end_s,resource,rate_Bps,detail\n";
  for (const auto& m : messages) {
    for (const auto& i : m.intervals) {
      fmt::print(out, "{},{},{},{},{},{:.12g},{:.12g},{},{:.12g},{}\n", m.id, m.src, m.dst, m.tag, m.seq, i.begin,
                 i.end, i.resource, i.rate, quoted(i.detail));
    }
  }
}

}  // namespace contend
