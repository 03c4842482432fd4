#pragma once
// One case of a sweep run by the `contend` executable in a child process
// (`contend sweep SWEEP --run-case K`): contend-sweep-mpi links no SimGrid,
// so every rank runs its cases this way, and the rows are those of `contend
// sweep` by construction.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>

namespace contend::sweep_mpi {

class CaseProcess {
 public:
  // Starts `contend sweep SWEEP --run-case K`; its standard output comes back
  // through a pipe, its standard error is this process's.
  CaseProcess(const std::string& contend, const std::string& sweep, std::size_t index);
  CaseProcess(const CaseProcess&) = delete;
  CaseProcess& operator=(const CaseProcess&) = delete;
  ~CaseProcess();

  std::size_t index() const { return index_; }
  // Reads what the child wrote, waiting at most `wait_ms`; true once it has
  // ended (then outcome() is ready).
  bool poll(int wait_ms);
  // The case's outcome line (sweep_rows.hpp), or a failed outcome saying how
  // the child ended when it printed none.
  std::string outcome() const;

 private:
  std::size_t index_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string out_;
  int status_ = 0;
  bool ended_ = false;
  std::chrono::steady_clock::time_point began_;
  double wall_ = 0;
  std::string command_;
};

// The `contend` beside this program (build/bin/, or the installed bin/).
std::string contend_beside_this_program();

}  // namespace contend::sweep_mpi
