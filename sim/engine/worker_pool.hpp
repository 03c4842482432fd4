#pragma once
// Runs jobs in child processes, at most N at a time. SimGrid allows one
// engine per process, so a command that needs several simulations (an
// algorithm each in `select --simulate`, a mapping each in a mapping search,
// a case each in a sweep) runs every one in a child of its own: the child
// inherits the parent's inputs (fork), runs one job and sends its answer back
// through a pipe.
//  - A job returns its answer as a string, or throws; whatever the child
//    prints on standard output goes to /dev/null (SimGrid may log there).
//  - Answers come back in job order, whatever the order of completion (the
//    same jobs give the same results with any number of workers); on_done is
//    called as jobs complete, in completion order (progress, streaming).
//  - A job that throws, or a child that dies without answering (killed,
//    crashed), is a failed job that says why; the other jobs go on. A job
//    refused by one of contend's limits (LimitError) says so (`limit`), so
//    the command exits with status 3 as it would in-process.
//  - With a deadline, the children still running when it passes are killed
//    and the jobs not started by then are not started: their results are
//    `cut` (a budget is a hard limit, not a wish).
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace contend {

struct JobResult {
  bool ok = false;
  std::string answer;  // the job's answer when ok, else why it failed
  bool cut = false;    // killed, or never started, at the pool's deadline
  bool limit = false;  // failed on one of contend's limits (the job threw LimitError)
  double wall_seconds = 0;
};

class WorkerPool {
 public:
  using Deadline = std::chrono::steady_clock::time_point;
  explicit WorkerPool(int workers, std::optional<Deadline> deadline = std::nullopt);
  int workers() const { return workers_; }

  using Job = std::function<std::string(std::size_t index)>;
  using OnDone = std::function<void(std::size_t index, const JobResult& result)>;
  // Runs job(0) .. job(count - 1).
  std::vector<JobResult> run(std::size_t count, const Job& job, const OnDone& on_done = {}) const;

 private:
  int workers_;
  std::optional<Deadline> deadline_;
};

// A failed job's error, `context: why`: LimitError when a limit refused it
// (exit status 3), contend::Error otherwise.
[[noreturn]] void throw_job_failure(const JobResult& failed, const std::string& context);

// One job in one child: its answer, or the job's error (throw_job_failure,
// without context).
std::string run_in_child_process(const std::function<std::string()>& job);

}  // namespace contend
