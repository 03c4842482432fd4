#include "sim/engine/engine_core.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace sg4 = simgrid::s4u;

namespace {
double now() { return sg4::Engine::get_clock(); }
// How long `seconds` of CPU overhead lasts for a rank alone on its core: the
// flops over the core's speed, the same double an execution would take (the
// sleep of cpu() and the post-ahead stamp of isend must agree bit for bit).
double alone_on_core(double seconds, double speed) { return seconds * speed / speed; }
}  // namespace

EngineCore::EngineCore(const Platform& platform, const Mapping& mapping, const SimgridPlatform& simgrid,
                       bool record_messages, Progress progress, AttributionRecorder* recorder)
    : platform_(platform),
      mapping_(mapping),
      progress_(progress),
      record_messages_(record_messages),
      recorder_(recorder) {
  if (progress == Progress::DedicatedCore) {
    // Denis et al. Sec. III-D: computation runs on N_core - 1 cores.
    const double n = platform.nodes.cores_per_node();
    if (n < 2) throw Error("dedicated-core progression needs at least two cores per node");
    compute_slowdown_ = n / (n - 1);
  }
  ranks_.resize(static_cast<std::size_t>(mapping.rank_count()));
  for (int r = 0; r < mapping.rank_count(); ++r) {
    auto& s = rank(r);
    s.rank = r;
    s.place = mapping[r];
    s.host = simgrid.core_host(s.place);
    s.core_speed = s.host->get_speed();
    s.wakeup = sg4::Semaphore::create(0);
  }
  std::unordered_map<const sg4::Host*, int> ranks_on_core;
  for (const auto& s : ranks_) ++ranks_on_core[s.host];
  for (auto& s : ranks_) s.core_shared = ranks_on_core[s.host] > 1;
}

void EngineCore::expect_messages(std::uint64_t messages) {
  // A hint: bounded by the messages a pattern may hold, so that a wrong one
  // cannot reserve absurd address space.
  const auto count = static_cast<std::size_t>(std::min(messages, limits::kMaxMessages));
  transfers_.reserve(count);
  if (record_messages_) messages_.reserve(count);
}

void EngineCore::check_peer(int me, int peer, const char* what) const {
  if (peer < 0 || peer >= rank_count()) {
    throw Error(fmt::format("rank {}: {} rank {} is out of range (the run has {} ranks, 0..{})", me, what, peer,
                            rank_count(), rank_count() - 1));
  }
}

// ---------------------------------------------------------------- posting

