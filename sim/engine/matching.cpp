#include "sim/engine/matching.hpp"

#include <algorithm>

namespace contend {

namespace {
constexpr std::uint32_t kEnd = 0xFFFFFFFFu;
}

void KeyedFifo::push(const MatchKey& key, std::uint64_t seq, std::uint32_t id) {
  auto [queue, inserted] = heads_.try_emplace(key, Queue{Entry{seq, id}, kEnd, kEnd});
  if (inserted) return;
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
    nodes_[index] = Node{Entry{seq, id}, kEnd};
  } else {
    index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(Node{Entry{seq, id}, kEnd});
  }
  if (queue->rest_head == kEnd) {
    queue->rest_head = index;
  } else {
    nodes_[queue->rest_tail].next = index;
  }
  queue->rest_tail = index;
}

std::optional<KeyedFifo::Entry> KeyedFifo::front(const MatchKey& key) const {
  const Queue* queue = heads_.find(key);
  if (queue == nullptr) return std::nullopt;
  return queue->first;
}

void KeyedFifo::pop_first(const MatchKey& key, Queue& queue) {
  if (queue.rest_head == kEnd) {
    heads_.erase(key);
    return;
  }
  const std::uint32_t second = queue.rest_head;
  queue.first = nodes_[second].entry;
  queue.rest_head = second == queue.rest_tail ? kEnd : nodes_[second].next;
  if (queue.rest_head == kEnd) queue.rest_tail = kEnd;
  free_.push_back(second);
}

void KeyedFifo::pop(const MatchKey& key) {
  if (Queue* queue = heads_.find(key)) pop_first(key, *queue);
}

std::optional<KeyedFifo::Entry> KeyedFifo::take_front(const MatchKey& key) {
  Queue* queue = heads_.find(key);
  if (queue == nullptr) return std::nullopt;
  const Entry first = queue->first;
  pop_first(key, *queue);
  return first;
}

std::optional<std::pair<MatchKey, KeyedFifo::Entry>> KeyedFifo::earliest_matching(const MatchKey& pattern) const {
  std::optional<std::pair<MatchKey, Entry>> best;
  heads_.for_each([&](const MatchKey& key, const Queue& queue) {
    if (key.comm != pattern.comm) return;
    if (pattern.source != kAnySource && pattern.source != key.source) return;
    if (!tag_matches(pattern.tag, key.tag)) return;
    if (!best || queue.first.seq < best->second.seq) best = std::make_pair(key, queue.first);
  });
  return best;
}

std::vector<std::pair<MatchKey, KeyedFifo::Entry>> KeyedFifo::all() const {
  std::vector<std::pair<MatchKey, Entry>> out;
  heads_.for_each([&](const MatchKey& key, const Queue& queue) {
    out.emplace_back(key, queue.first);
    for (std::uint32_t i = queue.rest_head; i != kEnd; i = nodes_[i].next) out.emplace_back(key, nodes_[i].entry);
  });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second.seq < b.second.seq; });
  return out;
}

void MatchQueues::post_receive(const MatchKey& pattern, std::uint32_t request) {
  const std::uint64_t seq = next_seq_++;
  if (pattern.source == kAnySource || pattern.tag == kAnyTag) {
    posted_wild_.push_back(Wild{seq, pattern, request});
  } else {
    posted_exact_.push(pattern, seq, request);
  }
}

std::optional<std::uint32_t> MatchQueues::take_receive_for(const MatchKey& key) {
  if (posted_wild_.empty()) {
    // No wildcard receive (every exchange): the exact queue alone decides.
    if (auto exact = posted_exact_.take_front(key)) return exact->id;
    return std::nullopt;
  }
  const auto exact = posted_exact_.front(key);
  auto wild =
      std::find_if(posted_wild_.begin(), posted_wild_.end(), [&](const Wild& w) { return matches(w.pattern, key); });
  const bool use_wild = wild != posted_wild_.end() && (!exact || wild->seq < exact->seq);
  if (use_wild) {
    const std::uint32_t request = wild->request;
    posted_wild_.erase(wild);
    return request;
  }
  if (exact) {
    posted_exact_.pop(key);
    return exact->id;
  }
  return std::nullopt;
}

void MatchQueues::add_unexpected(const MatchKey& key, std::uint32_t transfer) {
  unexpected_.push(key, next_seq_++, transfer);
}

std::optional<std::uint32_t> MatchQueues::take_unexpected_for(const MatchKey& pattern) {
  if (pattern.source != kAnySource && pattern.tag != kAnyTag) {
    if (auto e = unexpected_.take_front(pattern)) return e->id;
    return std::nullopt;
  }
  auto best = unexpected_.earliest_matching(pattern);
  if (!best) return std::nullopt;
  unexpected_.pop(best->first);
  return best->second.id;
}

std::vector<std::uint32_t> MatchQueues::pending_receives() const {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> all;
  for (const auto& [key, e] : posted_exact_.all()) all.emplace_back(e.seq, e.id);
  for (const auto& w : posted_wild_) all.emplace_back(w.seq, w.request);
  std::sort(all.begin(), all.end());
  std::vector<std::uint32_t> out;
  for (const auto& [seq, id] : all) out.push_back(id);
  return out;
}

std::vector<std::pair<MatchKey, std::uint32_t>> MatchQueues::pending_unexpected() const {
  std::vector<std::pair<MatchKey, std::uint32_t>> out;
  for (const auto& [key, e] : unexpected_.all()) out.emplace_back(key, e.id);
  return out;
}

}  // namespace contend
