#include "sim/engine/worker_pool.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace contend {
namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  std::size_t index = 0;
  pid_t pid = -1;
  int fd = -1;  // the read end of the child's pipe
  std::string reply;
  Clock::time_point began;
};

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// In the child: run the job, answer "ok ANSWER", "limit MESSAGE" (a
// LimitError) or "error MESSAGE", exit.
[[noreturn]] void run_child(const WorkerPool::Job& job, std::size_t index, int fd) {
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) dup2(null, STDOUT_FILENO);
  std::string reply;
  try {
    reply = "ok " + job(index);
  } catch (const LimitError& e) {
    reply = std::string("limit ") + e.what();
  } catch (const std::exception& e) {
    reply = std::string("error ") + e.what();
  } catch (...) {
    reply = "error the job failed with an unknown exception";
  }
  write_all(fd, reply);
  close(fd);
  _exit(0);
}

Child spawn(const WorkerPool::Job& job, std::size_t index) {
  std::fflush(nullptr);  // the child must not print the parent's buffered output again
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw Error(std::string("cannot start a child process: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(job, index, fds[1]);
  }
  close(fds[1]);
  return Child{index, pid, fds[0], {}, Clock::now()};
}

// The child closed its pipe: collect its exit and turn its reply into a result.
JobResult reap(Child& child) {
  close(child.fd);
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  JobResult r;
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - child.began).count();
  if (child.reply.rfind("ok ", 0) == 0) {
    r.ok = true;
    r.answer = child.reply.substr(3);
  } else if (child.reply.rfind("limit ", 0) == 0) {
    r.limit = true;
    r.answer = child.reply.substr(6);
  } else if (child.reply.rfind("error ", 0) == 0) {
    r.answer = child.reply.substr(6);
  } else {
    r.answer = "the simulation process ended without a result (" +
               (WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                    : "status " + std::to_string(WEXITSTATUS(status))) +
               ")";
  }
  return r;
}

// Reads what the children have written; returns the position of one whose
// pipe reached its end, or running.size() if none yet (after waiting, at most
// until the deadline, for one to have something to read).
std::size_t read_until_one_ends(std::vector<Child>& running, const std::optional<Clock::time_point>& deadline) {
  std::vector<pollfd> fds;
  for (const auto& c : running) fds.push_back(pollfd{c.fd, POLLIN, 0});
  int timeout_ms = -1;
  if (deadline) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
    timeout_ms = static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
  }
  while (poll(fds.data(), fds.size(), timeout_ms) < 0) {
    if (errno != EINTR) throw Error(std::string("cannot wait for child processes: ") + std::strerror(errno));
  }
  for (std::size_t i = 0; i < running.size(); ++i) {
    if (fds[i].revents == 0) continue;
    char buffer[4096];
    const ssize_t n = read(running[i].fd, buffer, sizeof buffer);
    if (n > 0) {
      running[i].reply.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return i;
    }
  }
  return running.size();
}

JobResult cut_result() {
  JobResult r;
  r.cut = true;
  r.answer = "stopped at the deadline";
  return r;
}

// The deadline passed: the running children are killed, their results cut.
void kill_at_deadline(std::vector<Child>& running, std::vector<JobResult>& results) {
  for (auto& child : running) {
    kill(child.pid, SIGKILL);
    close(child.fd);
    while (waitpid(child.pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    results[child.index] = cut_result();
    results[child.index].wall_seconds = std::chrono::duration<double>(Clock::now() - child.began).count();
  }
  running.clear();
}

}  // namespace

WorkerPool::WorkerPool(int workers, std::optional<Deadline> deadline) : workers_(workers), deadline_(deadline) {
  if (workers < 1) throw Error("the number of workers must be at least 1, got " + std::to_string(workers));
}

std::vector<JobResult> WorkerPool::run(std::size_t count, const Job& job, const OnDone& on_done) const {
  std::vector<JobResult> results(count);
  std::vector<Child> running;
  std::size_t next = 0;
  while (next < count || !running.empty()) {
    if (deadline_ && Clock::now() >= *deadline_) {
      kill_at_deadline(running, results);
      for (; next < count; ++next) results[next] = cut_result();
      break;
    }
    while (next < count && running.size() < static_cast<std::size_t>(workers_)) running.push_back(spawn(job, next++));
    const std::size_t ended = read_until_one_ends(running, deadline_);
    if (ended == running.size()) continue;
    Child child = std::move(running[ended]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(ended));
    results[child.index] = reap(child);
    if (on_done) on_done(child.index, results[child.index]);
  }
  return results;
}

void throw_job_failure(const JobResult& failed, const std::string& context) {
  const std::string message = context.empty() ? failed.answer : context + ": " + failed.answer;
  if (failed.limit) throw LimitError(message);
  throw Error(message);
}

std::string run_in_child_process(const std::function<std::string()>& job) {
  const auto results = WorkerPool(1).run(1, [&job](std::size_t) { return job(); });
  if (!results[0].ok) throw_job_failure(results[0], "");
  return results[0].answer;
}

}  // namespace contend
