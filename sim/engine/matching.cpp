#include "sim/engine/matching.hpp"

#include <algorithm>

namespace contend {

namespace {
constexpr std::uint32_t kEnd = 0xFFFFFFFFu;
}

void KeyedFifo::push(const MatchKey& key, std::uint64_t seq, std::uint32_t id) {
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
    nodes_[index] = Node{Entry{seq, id}, kEnd};
  } else {
    index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(Node{Entry{seq, id}, kEnd});
  }
  auto [ends, inserted] = heads_.try_emplace(key, Ends{index, index});
  if (!inserted) {
    nodes_[ends->tail].next = index;
    ends->tail = index;
  }
}

std::optional<KeyedFifo::Entry> KeyedFifo::front(const MatchKey& key) const {
  const Ends* ends = heads_.find(key);
  if (ends == nullptr) return std::nullopt;
  return nodes_[ends->head].entry;
}

void KeyedFifo::pop(const MatchKey& key) {
  Ends* ends = heads_.find(key);
  if (ends == nullptr) return;
  const std::uint32_t head = ends->head;
  free_.push_back(head);
  if (head == ends->tail) {
    heads_.erase(key);
  } else {
    ends->head = nodes_[head].next;
  }
}

std::optional<std::pair<MatchKey, KeyedFifo::Entry>> KeyedFifo::earliest_matching(const MatchKey& pattern) const {
  std::optional<std::pair<MatchKey, Entry>> best;
  heads_.for_each([&](const MatchKey& key, const Ends& ends) {
    if (key.comm != pattern.comm) return;
    if (pattern.source != kAnySource && pattern.source != key.source) return;
    if (!tag_matches(pattern.tag, key.tag)) return;
    const Entry& e = nodes_[ends.head].entry;
    if (!best || e.seq < best->second.seq) best = std::make_pair(key, e);
  });
  return best;
}

std::vector<std::pair<MatchKey, KeyedFifo::Entry>> KeyedFifo::all() const {
  std::vector<std::pair<MatchKey, Entry>> out;
  heads_.for_each([&](const MatchKey& key, const Ends& ends) {
    for (std::uint32_t i = ends.head; i != kEnd; i = nodes_[i].next) out.emplace_back(key, nodes_[i].entry);
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
    auto e = unexpected_.front(pattern);
    if (!e) return std::nullopt;
    unexpected_.pop(pattern);
    return e->id;
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
