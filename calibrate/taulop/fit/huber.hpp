#pragma once
// Robust linear regression for the tau-Lop parameter systems (Nuriyev et al.
// 2022, Sec. 5.2, the system of Fig. 8, solved "using the Huber regressor"):
// iteratively reweighted least squares with Huber's weights, each step a
// non-negative least-squares solve (Lawson & Hanson) done with Eigen.
//
// Choices where the paper says nothing (written here and tested):
// - Parameters are times, so they are constrained to be >= 0 (the paper
//   reports o^0 = 0 exactly on every cluster, which a clamp gives and an
//   unconstrained fit would not).
// - A small ridge on the column-normalised unknowns breaks ties between
//   columns that the experiments cannot tell apart (o^1 and L^1 always appear
//   as o^1 + L^1 in eqs (17)-(18)); identical columns then get equal values,
//   as in the paper's Table 2 where o^1 = L^1 in every row.
// - The residual scale is re-estimated at each step as 1.4826 * the median
//   absolute residual (MAD); residuals beyond epsilon * scale get weight
//   epsilon * scale / |r| (Huber 1964).
#include <Eigen/Dense>

namespace contend::calibrate {

struct HuberOptions {
  double epsilon = 1.35;  // Huber's threshold, in residual scales (95% efficiency under Gaussian noise)
  double ridge = 1e-10;   // on the column-normalised problem: a tie-break, not a shrinkage
  bool non_negative = true;
  int max_iterations = 200;
  double tolerance = 1e-10;  // relative change of the coefficients that ends the iterations
};

struct HuberFit {
  Eigen::VectorXd coefficients;
  Eigen::VectorXd weights;  // final weight of each equation: 1 = inlier, < 1 = down-weighted
  double scale = 0;         // robust residual scale (seconds when t is in seconds)
  int iterations = 0;
  bool converged = false;
};

// Minimises sum_i huber(t_i - a_i . x) (+ the tie-break ridge), x >= 0 when
// options.non_negative. a: one row per equation; t: the measured times.
HuberFit huber_regression(const Eigen::MatrixXd& a, const Eigen::VectorXd& t, const HuberOptions& options = {});

// min ||a x - b||, x >= 0 (Lawson & Hanson 1974, ch. 23). a must have full
// column rank on the columns that end up positive.
Eigen::VectorXd non_negative_least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& b);

}  // namespace contend::calibrate
