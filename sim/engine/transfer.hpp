#pragma once
// A message's data movement, as seen by the engine and by the models.
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/core/datatype.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"

namespace contend {

using TransferId = std::uint32_t;
using RequestId = std::uint32_t;
inline constexpr std::uint32_t kNoId = std::numeric_limits<std::uint32_t>::max();

struct Transfer {
  enum class State : std::uint8_t { Posted, Moving, Delivered };
  // Rendezvous without background progression: the receiver must see the
  // request to send, then the sender the clear to send, each inside an MPI call.
  enum class Handshake : std::uint8_t { None, NeedsReceiver, NeedsSender };

  std::uint64_t message = 0;  // the message's id: posting order in the run
  int src = 0, dst = 0;       // world ranks
  int tag = 0;
  int comm = 0;
  std::uint64_t bytes = 0;
  // Transport buffering (docs/mpi-semantics.md): the model releases the sender
  // (TransferSink::release_sender) once only this many bytes remain
  // undelivered. 0: no release before delivery. Set by the engine when the
  // data starts moving, for rendezvous messages larger than the level's
  // transport_buffer (one that fits is released by the engine at once).
  std::uint64_t release_remaining = 0;
  Level level = Level::IntraSocket;
  bool eager = false;
  DatatypeId datatype = kContiguous;
  State state = State::Posted;
  Handshake handshake = Handshake::None;
  bool matched = false;
  bool sender_released = false;    // its send request completed before delivery (transport buffering)
  double post_time = 0;            // when the send was posted
  std::uint64_t post_order = 0;    // its number on the run's timeline (Timeline::next_order), if any
  double start = -1;               // when the data began to move
  double end = -1;                 // when the last byte arrived
  RequestId send_request = kNoId;  // the sender's request while it waits for delivery (rendezvous)
  RequestId recv_request = kNoId;  // the matching receive, once matched
};

// Transfers live in one table, recycled once both sides are done with them so
// that memory follows the messages in flight, not the length of the run.
class TransferTable {
 public:
  TransferId add(const Transfer& t) {
    if (!free_.empty()) {
      const TransferId id = free_.back();
      free_.pop_back();
      slots_[id] = t;
      return id;
    }
    slots_.push_back(t);
    return static_cast<TransferId>(slots_.size() - 1);
  }
  void release(TransferId id) { free_.push_back(id); }
  // Room for `count` transfers in flight at once: no reallocation and copy
  // as they are posted.
  void reserve(std::size_t count) { slots_.reserve(count); }
  Transfer& operator[](TransferId id) { return slots_[id]; }
  const Transfer& operator[](TransferId id) const { return slots_[id]; }
  std::size_t capacity() const { return slots_.size(); }

 private:
  std::vector<Transfer> slots_;
  std::vector<TransferId> free_;
};

}  // namespace contend
