#include "calibrate/multipair/fit/multipair_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend::calibrate {
namespace {

constexpr std::string_view kHeader = "level,direction,P,N,size,repeats,sample,time_s";

CsvColumns raw_columns() {
  return CsvColumns{.required = {"level", "direction", "P", "N", "size", "repeats", "sample", "time_s"},
                    .former_names = {{"time_s", "time"}},
                    .header_error = [](std::string_view header) {
                      return "expected the header '" + std::string(kHeader) + "', got '" + std::string(header) + "'";
                    }};
}

Level parse_level(const CsvRow& row) {
  const std::string& text = row.text("level");
  for (Level l : kAllLevels) {
    if (text == level_name(l)) return l;
  }
  std::vector<std::string> names;
  for (Level l : kAllLevels) names.emplace_back(level_name(l));
  row.fail("level", "level: unknown '" + text + "'" + did_you_mean(text, names) + "; expected one of: " + join(names));
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

namespace {

std::vector<MultipairSample> samples_of(const CsvFile& csv) {
  std::vector<MultipairSample> samples;
  for (const auto& row : csv.rows()) {
    MultipairSample s;
    s.level = parse_level(row);
    s.direction = row.text("direction");
    if (s.direction != "bi" && s.direction != "uni")
      row.fail("direction", "direction: expected 'bi' or 'uni', got '" + s.direction + "'");
    s.ranks = row.at_least<int>("P", 2);
    s.n = row.at_least<int>("N", 1);
    s.size = row.at_least<std::uint64_t>("size", 1);
    s.repeats = row.at_least<int>("repeats", 1);
    row.at_least<int>("sample", 0);
    s.time = row.at_least<double>("time_s", 0.0);
    if (!(s.time > 0)) row.fail("time_s", "time_s: expected a positive number of seconds");
    samples.push_back(s);
  }
  if (samples.empty()) throw Error(csv.end(), "no measurements after the header");
  return samples;
}

}  // namespace

std::vector<MultipairSample> read_multipair_csv(std::istream& in, const std::string& name) {
  return samples_of(CsvFile::read(in, name, raw_columns()));
}

std::vector<MultipairSample> read_multipair_csv(const std::string& path) {
  return samples_of(CsvFile::read(path, raw_columns()));
}

MultipairData read_multipair_csvs(const std::vector<std::string>& paths) {
  MultipairData data;
  std::map<Level, std::vector<std::string>> files;
  for (const auto& path : paths) {
    const auto more = read_multipair_csv(path);
    for (Level level : kAllLevels) {
      if (std::any_of(more.begin(), more.end(), [&](const auto& s) { return s.level == level; })) {
        files[level].push_back(std::filesystem::path(path).filename().string());
      }
    }
    data.samples.insert(data.samples.end(), more.begin(), more.end());
  }
  for (const auto& [level, names] : files) data.sources[level] = join(names);
  return data;
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

std::string fits_csv(const std::map<Level, LevelFit>& fits) {
  std::string out = "level,N,P,direction,sizes,intercept_s,slope_s_per_byte,bandwidth_bytes_per_s,r_squared,tau_s\n";
  for (const auto& [level, fit] : fits) {
    for (const auto& f : fit.by_n) {
      out += fmt::format("{},{},{},{},{},{:.9g},{:.9g},{:.9g},{:.9f},{:.9g}\n", level_name(level), f.n, f.ranks,
                         f.direction, f.points.size(), f.intercept, f.slope, f.bandwidth, f.r_squared, fit.tau);
    }
  }
  return out;
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
