#include "calibrate/transport/fit/transport_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_edit.hpp"

namespace contend::calibrate {
namespace {

constexpr std::string_view kMarker = "# transport_buffer: ";
constexpr double kKiB = 1024;

CsvColumns raw_columns() { return {.required = {"level", "call", "size", "sample", "send_s", "recv_s"}}; }

Level level_of(const CsvRow& row) {
  const std::string& text = row.text("level");
  std::vector<std::string> names;
  for (Level l : kAllLevels) {
    if (text == level_name(l)) return l;
    names.emplace_back(level_name(l));
  }
  row.fail("level", "level: unknown '" + text + "'" + did_you_mean(text, names) + "; expected one of: " + join(names));
}

std::vector<TransportSample> samples_of(const CsvFile& csv) {
  std::vector<TransportSample> samples;
  for (const auto& row : csv.rows()) {
    TransportSample s;
    s.level = level_of(row);
    s.call = row.text("call");
    if (s.call != "isend" && s.call != "send") row.expected("call", "'isend' or 'send'");
    s.size = row.at_least<std::uint64_t>("size", 1);
    row.at_least<int>("sample", 0);
    s.send_s = row.seconds("send_s");
    s.recv_s = row.seconds("recv_s");
    if (!(s.recv_s > 0)) row.fail("recv_s", "recv_s: expected a positive number of seconds");
    samples.push_back(s);
  }
  if (samples.empty()) throw Error(csv.end(), "no measurements after the header");
  return samples;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::string level_path(Level level) { return "levels." + std::string(level_name(level)); }

TransportFit fit_level(Level level, const std::vector<const TransportSample*>& members) {
  TransportFit fit;
  fit.level = level;
  fit.call = members.front()->call;
  std::map<std::uint64_t, std::pair<std::vector<double>, std::vector<double>>> by_size;
  for (const auto* s : members) {
    if (s->call != fit.call) {
      throw Error(std::string(level_name(level)) + ": samples of both --call " + fit.call + " and " + s->call +
                  ": fit one call per level");
    }
    by_size[s->size].first.push_back(s->send_s);
    by_size[s->size].second.push_back(s->recv_s);
  }
  if (by_size.size() < 2) {
    throw Error(std::string(level_name(level)) + ": one message size only: the delivery rate needs two or more");
  }
  for (const auto& [size, times] : by_size) {
    // A named estimate, not a braced temporary: GCC 12's AddressSanitizer
    // (-O1, `make test-sanitize`) reported an unknown-crash reading the
    // temporary in this large inlined frame.
    SizeEstimate estimate;
    estimate.size = size;
    estimate.samples = static_cast<int>(times.first.size());
    estimate.send_s = median(times.first);
    estimate.recv_s = median(times.second);
    fit.sizes.push_back(estimate);
  }
  // bw_eff: the receive time's slope between consecutive sizes, their median
  // (one slow sample of one size moves two slopes, not the whole fit).
  std::vector<double> rates;
  for (std::size_t i = 1; i < fit.sizes.size(); ++i) {
    const double dt = fit.sizes[i].recv_s - fit.sizes[i - 1].recv_s;
    if (dt > 0) rates.push_back(static_cast<double>(fit.sizes[i].size - fit.sizes[i - 1].size) / dt);
  }
  if (rates.empty()) {
    throw Error(std::string(level_name(level)) +
                ": the receive time does not grow with the message size: no delivery rate can be fitted");
  }
  fit.bandwidth = median(rates);
  std::vector<double> intercepts, informative;
  double largest = 0;
  for (auto& e : fit.sizes) {
    const double size = static_cast<double>(e.size);
    intercepts.push_back(e.recv_s - size / fit.bandwidth);
    // Bytes still to arrive when the send completed: they arrive at bw_eff.
    e.undelivered = std::clamp(fit.bandwidth * (e.recv_s - e.send_s), 0.0, size);
    largest = std::max(largest, e.undelivered);
  }
  // A message at least twice the largest backlog seen waited for the
  // transport to drain. A smaller one may sit in the buffer whole, or wait
  // only for the rendezvous handshake (Open MPI's TCP BTL sends a first
  // fragment, waits for the receiver's answer, then writes the rest): its
  // backlog is bounded by the message, not by the buffer.
  for (auto& e : fit.sizes) {
    e.informative = static_cast<double>(e.size) >= 2 * largest;
    if (e.informative) informative.push_back(e.undelivered);
  }
  fit.latency = std::max(0.0, median(intercepts));
  fit.informative_sizes = static_cast<int>(informative.size());
  if (informative.empty()) {
    fit.lower_bound = true;
    for (const auto& e : fit.sizes) fit.buffer = std::max(fit.buffer, e.undelivered);
    fit.spread_low = fit.spread_high = fit.buffer;
  } else {
    fit.buffer = median(informative);
    fit.spread_low = *std::min_element(informative.begin(), informative.end());
    fit.spread_high = *std::max_element(informative.begin(), informative.end());
  }
  return fit;
}

std::string kib(double bytes) { return fmt::format("{:.0f}KiB", bytes / kKiB); }

std::string fit_comment(const TransportFit& fit, const std::string& source) {
  std::string how;
  if (fit.lower_bound) {
    how = fmt::format("no size was twice the largest backlog: at least {}; measure larger sizes", kib(fit.buffer));
  } else {
    const auto first = std::find_if(fit.sizes.begin(), fit.sizes.end(), [](const auto& e) { return e.informative; });
    how = fmt::format("median of {} size{} from {}, spread {} .. {}", fit.informative_sizes,
                      fit.informative_sizes == 1 ? "" : "s", units::format_size(first->size), kib(fit.spread_low),
                      kib(fit.spread_high));
  }
  return std::string(kMarker) + "bytes undelivered when " + (fit.call == "send" ? "MPI_Send" : "MPI_Isend + MPI_Wait") +
         " completed, bw_eff * (t_recv - t_send), bw_eff " + units::format_bandwidth(fit.bandwidth) +
         "; fitted by contend fit-transport from " + source + " (" + how + ")";
}

std::vector<std::string> level_lines(const YamlText::Entry& entry, Level level, const TransportFit& fit,
                                     const std::string& source) {
  const std::string pad(entry.child_indent - entry.indent, ' ');
  std::vector<std::string> out{std::string(level_name(level)) + ":"};
  for (std::size_t i = 1; i < entry.lines.size(); ++i) {
    const auto t = trim(entry.lines[i]);
    if (t.rfind(kMarker, 0) == 0 || t.rfind("transport_buffer:", 0) == 0) continue;
    // relative to the level's key, as set_entry reads the block (nested maps keep their shape)
    const std::string& line = entry.lines[i];
    out.push_back(line.substr(std::min(entry.indent, line.find_first_not_of(' '))));
  }
  out.push_back(pad + fit_comment(fit, source));
  out.push_back(pad + "transport_buffer: " + units::format_size(fit.buffer_bytes()));
  return out;
}

}  // namespace

std::uint64_t TransportFit::buffer_bytes() const {
  return static_cast<std::uint64_t>(std::llround(buffer / kKiB)) * static_cast<std::uint64_t>(kKiB);
}

std::vector<TransportSample> read_transport_csv(std::istream& in, const std::string& name) {
  return samples_of(CsvFile::read(in, name, raw_columns()));
}

TransportData read_transport_csvs(const std::vector<std::string>& paths) {
  TransportData data;
  std::map<Level, std::vector<std::string>> files;
  for (const auto& path : paths) {
    const auto more = samples_of(CsvFile::read(path, raw_columns()));
    for (const auto& s : more) {
      auto& names = files[s.level];
      const std::string file = std::filesystem::path(path).filename().string();
      if (std::find(names.begin(), names.end(), file) == names.end()) names.push_back(file);
    }
    data.samples.insert(data.samples.end(), more.begin(), more.end());
  }
  for (const auto& [level, names] : files) data.sources[level] = join(names);
  return data;
}

std::map<Level, TransportFit> fit_transport(const std::vector<TransportSample>& samples) {
  std::map<Level, std::vector<const TransportSample*>> by_level;
  for (const auto& s : samples) by_level[s.level].push_back(&s);
  std::map<Level, TransportFit> fits;
  for (const auto& [level, members] : by_level) fits[level] = fit_level(level, members);
  return fits;
}

std::string transport_fits_csv(const std::map<Level, TransportFit>& fits) {
  std::string out = "level,size,samples,send_s,recv_s,undelivered_bytes,informative\n";
  for (const auto& [level, fit] : fits) {
    for (const auto& e : fit.sizes) {
      out += fmt::format("{},{},{},{:.9g},{:.9g},{:.0f},{}\n", level_name(level), e.size, e.samples, e.send_s, e.recv_s,
                         e.undelivered, e.informative ? 1 : 0);
    }
  }
  return out;
}

std::string update_platform_transport(const std::string& text, const std::string& name,
                                      const std::map<Level, TransportFit>& fits,
                                      const std::map<Level, std::string>& sources) {
  YamlText yaml(text, name);
  for (const auto& [level, fit] : fits) {
    const std::string path = level_path(level);
    const auto entry = yaml.entry(path, "level");
    if (!entry) throw Error(name + ": " + path + " is not in the file: the platform has no such level to update");
    if (!entry->value.is_map() || entry->lines.size() < 2) {
      throw Error(entry->key.where(), path + ": cannot add transport_buffer to this level in place: write '" +
                                          std::string(level_name(level)) + "' in block style (one key per line)");
    }
    const auto source = sources.find(level);
    yaml.set_entry(path, level_lines(*entry, level, fit, source == sources.end() ? "the benchmark" : source->second),
                   "level");
  }
  // Read back: every fitted level carries its value (the simulator's own
  // reading of the key is the platform parser's).
  for (const auto& [level, fit] : fits) {
    const YamlField written = yaml.root().child("levels").child(level_name(level)).child("transport_buffer");
    if (!written.present() || units::parse_size(written.as_string()) != fit.buffer_bytes())
      throw Error(name + ": internal error: " + level_path(level) + ".transport_buffer was not written");
  }
  return yaml.text();
}

}  // namespace contend::calibrate