RequestId EngineCore::isend(int me, int dst, std::uint64_t bytes, int tag, int comm, DatatypeId datatype) {
  check_aborted();
  check_peer(me, dst, "send to");
  Effects fx;
  enter_mpi(me, fx);
  const Level level = mapping_.level(me, dst);
  const Transfer t{.message = next_message_++,
                   .src = me,
                   .dst = dst,
                   .tag = tag,
                   .comm = comm,
                   .bytes = bytes,
                   .level = level,
                   .eager = bytes < platform_.level(level).eager_threshold,
                   .datatype = datatype,
                   .post_time = local_time(me),
                   .post_order = timeline_ ? timeline_->next_order() : 0};
  auto& stats = level_stats_[static_cast<std::size_t>(level)];
  ++stats.messages;
  // A trace may hold any number of messages: its volume must not wrap.
  const auto volume = limits::checked_add(stats.bytes, bytes);
  if (!volume) {
    throw Error(fmt::format("rank {}: the {} volume of the run exceeds 2^64 - 1 bytes", me, level_name(level)));
  }
  stats.bytes = *volume;

  // The receive this send matches, looked up first: its request lies at
  // random in the receiver's table (a cache miss) and is fetched while the
  // send's own bookkeeping runs. Nothing between here and bind() calls
  // SimGrid or touches the receiver's queues.
  const MatchKey key{me, tag, comm};
  const auto recv = rank(dst).inbox.take_receive_for(key);
  if (recv) __builtin_prefetch(&rank(dst).requests[*recv]);

  // The call's CPU overhead keeps the rank inside MPI from now on: a
  // rendezvous answer that reaches it meanwhile is handled at once.
  const double overhead = model_->send_overhead(t);
  rank(me).paying_overhead = overhead > 0;
  const TransferId tid = transfers_.add(t);
  if (recorder_) {
    recorder_->posted(t);
    if (!t.eager) {
      recorder_->bound(t, t.post_time, "rendezvous", 0,
                       fmt::format("waiting for rank {} to post the matching receive", dst));
    }
  }

  Request q{.kind = Request::Kind::Send,
            .peer = dst,
            .tag = tag,
            .comm = comm,
            .bytes = bytes,
            .transfer = tid,
            .post_time = t.post_time};
  if (t.eager) {
    // Eager: the data leaves at once and the send completes locally.
    q.complete = true;
    q.complete_time = t.post_time;
  }
  const RequestId rid = rank(me).requests.add(q);
  if (t.eager) {
    start_transfer(tid, fx);
  } else {
    transfers_[tid].send_request = rid;
  }

  if (recv) {
    bind(tid, dst, *recv, me, fx);
  } else {
    rank(dst).inbox.add_unexpected(key, tid);
  }
  apply(fx);
  if (rank(me).posts_ahead) {
    // The next call starts when this overhead ends (cpu()'s sleep, the same
    // double); the rank sleeps it only before a call that depends on others.
    if (overhead > 0) rank(me).busy_until = t.post_time + alone_on_core(overhead, core_speed(me));
  } else {
    cpu(me, overhead);
  }
  return rid;
}

RequestId EngineCore::irecv(int me, int src, std::uint64_t bytes, int tag, int comm, DatatypeId datatype) {
  check_aborted();
  if (src != kAnySource) check_peer(me, src, "receive from");
  (void)datatype;  // the layout the receiver unpacks into is the sender's here
  catch_up(me);
  Effects fx;
  enter_mpi(me, fx);
  const Request q{
      .kind = Request::Kind::Recv, .peer = src, .tag = tag, .comm = comm, .bytes = bytes, .post_time = now()};
  const RequestId rid = rank(me).requests.add(q);
  const MatchKey pattern{src, tag, comm};
  if (auto tid = rank(me).inbox.take_unexpected_for(pattern)) {
    bind(*tid, me, rid, me, fx);
  } else {
    rank(me).inbox.post_receive(pattern, rid);
  }
  apply(fx);
  return rid;
}

// A send and a receive meet; `caller` is the rank whose MPI call matched them.
void EngineCore::bind(TransferId tid, int receiver_rank, RequestId recv, int caller, Effects& fx) {
  auto& t = transfers_[tid];
  auto& receiver = rank(receiver_rank);
  auto& q = receiver.requests[recv];
  if (q.bytes < t.bytes) {
    abort_all(fmt::format("message truncated: rank {} receives {} bytes from rank {} (tag {}) into a {}-byte receive",
                          receiver_rank, t.bytes, t.src, t.tag, q.bytes));
    throw SimulationAborted{};
  }
  t.matched = true;
  t.recv_request = recv;
  q.transfer = tid;
  if (t.state == Transfer::State::Delivered) {
    // The eager data arrived before the receive was posted: it is copied out now.
    complete_receive(receiver, recv, now(), fx);
    transfers_.release(tid);
    return;
  }
  if (!t.eager && t.state == Transfer::State::Posted) {
    // Rendezvous: data moves once both sides have posted, and, without a
    // progress thread, once each has handled the handshake in an MPI call.
    on_matched(rank(t.src), t.send_request, fx);
    if (progress_ == Progress::None) {
      const bool receiver_sees = caller == receiver_rank || progresses(receiver);
      if (receiver_sees) {
        receiver_saw_request(tid, caller, fx);
      } else {
        transfers_[tid].handshake = Transfer::Handshake::NeedsReceiver;
        receiver.handshakes.push_back(tid);
        if (recorder_) {
          recorder_->bound(t, now(), "rendezvous", 0,
                           fmt::format("the request to send waits for rank {} to enter MPI", receiver_rank));
        }
      }
    } else {
      start_transfer(tid, fx);
    }
  }
  on_matched(receiver, recv, fx);
}

