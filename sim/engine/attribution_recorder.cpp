#include "sim/engine/attribution_recorder.hpp"

#include <algorithm>
#include <utility>

namespace contend {

void AttributionRecorder::posted(const Transfer& t) {
  if (logs_.size() <= t.message) logs_.resize(static_cast<std::size_t>(t.message) + 1);
  Log& log = logs_[static_cast<std::size_t>(t.message)];
  auto& m = log.message;
  m.id = t.message;
  m.src = t.src;
  m.dst = t.dst;
  m.tag = t.tag;
  m.bytes = t.bytes;
  m.level = t.level;
  m.post = t.post_time;
  const auto pair =
      static_cast<std::uint64_t>(static_cast<std::uint32_t>(t.src)) << 32 | static_cast<std::uint32_t>(t.dst);
  m.seq = sent_between_[pair]++;
}

void AttributionRecorder::close(Log& log, double at) {
  if (!log.is_open) return;
  log.is_open = false;
  // A zero-length interval says nothing: the next bound replaces it.
  if (at <= log.open.begin) return;
  log.open.end = at;
  log.message.intervals.push_back(std::move(log.open));
}

void AttributionRecorder::bound(const Transfer& t, double at, std::string resource, double rate, std::string detail) {
  Log& log = logs_[static_cast<std::size_t>(t.message)];
  if (log.is_open) {
    if (log.open.resource == resource && log.open.rate == rate && log.open.detail == detail) return;
    // A model's time may read a rounding error behind the engine's.
    at = std::max(at, log.open.begin);
  } else if (!log.message.intervals.empty()) {
    at = std::max(at, log.message.intervals.back().end);
  }
  close(log, at);
  log.open = AttributionInterval{at, at, std::move(resource), rate, std::move(detail)};
  log.is_open = true;
}

void AttributionRecorder::delivered(const Transfer& t, double end, double contention_free) {
  Log& log = logs_[static_cast<std::size_t>(t.message)];
  close(log, end);
  log.delivered = true;
  log.message.start = t.start;
  log.message.end = end;
  log.message.contention_free = contention_free;
}

std::vector<MessageAttribution> AttributionRecorder::take_delivered() {
  std::vector<MessageAttribution> out;
  for (auto& log : logs_) {
    if (log.delivered) out.push_back(std::move(log.message));
  }
  logs_.clear();
  return out;
}

}  // namespace contend
