#include "sim/cli/interruption.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <initializer_list>

namespace contend::cli {
namespace {

// The process that reports; set once, before any handler can run. A signal
// handler can reach nothing but globals.
pid_t reporting_process = 0;

extern "C" void on_interruption(int signal) {
  if (::getpid() == reporting_process) {
    const char* line =
        signal == SIGINT    ? "contend: interrupted (SIGINT); output files not yet written were left as they were\n"
        : signal == SIGTERM ? "contend: terminated (SIGTERM); output files not yet written were left as they were\n"
                            : "contend: hung up (SIGHUP); output files not yet written were left as they were\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, line, std::strlen(line));
  }
  // Die of the signal itself, so that the caller sees how the run ended.
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

}  // namespace

void report_interruptions() {
  reporting_process = ::getpid();
  struct sigaction action {};
  action.sa_handler = on_interruption;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

}  // namespace contend::cli
