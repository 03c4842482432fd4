#pragma once
// Straight lines through per-size measurements, and where they break.
//
// Sizes double from point to point, so values span orders of magnitude: an
// ordinary least-squares line would be set by the largest sizes alone and
// leave the intercept (o_s, o_r, g: the small-message costs) to their noise.
// Lines are therefore fitted on relative residuals (weights 1/y^2; y floored
// at a tenth of the median |y|, since the overhead estimates are differences
// and can be near zero), with one round of outlier rejection.
#include <cstddef>
#include <optional>
#include <vector>

namespace contend::calibrate {

struct LineFit {
  double intercept = 0;
  double slope = 0;
  std::size_t used = 0;            // points kept after outlier rejection
  std::size_t rejected = 0;        // points dropped as outliers
  bool intercept_clamped = false;  // a negative intercept: refitted through the origin
  bool slope_clamped = false;      // a negative slope: refitted as a constant
  double at(double x) const { return intercept + slope * x; }
};

// Weighted least squares of y = a + b x with weights 1/max(|y|, floor)^2,
// then once more without the points whose relative residual exceeds
// max(5 x 1.4826 x MAD, 5 %) (MAD: median absolute relative residual), when at
// least 4 points remain. With `non_negative`, a negative intercept or slope is
// refitted at 0 (overheads and gaps cannot be negative). One point gives a
// constant; none gives an error.
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y, bool non_negative);

struct SwitchOptions {
  std::size_t min_points = 3;  // on each side of a boundary
  std::size_t window = 4;      // points on each side that the local lines are fitted on
  double min_jump = 0.25;      // relative step up needed for a protocol switch
  double noise_factor = 3;     // ... and at least this many times the local noise
};

struct Changepoint {
  std::size_t index;  // first point of the new segment
  double jump;        // (right line - left line) / left line, at the last point before the boundary
  double noise;       // median |relative residual| of the two local lines
};

// Steps up in y(x) (x increasing). At every boundary b with min_points on
// each side, a line is fitted on up to `window` points before b and one on up
// to `window` points from b (weighted as fit_line, no rejection); the step is
// the right line, extended back to x[b-1], over the left line there. A
// protocol switch adds a per-message cost (the rendezvous handshake): the
// right line lies above the left one. A change of slope alone (a cache
// boundary between x[b-1] and x[b]) meets the left line at or below x[b-1]
// and lowers the intercept: no step (a boundary whose right intercept is not
// above the left one counts as step 0, for knees inside the left window). Changepoints: the boundaries whose step is at
// least min_jump and noise_factor times the local noise, and larger than their neighbours' (a local maximum: one step
// shows at the boundaries next to it too).
std::vector<Changepoint> find_changepoints(const std::vector<double>& x, const std::vector<double>& y,
                                           const SwitchOptions& options = {});

// The eager -> rendezvous switch: the changepoint with the largest step.
// Returns the index of the first rendezvous point.
std::optional<std::size_t> protocol_switch(const std::vector<Changepoint>& changepoints);

}  // namespace contend::calibrate
