#pragma once
// Ctrl-C (SIGINT), SIGTERM and SIGHUP end contend with one line on standard
// error saying so, and the signal's own exit status (128 + the signal: 130
// for Ctrl-C). No output file is left half-written: write_file_atomically
// (sim/core/file_io.hpp) holds these signals while its temporary file exists,
// so a file is complete or as it was.

namespace contend::cli {

// Installs the handlers; child processes (sim/engine/worker_pool.hpp) end
// quietly on the same signals, leaving the one line to this process.
void report_interruptions();

}  // namespace contend::cli