// The receiver has answered the request to send. The sender handles the
// answer when it is inside MPI: now if it waits in an MPI call (or has
// finished: MPI_Finalize progresses), else at its next MPI call; never
// during the call that sent the request, which has returned by the time the
// answer comes back.
void EngineCore::receiver_saw_request(TransferId tid, int caller, Effects& fx) {
  auto& t = transfers_[tid];
  auto& sender = rank(t.src);
  // The call that sent the request has returned by the time the answer
  // comes back, unless it is still paying its CPU overhead.
  if ((caller != t.src || sender.paying_overhead) && progresses(sender)) {
    t.handshake = Transfer::Handshake::None;
    start_transfer(tid, fx);
  } else {
    t.handshake = Transfer::Handshake::NeedsSender;
    sender.handshakes.push_back(tid);
    if (recorder_) {
      recorder_->bound(t, now(), "rendezvous", 0,
                       fmt::format("the clear to send waits for rank {} to enter MPI", t.src));
    }
  }
}

// Rank `me` enters an MPI call: it handles the handshakes waiting for it.
void EngineCore::enter_mpi(int me, Effects& fx) {
  auto& r = rank(me);
  if (r.handshakes.empty()) return;
  std::vector<TransferId> pending;
  pending.swap(r.handshakes);
  for (TransferId tid : pending) {
    auto& t = transfers_[tid];
    if (t.handshake == Transfer::Handshake::NeedsReceiver && t.dst == me) {
      receiver_saw_request(tid, me, fx);
    } else if (t.handshake == Transfer::Handshake::NeedsSender && t.src == me) {
      t.handshake = Transfer::Handshake::None;
      start_transfer(tid, fx);
    }
  }
}

void EngineCore::start_transfer(TransferId tid, Effects& fx) {
  auto& t = transfers_[tid];
  t.state = Transfer::State::Moving;
  t.start = std::max(now(), t.post_time);  // a send posted ahead starts at its post
  fx.starts.push_back(tid);
  if (!t.eager) {
    // Transport buffering (docs/mpi-semantics.md): Open MPI's TCP BTL writes
    // a rendezvous message's fragments into the socket once the handshake is
    // done; the send completes when the last one is written. A message the
    // buffer holds whole is written at once; a larger one when only the
    // buffer's worth remains undelivered, an instant of the model's progress.
    const std::uint64_t buffer = platform_.level(t.level).transport_buffer;
    if (buffer >= t.bytes && buffer > 0) {
      complete_send(tid, t.start, fx);
    } else {
      t.release_remaining = buffer;
    }
  }
  if (!model_->delivers_by_itself()) {
    // Ranks that await SimGrid activities themselves must wake up to do so.
    for (int r : {t.src, t.dst}) {
      auto& state = rank(r);
      if (state.sleeping) {
        state.sleeping = false;
        fx.wakes.push_back(r);
      }
    }
  }
}

void EngineCore::apply(const Effects& fx) {
  for (TransferId tid : fx.starts) model_->start(tid);
  for (int r : fx.wakes) ranks_[static_cast<std::size_t>(r)].wakeup->release();
}

// ---------------------------------------------------------------- completion

void EngineCore::complete_receive(RankState& receiver, RequestId recv, double when, Effects& fx) {
  auto& q = receiver.requests[recv];
  q.complete = true;
  q.complete_time = when;
  const Transfer& t = transfers_[q.transfer];
  q.cpu_due = model_->receive_overhead(t);
  if (timeline_) {
    timeline_->add_message(TimelineMessage{.src = t.src,
                                           .dst = t.dst,
                                           .bytes = t.bytes,
                                           .level = t.level,
                                           .eager = t.eager,
                                           .post = t.post_time,
                                           .post_order = t.post_order,
                                           .start = t.start,
                                           .arrived = t.end,
                                           .received = when,
                                           .receive_order = timeline_->next_order()});
  }
  receiver.recv_time = std::max(receiver.recv_time, when);
  on_completed(receiver, recv, fx);
}

