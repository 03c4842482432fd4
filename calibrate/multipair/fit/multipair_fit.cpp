#include "calibrate/multipair/fit/multipair_fit.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <tuple>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend::calibrate {
namespace {

constexpr std::string_view kHeader = "level,direction,P,N,size,repeats,sample,time";

std::vector<std::string_view> split_commas(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t begin = 0;
  while (true) {
    const auto comma = line.find(',', begin);
    fields.push_back(trim(line.substr(begin, comma - begin)));
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  return fields;
}

class CsvLine {
 public:
  CsvLine(std::string_view text, const std::string& file, int line) : text_(text), fields_(split_commas(text)), file_(file), line_(line) {}
  std::size_t size() const { return fields_.size(); }
  [[noreturn]] void fail(std::size_t field, const std::string& message) const {
    const int column = field < fields_.size() ? static_cast<int>(fields_[field].data() - text_.data()) + 1 : 1;
    throw Error(SourceLocation{file_, line_, column}, message);
  }
  template <typename T>
  T number(std::size_t field, const char* name, T min) const {
    T v{};
    const auto text = fields_[field];
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || ptr != text.data() + text.size() || !(v >= min)) {
      fail(field, std::string(name) + ": expected a number >= " + std::to_string(min) + ", got '" + std::string(text) + "'");
    }
    return v;
  }
  std::string_view operator[](std::size_t i) const { return fields_[i]; }

 private:
  std::string_view text_;
  std::vector<std::string_view> fields_;
  const std::string& file_;
  int line_;
};

Level parse_level(const CsvLine& line) {
  for (Level l : kAllLevels) {
    if (line[0] == level_name(l)) return l;
  }
  std::vector<std::string> names;
  for (Level l : kAllLevels) names.emplace_back(level_name(l));
  line.fail(0, "level: unknown '" + std::string(line[0]) + "'" + did_you_mean(line[0], names) + "; expected one of: " + join(names));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string series_name(Level level, int n) { return std::string(level_name(level)) + " N = " + std::to_string(n); }

MultipairFit fit_series(Level level, const std::vector<const MultipairSample*>& series) {
  MultipairFit fit;
  fit.n = series.front()->n;
  fit.ranks = series.front()->ranks;
  fit.direction = series.front()->direction;
  std::map<std::uint64_t, std::vector<double>> by_size;
  for (const auto* s : series) {
    if (s->ranks != fit.ranks || s->direction != fit.direction) {
      throw Error("two series for " + series_name(level, fit.n) + " (P = " + std::to_string(fit.ranks) + " " +
                  fit.direction + " and P = " + std::to_string(s->ranks) + " " + s->direction + "): keep one");
    }
    by_size[s->size].push_back(s->time / s->repeats);
  }
  if (by_size.size() < 2) throw Error(series_name(level, fit.n) + ": needs at least two message sizes for a line");
  std::vector<double> x, y;
  for (const auto& [size, times] : by_size) {
    fit.points.push_back(LinePoint{static_cast<double>(size), median(times), static_cast<int>(times.size())});
    x.push_back(static_cast<double>(size));
    y.push_back(fit.points.back().time);
  }
  const auto line = least_squares(x, y);
  if (!(line.slope > 0)) {
    throw Error(series_name(level, fit.n) + ": the time does not grow with the message size (slope " +
                std::to_string(line.slope) + " s/B): no bandwidth can be fitted");
  }
  fit.intercept = line.intercept;
  fit.slope = line.slope;
  fit.r_squared = line.r_squared;
  fit.bandwidth = fit.n / fit.slope;  // N messages of s bytes share BW_MP(N): t = tau + N s / BW_MP(N)
  return fit;
}

}  // namespace

LineFit least_squares(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2) throw std::invalid_argument("least_squares: needs two or more points");
  const double n = static_cast<double>(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0) throw std::invalid_argument("least_squares: all x are equal");
  const double slope = sxy / sxx;
  const double r2 = syy == 0 ? 1.0 : (sxy * sxy) / (sxx * syy);
  return LineFit{my - slope * mx, slope, r2};
}

std::vector<MultipairSample> read_multipair_csv(std::istream& in, const std::string& name) {
  std::vector<MultipairSample> samples;
  std::string text;
  int line_no = 0;
  bool header_seen = false;
  while (std::getline(in, text)) {
    ++line_no;
    const auto content = trim(text);
    if (content.empty() || content[0] == '#') continue;
    if (!header_seen) {
      if (content != kHeader) {
        throw Error(SourceLocation{name, line_no, 1}, "expected the header '" + std::string(kHeader) + "', got '" + std::string(content) + "'");
      }
      header_seen = true;
      continue;
    }
    CsvLine line(content, name, line_no);
    if (line.size() != 8) line.fail(0, "expected 8 fields (" + std::string(kHeader) + "), got " + std::to_string(line.size()));
    MultipairSample s;
    s.level = parse_level(line);
    s.direction = std::string(line[1]);
    if (s.direction != "bi" && s.direction != "uni") line.fail(1, "direction: expected 'bi' or 'uni', got '" + s.direction + "'");
    s.ranks = line.number<int>(2, "P", 2);
    s.n = line.number<int>(3, "N", 1);
    s.size = line.number<std::uint64_t>(4, "size", 1);
    s.repeats = line.number<int>(5, "repeats", 1);
    line.number<int>(6, "sample", 0);
    s.time = line.number<double>(7, "time", 0.0);
    if (!(s.time > 0) || !std::isfinite(s.time)) line.fail(7, "time: expected a positive number of seconds");
    samples.push_back(s);
  }
  if (in.bad()) throw Error("error while reading '" + name + "'");
  if (!header_seen) throw Error(SourceLocation{name, 0, 0}, "no header line '" + std::string(kHeader) + "': not a multipair benchmark CSV");
  if (samples.empty()) throw Error(SourceLocation{name, 0, 0}, "no measurements after the header");
  return samples;
}

std::vector<MultipairSample> read_multipair_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open '" + path + "' for reading");
  return read_multipair_csv(in, path);
}

std::map<Level, LevelFit> fit_multipair(const std::vector<MultipairSample>& samples) {
  std::map<std::pair<Level, int>, std::vector<const MultipairSample*>> series;
  for (const auto& s : samples) series[{s.level, s.n}].push_back(&s);
  std::map<Level, LevelFit> fits;
  for (const auto& [key, members] : series) {
    auto& level = fits[key.first];
    level.level = key.first;
    level.by_n.push_back(fit_series(key.first, members));
  }
  for (auto& [level, fit] : fits) {
    // Thune Sec. II-B: tau is nearly the same for every N; Table I uses N = 2's.
    auto two = std::find_if(fit.by_n.begin(), fit.by_n.end(), [](const MultipairFit& f) { return f.n == 2; });
    const auto& chosen = two != fit.by_n.end() ? *two : fit.by_n.front();
    fit.tau = chosen.intercept;
    fit.tau_n = chosen.n;
    if (fit.tau < 0) {
      fit.tau = 0;
      fit.tau_clamped = true;
    }
  }
  return fits;
}

BandwidthTable LevelFit::table() const {
  std::vector<std::pair<int, double>> points;
  for (const auto& f : by_n) points.emplace_back(f.n, f.bandwidth);
  if (points.empty() || points.front().first != 1) {
    throw Error(std::string(level_name(level)) +
                ": no N = 1 series (BW_SP): measure it with 2 ranks (--unidirectional for intra_socket)");
  }
  return BandwidthTable::from_points(std::move(points));
}

}  // namespace contend::calibrate
