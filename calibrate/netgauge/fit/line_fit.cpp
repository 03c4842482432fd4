#include "calibrate/netgauge/fit/line_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/error.hpp"

namespace contend::calibrate {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Weights 1/max(|y|, floor)^2, floor a tenth of the median |y| (see the header).
std::vector<double> relative_weights(const std::vector<double>& y) {
  std::vector<double> magnitude;
  for (double v : y) magnitude.push_back(std::abs(v));
  double floor = 0.1 * median_of(magnitude);
  if (floor <= 0) floor = 0.1 * *std::max_element(magnitude.begin(), magnitude.end());
  if (floor <= 0) return std::vector<double>(y.size(), 1.0);  // all zero: plain least squares
  std::vector<double> w;
  for (double m : magnitude) w.push_back(1 / std::pow(std::max(m, floor), 2));
  return w;
}

struct Sums {
  double w = 0, wx = 0, wy = 0, wxx = 0, wxy = 0;
};

Sums accumulate(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w,
                const std::vector<bool>& keep) {
  Sums s;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!keep[i]) continue;
    s.w += w[i];
    s.wx += w[i] * x[i];
    s.wy += w[i] * y[i];
    s.wxx += w[i] * x[i] * x[i];
    s.wxy += w[i] * x[i] * y[i];
  }
  return s;
}

// The weighted normal equations of y = a + b x; a constant when all x are equal.
LineFit solve(const Sums& s) {
  LineFit f;
  const double det = s.w * s.wxx - s.wx * s.wx;
  if (std::abs(det) <= 1e-12 * s.w * s.wxx) {
    f.intercept = s.wy / s.w;
    return f;
  }
  f.slope = (s.w * s.wxy - s.wx * s.wy) / det;
  f.intercept = (s.wy - f.slope * s.wx) / s.w;
  return f;
}

LineFit fit_kept(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w,
                 const std::vector<bool>& keep, bool non_negative) {
  const Sums s = accumulate(x, y, w, keep);
  LineFit f = solve(s);
  if (!non_negative) return f;
  if (f.slope < 0) {  // a constant: the weighted mean, at least 0
    f = LineFit{std::max(s.wy / s.w, 0.0), 0};
    f.slope_clamped = true;
  } else if (f.intercept < 0) {  // through the origin: b = sum(w x y) / sum(w x^2)
    f = LineFit{0, s.wxx > 0 ? std::max(s.wxy / s.wxx, 0.0) : 0};
    f.intercept_clamped = true;
  }
  return f;
}

}  // namespace

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y, bool non_negative) {
  if (x.size() != y.size()) throw Error("fit_line: x and y differ in length");
  if (x.empty()) throw Error("fit_line: no points to fit");
  const auto w = relative_weights(y);
  std::vector<bool> keep(x.size(), true);
  LineFit f = fit_kept(x, y, w, keep, non_negative);
  if (x.size() >= 4) {
    std::vector<double> residual, magnitude;
    const double floor = std::sqrt(1 / *std::max_element(w.begin(), w.end()));
    for (std::size_t i = 0; i < x.size(); ++i) {
      residual.push_back((y[i] - f.at(x[i])) / std::max(std::abs(y[i]), floor));
      magnitude.push_back(std::abs(residual.back()));
    }
    const double limit = std::max(5 * 1.4826 * median_of(magnitude), 0.05);
    std::size_t rejected = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (magnitude[i] > limit) {
        keep[i] = false;
        ++rejected;
      }
    }
    if (rejected > 0 && x.size() - rejected >= 2) {
      f = fit_kept(x, y, w, keep, non_negative);
      f.rejected = rejected;
    } else {
      keep.assign(x.size(), true);
    }
  }
  f.used = static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true));
  return f;
}

namespace {

LineFit plain_fit(const std::vector<double>& x, const std::vector<double>& y, std::size_t first, std::size_t last) {
  const std::vector<double> xs(x.begin() + static_cast<std::ptrdiff_t>(first),
                               x.begin() + static_cast<std::ptrdiff_t>(last));
  const std::vector<double> ys(y.begin() + static_cast<std::ptrdiff_t>(first),
                               y.begin() + static_cast<std::ptrdiff_t>(last));
  return solve(accumulate(xs, ys, relative_weights(ys), std::vector<bool>(xs.size(), true)));
}

void add_relative_residuals(const LineFit& f, const std::vector<double>& x, const std::vector<double>& y,
                            std::size_t first, std::size_t last, std::vector<double>& out) {
  for (std::size_t i = first; i < last; ++i)
    out.push_back(std::abs(y[i] - f.at(x[i])) / std::max(std::abs(y[i]), 1e-300));
}

}  // namespace

std::vector<Changepoint> find_changepoints(const std::vector<double>& x, const std::vector<double>& y,
                                           const SwitchOptions& o) {
  if (x.size() != y.size()) throw Error("find_changepoints: x and y differ in length");
  const std::size_t need = std::max<std::size_t>(o.min_points, 2);
  std::vector<Changepoint> steps;  // every boundary's step
  for (std::size_t b = need; b + need <= x.size(); ++b) {
    const std::size_t first = b > o.window ? b - o.window : 0;
    const std::size_t last = std::min(x.size(), b + o.window);
    const LineFit left = plain_fit(x, y, first, b), right = plain_fit(x, y, b, last);
    std::vector<double> residuals;
    add_relative_residuals(left, x, y, first, b, residuals);
    add_relative_residuals(right, x, y, b, last, residuals);
    const double at = left.at(x[b - 1]);
    // A slope change whose knee falls inside the left window can still put the
    // right line above: the per-message part (intercept) must grow as well.
    const double jump = right.intercept > left.intercept && at > 0 ? (right.at(x[b - 1]) - at) / at : 0;
    steps.push_back({b, jump, median_of(residuals)});
  }
  std::vector<Changepoint> found;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& s = steps[i];
    const bool peak = (i == 0 || s.jump >= steps[i - 1].jump) && (i + 1 == steps.size() || s.jump > steps[i + 1].jump);
    if (peak && s.jump >= o.min_jump && s.jump >= o.noise_factor * s.noise) found.push_back(s);
  }
  return found;
}

std::optional<std::size_t> protocol_switch(const std::vector<Changepoint>& changepoints) {
  const Changepoint* best = nullptr;
  for (const auto& c : changepoints) {
    if (!best || c.jump > best->jump) best = &c;
  }
  if (!best) return std::nullopt;
  return best->index;
}

}  // namespace contend::calibrate
