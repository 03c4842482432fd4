#pragma once
// A binary min-heap of (key, id) where each id appears at most once and its
// key can be changed or removed in O(log n): each group keeps the completion
// times of its message classes here.
#include <cstddef>
#include <utility>
#include <vector>

namespace contend {

class IndexedMinHeap {
 public:
  bool empty() const { return heap_.empty(); }
  double top_key() const { return heap_.front().first; }
  int top_id() const { return heap_.front().second; }
  bool contains(int id) const { return id < static_cast<int>(position_.size()) && position_[static_cast<std::size_t>(id)] >= 0; }

  // Inserts `id` or changes its key.
  void set(int id, double key) {
    if (id >= static_cast<int>(position_.size())) position_.resize(static_cast<std::size_t>(id) + 1, -1);
    int& pos = position_[static_cast<std::size_t>(id)];
    if (pos < 0) {
      pos = static_cast<int>(heap_.size());
      heap_.emplace_back(key, id);
      up(static_cast<std::size_t>(pos));
      return;
    }
    const double old = heap_[static_cast<std::size_t>(pos)].first;
    heap_[static_cast<std::size_t>(pos)].first = key;
    if (key < old) {
      up(static_cast<std::size_t>(pos));
    } else {
      down(static_cast<std::size_t>(pos));
    }
  }

  void erase(int id) {
    if (!contains(id)) return;
    const auto pos = static_cast<std::size_t>(position_[static_cast<std::size_t>(id)]);
    position_[static_cast<std::size_t>(id)] = -1;
    if (pos + 1 == heap_.size()) {
      heap_.pop_back();
      return;
    }
    heap_[pos] = heap_.back();
    heap_.pop_back();
    position_[static_cast<std::size_t>(heap_[pos].second)] = static_cast<int>(pos);
    up(pos);
    down(static_cast<std::size_t>(position_[static_cast<std::size_t>(heap_[pos].second)]));
  }

 private:
  // Ties broken by id: the order of simultaneous completions is deterministic.
  static bool less(const std::pair<double, int>& a, const std::pair<double, int>& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  }
  void place(std::size_t i) { position_[static_cast<std::size_t>(heap_[i].second)] = static_cast<int>(i); }
  void up(std::size_t i) {
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!less(heap_[i], heap_[parent])) break;
      std::swap(heap_[i], heap_[parent]);
      place(i);
      i = parent;
    }
    place(i);
  }
  void down(std::size_t i) {
    while (true) {
      const std::size_t l = 2 * i + 1, r = l + 1;
      std::size_t smallest = i;
      if (l < heap_.size() && less(heap_[l], heap_[smallest])) smallest = l;
      if (r < heap_.size() && less(heap_[r], heap_[smallest])) smallest = r;
      if (smallest == i) break;
      std::swap(heap_[i], heap_[smallest]);
      place(i);
      i = smallest;
    }
    place(i);
  }

  std::vector<std::pair<double, int>> heap_;
  std::vector<int> position_;  // by id, -1 when absent
};

}  // namespace contend
