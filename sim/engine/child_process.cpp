#include "sim/engine/child_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sim/core/error.hpp"

namespace contend {
namespace {

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(1);
    done += static_cast<std::size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  while (true) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace

std::string run_in_child_process(const std::function<std::string()>& job) {
  std::fflush(nullptr);  // the child must not print the parent's buffered output again
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    throw Error(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    close(fds[0]);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, STDOUT_FILENO);
    std::string reply;
    try {
      reply = "ok " + job();
    } catch (const std::exception& e) {
      reply = std::string("error ") + e.what();
    }
    write_all(fds[1], reply);
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  const std::string reply = read_all(fds[0]);
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (reply.rfind("ok ", 0) == 0) return reply.substr(3);
  if (reply.rfind("error ", 0) == 0) throw Error(reply.substr(6));
  const std::string how = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                              : "status " + std::to_string(WEXITSTATUS(status));
  throw Error("the simulation process ended without a result (" + how + ")");
}

}  // namespace contend