void EngineCore::deliver(TransferId tid, double end_time) {
  auto& t = transfers_[tid];
  if (t.state == Transfer::State::Delivered) return;
  // The receiver's state is a cache miss of its own (deliveries come in
  // time order, not rank order): fetched while the sender's is handled.
  if (t.matched) __builtin_prefetch(&rank(t.dst));
  Effects fx;
  ++delivered_;
  t.state = Transfer::State::Delivered;
  t.end = end_time;
  // Rendezvous: the sender completes when its message is delivered, unless
  // the transport buffer released it before.
  if (!t.sender_released) complete_send(tid, end_time, fx);
  if (record_messages_) {
    messages_.push_back(MessageRecord{t.src, t.dst, t.bytes, t.level, t.start, t.end, t.message});
  }
  if (recorder_) recorder_->delivered(t, end_time, model_->contention_free_time(t));
  if (t.matched) {
    complete_receive(rank(t.dst), t.recv_request, end_time, fx);
    transfers_.release(tid);
  }
  apply(fx);
}

void EngineCore::release_sender(TransferId tid, double time) {
  if (transfers_[tid].sender_released) return;
  Effects fx;
  complete_send(tid, time, fx);
  apply(fx);
}

void EngineCore::complete_send(TransferId tid, double time, Effects& fx) {
  auto& t = transfers_[tid];
  t.sender_released = t.state != Transfer::State::Delivered;
  auto& sender = rank(t.src);
  sender.send_time = std::max(sender.send_time, time);
  if (t.send_request == kNoId) return;  // eager: complete since its post
  auto& q = sender.requests[t.send_request];
  q.complete = true;
  q.complete_time = time;
  on_completed(sender, std::exchange(t.send_request, kNoId), fx);
}

// ---------------------------------------------------------------- waiting

bool EngineCore::matched(const Request& q) const { return q.transfer != kNoId && transfers_[q.transfer].matched; }

void EngineCore::waitall(int me, const std::vector<RequestId>& ids) {
  catch_up(me);
  {
    auto& r = rank(me);
    r.wait_incomplete = 0;
    r.wait_unmatched = 0;
    for (RequestId id : ids) {
      if (!r.requests.valid(id)) throw Error(fmt::format("rank {}: wait on unknown request {}", me, id));
      Request& q = r.requests[id];
      if (q.complete) continue;
      q.in_wait = true;
      ++r.wait_incomplete;
      if (!matched(q)) ++r.wait_unmatched;
    }
    r.wait_set.assign(ids.begin(), ids.end());
    // Inside MPI until its requests complete, also while it awaits a SimGrid
    // activity or is woken but not running yet: handshakes reaching it
    // meanwhile are answered at once, as for a rank asleep in the wait.
    r.awaiting = r.wait_incomplete > 0 && !model_->delivers_by_itself();
  }
  {
    // Counted inside MPI first: starting a SimGrid communication lets other
    // ranks run, whose handshakes must not queue behind this call.
    Effects fx;
    enter_mpi(me, fx);
    apply(fx);
  }
  // Since when the rank is blocked (a Waiting span of its timeline).
  double blocked_since = -1;
  std::uint64_t blocked_order = 0;
  while (rank(me).wait_incomplete > 0) {
    check_aborted();
    if (blocked_since < 0) {
      blocked_since = now();
      if (timeline_) blocked_order = timeline_->next_order();
    }
    if (!model_->delivers_by_itself()) {
      // SimGrid activities are delivered when awaited: await each matched one.
      TransferId pending = kNoId;
      for (RequestId id : ids) {
        const Request& q = rank(me).requests[id];
        if (!q.complete && q.transfer != kNoId && transfers_[q.transfer].state == Transfer::State::Moving) {
          pending = q.transfer;
          break;
        }
      }
      if (pending != kNoId) {
        model_->await(pending);  // yields: no reference kept across it
        continue;
      }
    }
    auto& r = rank(me);
    if (r.wait_unmatched == r.wait_incomplete && !r.blocked_for_match) {
      // Only another rank posting something can help: count it for deadlocks
      // (once: a rank woken for another reason may come back here).
      r.blocked_for_match = true;
      ++blocked_;
      check_deadlock();
      check_aborted();
    }
    sleep_until_woken(r);
  }
  double overhead = 0;
  {
    auto& r = rank(me);
    r.awaiting = false;
    for (RequestId id : ids) {
      auto& q = r.requests[id];
      q.in_wait = false;
      overhead += q.cpu_due;
      q.cpu_due = 0;
      r.requests.release(id);
    }
    r.wait_set.clear();
  }
  if (timeline_ && blocked_since >= 0) {
    timeline_->add_span(me, RankActivity::Waiting, Timeline::kWaiting, blocked_since, blocked_order, now());
  }
  pay_receive_overhead(me, overhead);
}

