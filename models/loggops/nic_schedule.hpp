#pragma once
// One rank's NIC under LogGOPS: it injects the rank's messages one at a
// time, in the order their data may move (FIFO by start time), each from
// max(its start, the end of the previous injection) for g + G k.
//
// Starts usually come in time order, each appended. A rank posting its
// sends ahead of SimGrid's clock (EngineCore::isend) starts its eager
// messages at their later post instants, and one of its rendezvous messages
// matched afterwards may start before some of them: it is inserted at its
// place and the injections behind it move later (each reported, so that the
// model plans its arrival again; none has arrived yet, since each starts
// after the inserted one, which starts no earlier than now).
#include <algorithm>
#include <deque>
#include <iterator>

#include "sim/engine/transfer.hpp"

namespace contend {

class NicSchedule {
 public:
  struct Injection {
    TransferId id;
    double begin, end;  // the NIC injects the message over [begin, end)
  };

  // Message `id`, whose data may move from `start` (>= now), needs the NIC
  // for g + G k (`g`, `gk`). Messages started at or before `now` are settled
  // (no later start can come before them) and forgotten. `moved(injection)`
  // is called for each message behind this one whose injection changed.
  template <class Moved>
  Injection add(TransferId id, double start, double g, double gk, double now, Moved&& moved) {
    while (!pending_.empty() && pending_.front().start <= now) {
      free_ = pending_.front().end;
      pending_.pop_front();
    }
    // After the messages of the same start: they were started first. Most
    // starts come last (in time order): no search then.
    auto at = pending_.empty() || !(start < pending_.back().start)
                  ? pending_.end()
                  : std::upper_bound(pending_.begin(), pending_.end(), start,
                                     [](double s, const Entry& e) { return s < e.start; });
    const double previous = at == pending_.begin() ? free_ : std::prev(at)->end;
    at = pending_.insert(at, Entry{id, start, g, gk, 0, 0});
    at->place(previous);
    const Injection added{id, at->begin, at->end};
    for (auto next = std::next(at); next != pending_.end(); ++next) {
      // Injections behind only move later: one that keeps its beginning
      // keeps everything behind it too.
      const double previous_end = std::prev(next)->end;
      if (std::max(next->start, previous_end) == next->begin) break;
      next->place(previous_end);
      moved(Injection{next->id, next->begin, next->end});
    }
    return added;
  }

 private:
  struct Entry {
    TransferId id;
    double start, g, gk;
    double begin, end;
    void place(double previous) {
      begin = std::max(start, previous);
      end = begin + g + gk;  // (inject + g) + G k, as the model always computed it
    }
  };
  std::deque<Entry> pending_;  // started after now, in start order
  double free_ = 0;            // when the last settled injection ends
};

}  // namespace contend
