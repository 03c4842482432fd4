#pragma once
// The loop of a daemon actor that holds an s4u::Mutex (the network actors of
// the fluid models, maxmin's, simgrid-lmm's starter).
#include <mutex>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <stdexcept>

namespace contend {

// Runs `loop` (which never returns) holding `lock`. A daemon is killed when
// the last rank ends; it then leaves without unlocking, since unlocking is a
// simcall and a dying actor must make none: on SimGrid's thread contexts
// (the sanitizer build) that simcall waits for a maestro that is joining the
// actor's thread, a deadlock.
template <typename Loop>
[[noreturn]] void run_daemon_loop(std::unique_lock<simgrid::s4u::Mutex>& lock, Loop&& loop) {
  try {
    loop();
  } catch (const simgrid::ForcefulKillException&) {
    lock.release();
    throw;
  }
  throw std::logic_error("a daemon loop returned");
}

}  // namespace contend
