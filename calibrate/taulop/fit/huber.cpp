#include "calibrate/taulop/fit/huber.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace contend::calibrate {
namespace {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

// Least squares on the columns marked passive; zero elsewhere.
VectorXd solve_on(const MatrixXd& a, const VectorXd& b, const std::vector<bool>& passive) {
  std::vector<Index> columns;
  for (Index j = 0; j < a.cols(); ++j) {
    if (passive[static_cast<std::size_t>(j)]) columns.push_back(j);
  }
  MatrixXd sub(a.rows(), static_cast<Index>(columns.size()));
  for (std::size_t k = 0; k < columns.size(); ++k) sub.col(static_cast<Index>(k)) = a.col(columns[k]);
  const VectorXd z_sub = sub.colPivHouseholderQr().solve(b);
  VectorXd z = VectorXd::Zero(a.cols());
  for (std::size_t k = 0; k < columns.size(); ++k) z[columns[k]] = z_sub[static_cast<Index>(k)];
  return z;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

// The column-normalised, ridge-augmented problem of one IRLS step:
// [sqrt(w) a'; sqrt(ridge) I] y = [sqrt(w) t'; 0].
VectorXd weighted_step(const MatrixXd& a, const VectorXd& t, const VectorXd& w, const HuberOptions& o) {
  const Index n = a.rows(), p = a.cols();
  MatrixXd big(n + p, p);
  VectorXd rhs(n + p);
  const VectorXd root_w = w.array().sqrt();
  big.topRows(n) = root_w.asDiagonal() * a;
  big.bottomRows(p) = std::sqrt(o.ridge) * MatrixXd::Identity(p, p);
  rhs.head(n) = root_w.cwiseProduct(t);
  rhs.tail(p).setZero();
  if (o.non_negative) return non_negative_least_squares(big, rhs);
  return big.colPivHouseholderQr().solve(rhs);
}

}  // namespace

VectorXd non_negative_least_squares(const MatrixXd& a, const VectorXd& b) {
  const Index p = a.cols();
  VectorXd x = VectorXd::Zero(p);
  std::vector<bool> passive(static_cast<std::size_t>(p), false);
  const double tol = 10 * std::numeric_limits<double>::epsilon() * std::max<double>(1, a.norm()) *
                     static_cast<double>(std::max(a.rows(), a.cols())) * std::max(1.0, b.norm());
  // Lawson & Hanson terminate in finitely many steps; the cap guards against rounding cycles.
  for (Index outer = 0; outer < 10 * p + 10; ++outer) {
    const VectorXd gradient = a.transpose() * (b - a * x);
    Index best = -1;
    double best_gradient = tol;
    for (Index j = 0; j < p; ++j) {
      if (!passive[static_cast<std::size_t>(j)] && gradient[j] > best_gradient) {
        best = j;
        best_gradient = gradient[j];
      }
    }
    if (best < 0) break;
    passive[static_cast<std::size_t>(best)] = true;
    for (Index inner = 0; inner < 10 * p + 10; ++inner) {
      const VectorXd z = solve_on(a, b, passive);
      double alpha = 1;
      bool feasible = true;
      for (Index j = 0; j < p; ++j) {
        if (passive[static_cast<std::size_t>(j)] && z[j] <= 0) {
          feasible = false;
          alpha = std::min(alpha, x[j] / (x[j] - z[j]));
        }
      }
      if (feasible) {
        x = z;
        break;
      }
      x += alpha * (z - x);
      for (Index j = 0; j < p; ++j) {
        if (passive[static_cast<std::size_t>(j)] && x[j] <= 1e-15 * x.cwiseAbs().maxCoeff()) {
          passive[static_cast<std::size_t>(j)] = false;
          x[j] = 0;
        }
      }
    }
  }
  return x.cwiseMax(0.0);
}

HuberFit huber_regression(const MatrixXd& a, const VectorXd& t, const HuberOptions& o) {
  const Index n = a.rows(), p = a.cols();
  // Normalise columns and times so that the ridge and the tolerances are scale-free.
  VectorXd column_norm = a.colwise().norm().transpose();
  for (Index j = 0; j < p; ++j) {
    if (column_norm[j] == 0) column_norm[j] = 1;  // a column of zeros: its unknown is set to 0 by the ridge
  }
  const double time_scale = t.cwiseAbs().maxCoeff() > 0 ? t.cwiseAbs().maxCoeff() : 1.0;
  const MatrixXd a_n = a * column_norm.cwiseInverse().asDiagonal();
  const VectorXd t_n = t / time_scale;

  HuberFit fit;
  fit.weights = VectorXd::Ones(n);
  VectorXd y = weighted_step(a_n, t_n, fit.weights, o);
  double scale = 0;
  for (fit.iterations = 1; fit.iterations <= o.max_iterations; ++fit.iterations) {
    const VectorXd r = t_n - a_n * y;
    std::vector<double> magnitudes(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) magnitudes[static_cast<std::size_t>(i)] = std::abs(r[i]);
    scale = std::max(1.4826 * median(magnitudes), 1e-12);  // an exact fit of most equations leaves a tiny scale
    for (Index i = 0; i < n; ++i) {
      fit.weights[i] = std::abs(r[i]) <= o.epsilon * scale ? 1.0 : o.epsilon * scale / std::abs(r[i]);
    }
    const VectorXd next = weighted_step(a_n, t_n, fit.weights, o);
    const double change = (next - y).norm() / std::max(y.norm(), 1e-300);
    y = next;
    if (change <= o.tolerance) {
      fit.converged = true;
      break;
    }
  }
  fit.iterations = std::min(fit.iterations, o.max_iterations);
  fit.coefficients = time_scale * column_norm.cwiseInverse().cwiseProduct(y);
  fit.scale = scale * time_scale;
  return fit;
}

}  // namespace contend::calibrate