// The receiving CPU handles the messages that completed (LogGOPS o_r + O_r k):
// their receives complete once it is done.
void EngineCore::pay_receive_overhead(int me, double seconds) {
  if (seconds <= 0) return;
  cpu(me, seconds);
  rank(me).recv_time = std::max(rank(me).recv_time, now());
}

// The rank's core is busy for `seconds` of MPI work (shared with whatever
// else runs on the core). Only ranks run on cores, and a rank computes or
// pays overheads one at a time, so on a core of its own the work runs at the
// core's full speed: a sleep of exactly the time an execution would take
// (flops / speed, SimGrid's own arithmetic, so the same double). A sleep is
// far cheaper in SimGrid: an execution joins the CPU model's sharing system
// and, when it ends, disconnects a callback from a global host-state signal
// (a search in a map holding one entry per running execution: perf's top
// symbol, ExecImpl::post, with 8192 ranks). Ranks sharing a core
// (--oversubscribe) share its speed: an execution.
void EngineCore::cpu(int me, double seconds) {
  if (seconds <= 0) {
    rank(me).paying_overhead = false;
    return;
  }
  rank(me).paying_overhead = true;
  if (rank(me).core_shared) {
    sg4::this_actor::execute(seconds * core_speed(me));
  } else {
    sg4::this_actor::sleep_for(alone_on_core(seconds, core_speed(me)));
  }
  rank(me).paying_overhead = false;
}

double EngineCore::core_speed(int me) const { return ranks_[static_cast<std::size_t>(me)].core_speed; }

// Posting ahead. A rank alone on its core whose sends no other rank can
// observe before their post instants (see allow_posting_ahead) need not
// sleep each send's CPU overhead: it posts the next send at once, stamped
// with the instant the overhead ends, and the model starts its data then.
// Which receive a send matches cannot change (MPI matches in each sender's
// order, and no receive takes any source), nor when: an eager message's
// data moves from its post, a rendezvous one's from max(post, receive). The
// rank sleeps what it owes before any other call (catch_up): one SimGrid
// sleep per run of sends instead of one per send.
void EngineCore::allow_posting_ahead(bool exact_sources) {
  const bool allowed = exact_sources && model_->accepts_early_starts() && model_->delivers_by_itself() &&
                       progress_ != Progress::None && recorder_ == nullptr && !timeline_;
  for (auto& r : ranks_) r.posts_ahead = allowed && !r.core_shared;
}

double EngineCore::local_time(int me) const { return std::max(now(), ranks_[static_cast<std::size_t>(me)].busy_until); }

void EngineCore::catch_up(int me) {
  if (!(rank(me).busy_until > now())) return;
  rank(me).paying_overhead = true;
  sg4::this_actor::sleep_until(rank(me).busy_until);
  rank(me).paying_overhead = false;
}

