#pragma once
// What contend's MPI programs (calibrate/, validation/testbed/) share.
//
// A common start instant for every rank of an MPI job on one machine, where
// all ranks read one clock (CLOCK_MONOTONIC of one kernel: the emulated
// cluster's namespaces). Removes the skew of barrier exits, milliseconds when
// many ranks share few cores. On a real cluster use barriers instead.
#include <functional>
#include <string>
#include <vector>

namespace contend::mpi_support {

// CLOCK_MONOTONIC in seconds.
double monotonic_now();
void sleep_until(double when);

// True on every rank when all ranks of MPI_COMM_WORLD share one kernel (same
// boot_id), i.e. one clock. Collective.
bool on_one_machine();

// Collective: rank 0 picks now + margin and broadcasts it; every rank sleeps
// until then and returns it. A rank that wakes late (CPU busy) starts late.
double common_start(double margin);

// A barrier that sleeps (50 us between polls) instead of spinning: ranks
// waiting for others leave the processors to the transfers being measured
// (several ranks may share a core). Collective.
void sleeping_barrier();

// This process's host name (on the emulated cluster: its node's).
std::string this_host();

// Every rank's string (at most 63 characters kept), on every rank. Collective.
std::vector<std::string> allgather_strings(const std::string& mine);

// The body of an MPI program's main: MPI_Init, `body(rank, size)`, MPI_Finalize;
// returns the exit status. A contend::Error is an input error that every rank
// meets at the same place (same files, same options): rank 0 prints it as
// "PROGRAM: error: ..." and every rank returns 1. Any other exception may
// strike one rank alone, which would leave the others waiting forever: it is
// printed with the rank and the job is aborted.
int run_mpi_main(int& argc, char**& argv, const char* program, const std::function<int(int rank, int size)>& body);

}  // namespace contend::mpi_support
