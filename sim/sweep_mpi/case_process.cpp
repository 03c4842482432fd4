#include "sim/sweep_mpi/case_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/sweep_rows.hpp"

extern char** environ;

namespace contend::sweep_mpi {

CaseProcess::CaseProcess(const std::string& contend, const std::string& sweep, std::size_t index)
    : index_(index), began_(std::chrono::steady_clock::now()) {
  const std::string case_number = std::to_string(index);
  command_ = "contend sweep --run-case " + case_number;
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::vector<std::string> words = {contend, "sweep", sweep, "--run-case", case_number};
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  const int failed = posix_spawn(&pid_, contend.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (failed != 0) {
    close(fds[0]);
    throw Error("cannot run '" + contend + "': " + std::strerror(failed));
  }
  fd_ = fds[0];
}

CaseProcess::~CaseProcess() {
  if (fd_ >= 0) close(fd_);
  if (!ended_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

bool CaseProcess::poll(int wait_ms) {
  if (ended_) return true;
  pollfd p{fd_, POLLIN, 0};
  const int ready = ::poll(&p, 1, wait_ms);
  if (ready <= 0) return false;
  char buffer[4096];
  const ssize_t n = read(fd_, buffer, sizeof buffer);
  if (n < 0 && errno == EINTR) return false;
  if (n > 0) {
    out_.append(buffer, static_cast<std::size_t>(n));
    return false;
  }
  // End of file: the child has closed its standard output, and ends.
  close(fd_);
  fd_ = -1;
  while (waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
  }
  ended_ = true;
  wall_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
  return true;
}

std::string CaseProcess::outcome() const {
  std::string line = out_;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (WIFEXITED(status_) && WEXITSTATUS(status_) == 0 && !line.empty() && line.find('\n') == std::string::npos) {
    try {
      check_outcome(line, command_);
      return line;
    } catch (const Error& e) {
      return failed_outcome(e.what(), wall_);
    }
  }
  const std::string how = WIFSIGNALED(status_) ? fmt::format("was killed by signal {}", WTERMSIG(status_))
                                               : fmt::format("exited with status {}", WEXITSTATUS(status_));
  return failed_outcome(command_ + " " + how + " (its standard error says why)", wall_);
}

std::string contend_beside_this_program() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find this program's folder (/proc/self/exe): " + ec.message());
  return (exe.parent_path() / "contend").string();
}

}  // namespace contend::sweep_mpi
