#include "calibrate/netgauge/fit/netgauge_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/text.hpp"

namespace contend::calibrate {
namespace {

constexpr const char* kHeader = "datatype,bytes,count,quantity,n,delay_s,repetition,time_s";

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace

std::vector<NetgaugeSample> read_netgauge_csv(const std::string& path) {
  const CsvFile csv = CsvFile::read(
      path, CsvColumns{
                .required = {"datatype", "bytes", "count", "quantity", "n", "delay_s", "repetition", "time_s"},
                .former_names = {{"delay_s", "delay"}, {"time_s", "time"}},
                .header_error = [](std::string_view) { return std::string("expected the header '") + kHeader + "'"; }});
  std::vector<NetgaugeSample> samples;
  for (const auto& row : csv.rows()) {
    NetgaugeSample s;
    s.datatype = row.text("datatype");
    s.bytes = row.size("bytes");
    if (s.bytes < 1) row.expected("bytes", "a size of at least 1 byte");
    s.quantity = row.text("quantity");
    if (s.quantity != "prtt" && s.quantity != "orecv" && s.quantity != "pingpong" && s.quantity != "pingpong_median") {
      row.expected("quantity", "prtt, orecv, pingpong or pingpong_median");
    }
    s.n = row.at_least<int>("n", 1);
    s.delay = row.seconds("delay_s");
    s.time = row.seconds("time_s");
    samples.push_back(s);
  }
  if (samples.empty()) throw Error(path + ": no measurements");
  return samples;
}

std::vector<NetgaugeSample> read_netgauge_csvs(const std::vector<std::string>& paths) {
  return read_all(paths, [](const std::string& path) { return read_netgauge_csv(path); });
}

std::map<std::string, std::vector<SizeEstimate>> estimate_sizes(const std::vector<NetgaugeSample>& samples,
                                                                Statistic statistic) {
  const auto value = [statistic](const std::vector<double>& v) {
    return statistic == Statistic::Median ? median_of(v) : *std::min_element(v.begin(), v.end());
  };
  struct Times {
    std::vector<double> prtt1, prttn, prttnd, orecv, pingpong, pingpong_median;
    int n = 0;
    double delay = 0;
  };
  std::map<std::string, std::map<std::uint64_t, Times>> grouped;
  for (const auto& s : samples) {
    Times& t = grouped[s.datatype][s.bytes];
    if (s.quantity == "pingpong") {
      t.pingpong.push_back(s.time);
    } else if (s.quantity == "pingpong_median") {
      t.pingpong_median.push_back(s.time);
    } else if (s.quantity == "orecv") {
      t.orecv.push_back(s.time);
      t.n = s.n;
      t.delay = s.delay;
    } else if (s.n == 1) {
      t.prtt1.push_back(s.time);
    } else if (s.delay == 0) {
      t.prttn.push_back(s.time);
    } else {
      t.prttnd.push_back(s.time);
      t.n = s.n;
      t.delay = s.delay;
    }
  }
  std::map<std::string, std::vector<SizeEstimate>> out;
  for (const auto& [datatype, sizes] : grouped) {
    for (const auto& [bytes, t] : sizes) {
      const auto where = datatype + " " + std::to_string(bytes) + " B";
      if (t.prtt1.empty() || t.prttn.empty() || t.prttnd.empty() || t.orecv.empty() || t.pingpong.empty()) {
        throw Error(where +
                    ": needs prtt with n = 1, prtt with n > 1 and d = 0, prtt with d > 0, orecv and pingpong rows");
      }
      if (t.n < 2) throw Error(where + ": n must be at least 2");
      out[datatype].push_back(SizeEstimate{bytes, t.n, t.delay, value(t.prtt1), value(t.prttn), value(t.prttnd),
                                           value(t.orecv), value(t.pingpong),
                                           t.pingpong_median.empty() ? 0 : value(t.pingpong_median)});
    }
  }
  return out;
}

namespace {

bool in_range(std::uint64_t bytes, const std::optional<std::uint64_t>& switch_bytes, bool eager) {
  if (!switch_bytes) return true;
  return eager ? bytes < *switch_bytes : bytes >= *switch_bytes;
}

std::optional<OverheadFit> fit_overheads(const std::vector<SizeEstimate>& sizes, const std::optional<std::uint64_t>& sw,
                                         bool eager) {
  std::vector<double> x, send, receive;
  for (const auto& s : sizes) {
    if (!in_range(s.bytes, sw, eager)) continue;
    x.push_back(static_cast<double>(s.bytes));
    send.push_back(s.send_overhead());
    receive.push_back(s.receive_overhead());
  }
  if (x.empty()) return std::nullopt;
  return OverheadFit{fit_line(x, send, true), fit_line(x, receive, true), x.size(), false};
}

// L of one range: the median one-way time the overheads and the gap leave unexplained.
void fit_latency(ProtocolFit& range, const std::vector<SizeEstimate>& contiguous,
                 const std::optional<std::uint64_t>& sw, bool eager) {
  const OverheadFit& o = range.datatypes.at("contiguous");
  std::vector<double> residuals;
  for (const auto& s : contiguous) {
    if (!in_range(s.bytes, sw, eager)) continue;
    const double k = static_cast<double>(s.bytes);
    residuals.push_back(s.prtt1 / 2 - std::max(o.send.at(k), range.gap.at(k)) - o.receive.at(k));
  }
  const double L = median_of(residuals);
  range.L = std::max(L, 0.0);
  range.L_clamped = L < 0;
}

ProtocolFit fit_range(const std::map<std::string, std::vector<SizeEstimate>>& estimates,
                      const std::optional<std::uint64_t>& sw, bool eager) {
  const auto& contiguous = estimates.at("contiguous");
  ProtocolFit range;
  std::vector<double> x, gap;
  for (const auto& s : contiguous) {
    if (!in_range(s.bytes, sw, eager)) continue;
    if (range.sizes == 0) range.first_bytes = s.bytes;
    range.last_bytes = s.bytes;
    ++range.sizes;
    x.push_back(static_cast<double>(s.bytes));
    gap.push_back(s.gap());
  }
  if (x.empty()) throw Error(std::string("no contiguous sizes in the ") + (eager ? "eager" : "rendezvous") + " range");
  range.gap = fit_line(x, gap, true);
  for (const auto& [datatype, sizes] : estimates) {
    if (auto fit = fit_overheads(sizes, sw, eager)) range.datatypes[datatype] = *fit;
  }
  fit_latency(range, contiguous, sw, eager);
  return range;
}

}  // namespace

LogGopsFit fit_loggops(const std::map<std::string, std::vector<SizeEstimate>>& estimates, const SwitchChoice& choice) {
  const auto found = estimates.find("contiguous");
  if (found == estimates.end()) {
    throw Error("the raw data has no 'contiguous' datatype: L, g, G and the protocol switch are measured on it");
  }
  const auto& contiguous = found->second;
  LogGopsFit fit;
  fit.netgauge_L = contiguous.front().prtt1 / 2;
  std::vector<double> x, rtt;
  for (const auto& s : contiguous) {
    x.push_back(static_cast<double>(s.bytes));
    rtt.push_back(s.prtt1);
  }
  fit.changepoints = find_changepoints(x, rtt, choice.detection);
  for (const auto& c : fit.changepoints) fit.changepoint_bytes.push_back(contiguous[c.index].bytes);
  switch (choice.mode) {
    case SwitchChoice::Mode::Detect:
      if (const auto index = protocol_switch(fit.changepoints)) fit.switch_bytes = contiguous[*index].bytes;
      break;
    case SwitchChoice::Mode::Given: {
      fit.switch_bytes = choice.bytes;
      const bool both =
          std::any_of(contiguous.begin(), contiguous.end(), [&](const auto& s) { return s.bytes < choice.bytes; }) &&
          std::any_of(contiguous.begin(), contiguous.end(), [&](const auto& s) { return s.bytes >= choice.bytes; });
      if (!both)
        throw Error("--switch " + std::to_string(choice.bytes) + ": the measured sizes are all on one side of it");
      break;
    }
    case SwitchChoice::Mode::None:
      break;
  }
  fit.eager = fit_range(estimates, fit.switch_bytes, true);
  fit.rendezvous = fit.switch_bytes ? fit_range(estimates, fit.switch_bytes, false) : fit.eager;
  // A datatype measured in one range only: the other range uses the same lines (marked).
  for (auto* range : {&fit.eager, &fit.rendezvous}) {
    const auto* other = range == &fit.eager ? &fit.rendezvous : &fit.eager;
    for (const auto& [datatype, o] : other->datatypes) {
      if (!range->datatypes.count(datatype) && !o.borrowed) {
        range->datatypes[datatype] = o;
        range->datatypes[datatype].borrowed = true;
      }
    }
  }
  return fit;
}

double model_round_trip(const ProtocolFit& range, const std::string& datatype, double k) {
  const auto it = range.datatypes.find(datatype);
  if (it == range.datatypes.end()) throw Error("no fitted overheads for datatype '" + datatype + "'");
  const OverheadFit& o = it->second;
  return 2 * (std::max(o.send.at(k), range.gap.at(k)) + range.L + o.receive.at(k));
}

std::string fits_csv(const LogGopsFit& fit) {
  std::string out =
      "range,first_bytes,last_bytes,datatype,L_s,g_s,G_s_per_byte,o_s_s,O_s_s_per_byte,o_r_s,O_r_s_per_byte,switch_"
      "bytes,netgauge_L_s\n";
  const std::string sw = fit.switch_bytes ? std::to_string(*fit.switch_bytes) : "";
  for (const auto& [name, r] : {std::pair{"eager", &fit.eager}, std::pair{"rendezvous", &fit.rendezvous}}) {
    for (const auto& [datatype, o] : r->datatypes) {
      out += fmt::format("{},{},{},\"{}\",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{},{:.9g}\n", name,
                         r->first_bytes, r->last_bytes, datatype, r->L, r->gap.intercept, r->gap.slope,
                         o.send.intercept, o.send.slope, o.receive.intercept, o.receive.slope, sw, fit.netgauge_L);
    }
  }
  return out;
}

std::string sizes_csv(const std::map<std::string, std::vector<SizeEstimate>>& estimates, const LogGopsFit& fit) {
  std::string out =
      "datatype,bytes,range,n,delay_s,prtt1_s,prttn_s,prttnd_s,gap_s,o_s_hat_s,o_r_hat_s,pingpong_s,pingpong_median_s,"
      "model_s\n";
  for (const auto& [datatype, sizes] : estimates) {
    for (const auto& s : sizes) {
      const bool eager = !fit.switch_bytes || s.bytes < *fit.switch_bytes;
      const auto& range = eager ? fit.eager : fit.rendezvous;
      out += fmt::format("\"{}\",{},{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}\n",
                         datatype, s.bytes, eager ? "eager" : "rendezvous", s.n, s.delay, s.prtt1, s.prttn, s.prttnd,
                         s.gap(), s.send_overhead(), s.receive_overhead(), s.pingpong, s.pingpong_median,
                         model_round_trip(range, datatype, static_cast<double>(s.bytes)));
    }
  }
  return out;
}

}  // namespace contend::calibrate
