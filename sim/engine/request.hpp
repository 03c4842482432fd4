#pragma once
// Nonblocking MPI requests of one rank, recycled once waited for.
#include <cstdint>
#include <vector>

#include "sim/engine/transfer.hpp"

namespace contend {

struct Request {
  enum class Kind : std::uint8_t { Send, Recv };
  Kind kind = Kind::Send;
  bool complete = false;
  bool in_wait = false;  // part of the set its rank is waiting for
  int peer = 0;          // destination of a send, source of a receive (may be kAnySource)
  int tag = 0;
  int comm = 0;
  std::uint64_t bytes = 0;
  TransferId transfer = kNoId;  // set once the message is known (send) or matched (receive)
  double post_time = 0;
  double complete_time = 0;
  double cpu_due = 0;  // receive overhead the rank still has to spend on it
};

class RequestPool {
 public:
  RequestId add(const Request& r) {
    if (free_head_ != kNoId) {
      const RequestId id = free_head_;
      free_head_ = slots_[id].transfer;
      slots_[id] = r;
      return id;
    }
    slots_.push_back(r);
    return static_cast<RequestId>(slots_.size() - 1);
  }
  // The last released slot is the next one reused.
  void release(RequestId id) {
    slots_[id].transfer = free_head_;
    free_head_ = id;
  }
  // Room for `count` requests posted before any is released (one exchange's
  // isends and irecvs): no reallocation and copy as they are posted.
  void reserve(std::size_t count) { slots_.reserve(count); }
  Request& operator[](RequestId id) { return slots_[id]; }
  const Request& operator[](RequestId id) const { return slots_[id]; }
  bool valid(RequestId id) const { return id < slots_.size(); }

 private:
  std::vector<Request> slots_;
  // The free slots form a list through their `transfer` field (unused once
  // released): the pool is 32 bytes, so that it shares a cache line with
  // the rank's other fields every delivery reads (EngineCore::RankState).
  RequestId free_head_ = kNoId;
};
static_assert(sizeof(RequestPool) <= 32);

}  // namespace contend
