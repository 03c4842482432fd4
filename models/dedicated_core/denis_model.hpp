#pragma once
// Denis, Jaeger, Jeannot, Reynier, "One core dedicated to MPI nonblocking
// communication progression? A model to assess whether it is worth it",
// CCGRID 2022: the dedicated-core model of Sec. III-B2, III-C and III-D, the
// run time of a rank with one core of N_core dedicated to progression, from a
// profile of its run without progression, when a ratio alpha of its blocking
// calls are made nonblocking. See models/dedicated_core/README.md.
#include <vector>

#include "models/dedicated_core/progress_profile.hpp"

namespace contend {

struct DedicatedCoreTerms {
  double t_newcomp = 0;      // t_comp N_core / (N_core - 1)               (III-B2)
  double t_overhead = 0;     // t_newcomp - t_comp = t_comp / (N_core - 1)
  double nonblocking = 0;    // N_nonblocking t_minMPInonblock             (III-C2a)
  double tests = 0;          // N_test t_minMPItest
  double waits = 0;          // N_wait t_minMPIwait
  double blocking_com = 0;   // t_MPIblockingcom = t_MPIblocking / N_blocking (Sec. IV: t_MPIblockprogress = 0)
  double transformed = 0;    // alpha N_blocking (t_minMPInonblock + t_minMPIwait)  (III-C2b)
  double kept_blocking = 0;  // (1 - alpha) N_blocking t_MPIblockingcom
  double other = 0;          // t_MPIother                                 (III-C2c)
  double t_mpi_dedicated = 0;
  double t_dedicated = 0;  // t_newcomp + t_MPIdedicated                 (III-D)
  double t_mpi = 0;        // measured (or t_noprogress - t_comp)
  double mpi_gain = 0;     // t_MPI - t_MPIdedicated: what the dedicated core saves in MPI
  double speedup = 0;      // t_noprogress / t_dedicated
};

// Throws contend::Error if cores < 2 or alpha is outside [0, 1].
DedicatedCoreTerms denis_dedicated(const ProgressProfile& profile, int cores, double alpha);

// The application ends with its slowest rank: max over ranks.
struct DedicatedCoreVerdict {
  double t_noprogress = 0, t_dedicated = 0, speedup = 0;
  int slowest_rank = 0;  // the rank with the largest t_dedicated
  bool pays_off() const { return t_dedicated < t_noprogress; }
};
DedicatedCoreVerdict denis_verdict(const std::vector<ProgressProfile>& ranks, int cores, double alpha);

}  // namespace contend
