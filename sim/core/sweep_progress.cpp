#include "sim/core/sweep_progress.hpp"

#include <fmt/format.h>

#include <cmath>

namespace contend {

std::string short_duration(double seconds) {
  const auto s = static_cast<long long>(std::ceil(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

std::string SweepProgress::line(std::size_t done, std::size_t total, std::size_t failed, double elapsed) {
  constexpr std::size_t kWidth = 20;
  const std::size_t filled = total == 0 ? kWidth : done * kWidth / total;
  std::string text = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] " +
                     fmt::format("{}/{} cases", done, total);
  if (failed > 0) text += fmt::format(", {} failed", failed);
  if (done > 0 && elapsed > 0) {
    const double rate = static_cast<double>(done) / elapsed;
    text += fmt::format(", {:.0f}/min, ETA {}", rate * 60, short_duration(static_cast<double>(total - done) / rate));
  }
  return text;
}

SweepProgress::SweepProgress(std::size_t total, bool enabled, std::FILE* out)
    : total_(total), enabled_(enabled), out_(out), begin_(std::chrono::steady_clock::now()), drawn_(begin_) {}

void SweepProgress::case_done(bool ok) {
  ++done_;
  if (!ok) ++failed_;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done_ < total_ && now - drawn_ < std::chrono::milliseconds(200)) return;
  drawn_ = now;
  const double elapsed = std::chrono::duration<double>(now - begin_).count();
  // Padded so that a shorter line covers a longer one.
  std::fprintf(out_, "\rsweep %-70s", line(done_, total_, failed_, elapsed).c_str());
  std::fflush(out_);
}

void SweepProgress::finish() {
  if (!enabled_ || done_ == 0) return;
  std::fprintf(out_, "\r%-76s\r", "");
  std::fflush(out_);
}

}  // namespace contend