bool EngineCore::test(int me, RequestId id) {
  if (!rank(me).requests.valid(id)) throw Error(fmt::format("rank {}: test on unknown request {}", me, id));
  check_aborted();
  catch_up(me);
  {
    Effects fx;
    enter_mpi(me, fx);
    apply(fx);
  }
  const Request q = rank(me).requests[id];
  if (!q.complete && q.transfer != kNoId && transfers_[q.transfer].state == Transfer::State::Moving) {
    model_->poll(q.transfer);
  }
  if (!rank(me).requests[id].complete) return false;
  const double overhead = rank(me).requests[id].cpu_due;
  rank(me).requests.release(id);
  pay_receive_overhead(me, overhead);
  return true;
}

void EngineCore::sleep_until_woken(RankState& r) {
  r.sleeping = true;  // whoever clears it releases the semaphore once
  r.wakeup->acquire();
}

// A request of `r` found its partner.
void EngineCore::on_matched(RankState& r, RequestId id, Effects& /*fx*/) {
  if (id == kNoId || !r.requests[id].in_wait) return;
  --r.wait_unmatched;
  if (r.blocked_for_match) {
    r.blocked_for_match = false;
    --blocked_;
  }
}

// A request of `r` completed.
void EngineCore::on_completed(RankState& r, RequestId id, Effects& fx) {
  if (id == kNoId || !r.requests[id].in_wait) return;
  if (r.wait_incomplete == 1) r.awaiting = false;  // its wait is over
  if (--r.wait_incomplete == 0 && r.sleeping) {
    r.sleeping = false;
    fx.wakes.push_back(r.rank);
  }
}

void EngineCore::compute(int me, double flops) {
  check_aborted();
  if (!(flops >= 0) || !std::isfinite(flops)) throw Error(fmt::format("rank {}: invalid compute amount {}", me, flops));
  catch_up(me);
  if (flops > 0) sg4::this_actor::execute(flops * compute_slowdown_);
}

void EngineCore::sleep(int me, double seconds) {
  check_aborted();
  if (!(seconds >= 0) || !std::isfinite(seconds)) {
    throw Error(fmt::format("rank {}: invalid sleep duration {}", me, seconds));
  }
  catch_up(me);
  if (seconds > 0) sg4::this_actor::sleep_for(seconds);
}

// ---------------------------------------------------------------- lifecycle

void EngineCore::rank_finished(int me) {
  catch_up(me);
  auto& r = rank(me);
  r.finished = true;
  r.finish_time = now();
  ++finished_;
  // MPI_Finalize progresses what is left of the rank's handshakes.
  Effects fx;
  enter_mpi(me, fx);
  apply(fx);
  check_deadlock();
}

void EngineCore::rank_failed(int me, const std::string& message) {
  auto& r = rank(me);
  r.finished = true;
  r.finish_time = now();
  ++finished_;
  abort_all(message);
}

void EngineCore::abort_all(const std::string& message) {
  if (!failure_) failure_ = message;
  Effects fx;
  for (auto& r : ranks_) {
    if (r.sleeping) {
      r.sleeping = false;
      fx.wakes.push_back(r.rank);
    }
  }
  apply(fx);
}

std::string EngineCore::describe_wait(const RankState& r) const {
  // The first request of the wait set that nothing matches.
  const Request* q = nullptr;
  for (RequestId id : r.wait_set) {
    const Request& candidate = r.requests[id];
    if (!candidate.complete && !matched(candidate)) {
      q = &candidate;
      break;
    }
  }
  const std::string where =
      fmt::format("rank {} (node {} socket {} core {})", r.rank, r.place.node, r.place.socket, r.place.core);
  if (q == nullptr) return where + " waits";
  std::string more;
  if (r.wait_unmatched > 1) more = fmt::format(" (and {} more unmatched requests)", r.wait_unmatched - 1);
  if (q->kind == Request::Kind::Recv) {
    const std::string from = q->peer == kAnySource ? "any source" : fmt::format("rank {}", q->peer);
    const std::string tag = q->tag == kAnyTag ? "any tag" : fmt::format("tag {}", q->tag);
    return fmt::format("{} waits for a receive from {} ({}, comm {}, {} B, posted at {:.9g} s) that no send matches{}",
                       where, from, tag, q->comm, q->bytes, q->post_time, more);
  }
  return fmt::format(
      "{} waits for its rendezvous send to rank {} (tag {}, comm {}, {} B, posted at {:.9g} s) "
      "that no receive matches{}",
      where, q->peer, q->tag, q->comm, q->bytes, q->post_time, more);
}

