#include "sim/core/sweep_output.hpp"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <iostream>

#include "sim/core/file_io.hpp"

namespace contend {
namespace {

std::size_t number(std::string_view text, bool& ok) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  ok = ok && ec == std::errc{} && end == text.data() + text.size();
  return value;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  bool ok = slash != std::string::npos;
  Shard shard;
  if (ok) {
    shard.k = number(std::string_view(text).substr(0, slash), ok);
    shard.n = number(std::string_view(text).substr(slash + 1), ok);
  }
  if (!ok || shard.n == 0 || shard.k == 0 || shard.k > shard.n)
    throw Error("--shard: expected K/N with 1 <= K <= N (the K-th of N shards), got '" + text + "'");
  return shard;
}

std::vector<std::size_t> shard_cases(std::size_t total, const Shard& shard) {
  std::vector<std::size_t> cases;
  for (std::size_t i = shard.k - 1; i < total; i += shard.n) cases.push_back(i);
  return cases;
}

SweepPlan plan_sweep(const SweepSpec& spec, const std::vector<std::size_t>& cases, const std::string& output,
                     const std::string& contend_version) {
  SweepPlan plan;
  plan.hashes.resize(spec.cases.size());
  CaseHasher hasher(contend_version);
  for (const auto index : cases) plan.hashes[index] = hasher.hash(spec.cases[index]);
  std::map<std::size_t, SweepRow> earlier;
  std::error_code ec;
  if (output != "-" && std::filesystem::is_regular_file(output, ec) && std::filesystem::file_size(output, ec) > 0)
    earlier = read_sweep_rows(output, spec);
  for (const auto index : cases) {
    const auto it = earlier.find(index);
    if (it != earlier.end() && it->second.ok && it->second.hash == plan.hashes[index]) {
      plan.rows.insert(*it);
    } else {
      plan.pending.push_back(index);
    }
  }
  return plan;
}

SweepOutput::SweepOutput(std::string path, const SweepSpec& spec, std::map<std::size_t, SweepRow> rows)
    : path_(std::move(path)), spec_(spec), rows_(std::move(rows)), written_(std::chrono::steady_clock::now()) {
  // Standard output, a pipe or a device is written once, at the end.
  std::error_code ec;
  periodic_ = path_ != "-" && (!std::filesystem::exists(path_, ec) || std::filesystem::is_regular_file(path_, ec));
}

void SweepOutput::add(SweepRow row) {
  const auto index = row.index;
  rows_[index] = std::move(row);
  if (!periodic_ || std::chrono::steady_clock::now() - written_ < std::chrono::seconds(1)) return;
  write();
}

void SweepOutput::finish() { write(); }

void SweepOutput::write() {
  write_file_atomically(path_, [&](std::ostream& out) { write_sweep_csv(out, spec_, rows_); });
  written_ = std::chrono::steady_clock::now();
}

void print_sweep_end(const SweepOutput& results, const SweepSummary& s, bool quiet) {
  std::size_t failed = 0;
  for (const auto& [index, row] : results.rows()) failed += row.ok ? 0 : 1;
  if (failed > 0)
    std::cerr << fmt::format("{}: warning: {} of {} cases failed (status error, and why, in {})\n", s.program, failed,
                             s.cases, s.output);
  if (quiet) return;
  std::string line = fmt::format("{}: {} cases: {} run, {} already in {}, {} failed; {:.1f} s on {}", s.label, s.cases,
                                 s.run, s.kept, s.output, failed, s.wall_seconds, s.on);
  if (s.run > 0 && s.wall_seconds > 0)
    line += fmt::format(" ({:.0f} cases/min)", static_cast<double>(s.run) * 60 / s.wall_seconds);
  // With the rows on standard output (-o -), the summary goes to standard error.
  (s.output == "-" ? std::cerr : std::cout) << line << std::endl;
}

}  // namespace contend
