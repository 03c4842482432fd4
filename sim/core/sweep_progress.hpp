#pragma once
// The progress bar of a sweep on a terminal's standard error, rewritten in
// place ('\r'): cases done of all, failures, rate and the time left,
//   sweep [##########..........] 100/200 cases, 2 failed, 480/min, ETA 12s
// The commands enable it when stderr is a terminal and --quiet is absent.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace contend {

class SweepProgress {
 public:
  SweepProgress(std::size_t total, bool enabled, std::FILE* out = stderr);
  void case_done(bool ok);  // redraws at most every 0.2 s, and at the last case
  void finish();            // clears the line
  // "[####......] 3/10 cases, 1 failed, 40/min, ETA 9s" at `elapsed` seconds.
  static std::string line(std::size_t done, std::size_t total, std::size_t failed, double elapsed);

 private:
  std::size_t total_, done_ = 0, failed_ = 0;
  bool enabled_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point begin_, drawn_;
};

// "1h02m", "3m05s", "12s".
std::string short_duration(double seconds);

}  // namespace contend