void EngineCore::check_deadlock() {
  if (failure_ || blocked_ == 0 || blocked_ + finished_ != rank_count()) return;
  // Every unfinished rank waits for a message that only another rank could
  // post, and every other rank has finished: nothing can ever change.
  std::vector<std::string> lines;
  for (const auto& r : ranks_) {
    if (r.blocked_for_match) lines.push_back(describe_wait(r));
  }
  constexpr std::size_t kShown = 20;
  std::string report =
      fmt::format("deadlock at t = {:.9g} s: {} of {} ranks can never progress", now(), lines.size(), rank_count());
  for (std::size_t i = 0; i < lines.size() && i < kShown; ++i) report += "\n  " + lines[i];
  if (lines.size() > kShown) report += fmt::format("\n  ... and {} more", lines.size() - kShown);
  abort_all(report);
}

std::string EngineCore::unfinished_report() const {
  std::string out;
  int shown = 0;
  for (const auto& r : ranks_) {
    if (r.finished) continue;
    if (shown++ == 20) {
      out += "\n  ...";
      break;
    }
    out += "\n  " +
           (r.wait_set.empty() ? fmt::format("rank {} is not waiting on a request", r.rank) : describe_wait(r)) +
           fmt::format(" [{} incomplete, {} unmatched]", r.wait_incomplete, r.wait_unmatched);
  }
  return out;
}

// ---------------------------------------------------------------- results

Timeline EngineCore::take_timeline() {
  Timeline t = timeline_ ? std::move(*timeline_) : Timeline{};
  t.sort();
  return t;
}

Results EngineCore::collect_results() {
  Results out;
  out.levels = level_stats_;
  out.messages = std::move(messages_);  // millions of records: not copied
  messages_.clear();
  if (recorder_) {
    out.attributed = true;
    out.attribution = recorder_->take_delivered();
  }
  // Completion order; ties (common: equal flows finish together) by sender,
  // receiver and start, so that the file does not depend on event order.
  std::sort(out.messages.begin(), out.messages.end(), [](const MessageRecord& a, const MessageRecord& b) {
    return std::tie(a.end, a.src, a.dst, a.start) < std::tie(b.end, b.src, b.dst, b.start);
  });
  for (const auto& r : ranks_) {
    out.ranks.push_back(RankResult{r.rank, r.place, r.recv_time, r.send_time, r.finish_time});
    out.calls.push_back(r.calls);
    for (const auto& [key, tid] : r.inbox.pending_unexpected()) {
      out.warnings.push_back(fmt::format("rank {} never received a {}-byte message from rank {} (tag {})", r.rank,
                                         transfers_[tid].bytes, key.source, key.tag));
    }
    for (RequestId id : r.inbox.pending_receives()) {
      out.warnings.push_back(fmt::format("rank {} posted a receive from rank {} (tag {}) that nothing matched", r.rank,
                                         r.requests[id].peer, r.requests[id].tag));
    }
  }
  constexpr std::size_t kMaxWarnings = 20;
  if (out.warnings.size() > kMaxWarnings) {
    const auto extra = out.warnings.size() - kMaxWarnings;
    out.warnings.resize(kMaxWarnings);
    out.warnings.push_back(fmt::format("... and {} more unmatched messages", extra));
  }
  return out;
}

}  // namespace contend
