#include "models/dedicated_core/denis_model.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/core/error.hpp"

namespace contend {

DedicatedCoreTerms denis_dedicated(const ProgressProfile& p, int cores, double alpha) {
  if (cores < 2) throw Error(fmt::format("--cores: a dedicated core needs at least 2 cores per rank, got {}", cores));
  if (!(alpha >= 0 && alpha <= 1)) throw Error(fmt::format("--alpha: expected a ratio in [0, 1], got {}", alpha));
  const double n = cores;
  DedicatedCoreTerms t;
  // Sec. III-B2: computation on N_core - 1 cores.
  t.t_newcomp = p.t_comp * n / (n - 1);
  t.t_overhead = t.t_newcomp - p.t_comp;
  // Sec. III-C2a: nonblocking calls cost their minimum time.
  t.nonblocking = static_cast<double>(p.n_nonblocking) * p.t_min_nonblocking;
  t.tests = static_cast<double>(p.n_test) * p.t_min_test;
  t.waits = static_cast<double>(p.n_wait) * p.t_min_wait;
  // Sec. III-C2b with Sec. IV's approximation t_MPIblockprogress = 0:
  // t_MPIblockingcom = t_MPIblocking / N_blocking per call.
  const double nb = static_cast<double>(p.n_blocking);
  t.blocking_com = p.n_blocking > 0 ? p.t_blocking / nb : 0;
  t.transformed = alpha * nb * (p.t_min_nonblocking + p.t_min_wait);
  // (1 - alpha) N_blocking t_MPIblockingcom, written so that it does not
  // need N_blocking when alpha = 0 (Table I gives none for Kripke).
  t.kept_blocking = (1 - alpha) * p.t_blocking;
  // Sec. III-C2c: other calls unchanged.
  t.other = p.t_other;
  t.t_mpi_dedicated = t.nonblocking + t.tests + t.waits + t.transformed + t.kept_blocking + t.other;
  // Sec. III-D.
  t.t_dedicated = t.t_newcomp + t.t_mpi_dedicated;
  t.t_mpi = p.mpi_time();
  t.mpi_gain = t.t_mpi - t.t_mpi_dedicated;
  t.speedup = t.t_dedicated > 0 ? p.t_noprogress / t.t_dedicated : 0;
  return t;
}

DedicatedCoreVerdict denis_verdict(const std::vector<ProgressProfile>& ranks, int cores, double alpha) {
  DedicatedCoreVerdict v;
  v.t_dedicated = -1;
  for (const auto& p : ranks) {
    const auto t = denis_dedicated(p, cores, alpha);
    v.t_noprogress = std::max(v.t_noprogress, p.t_noprogress);
    if (t.t_dedicated > v.t_dedicated) {
      v.t_dedicated = t.t_dedicated;
      v.slowest_rank = p.rank;
    }
  }
  v.speedup = v.t_dedicated > 0 ? v.t_noprogress / v.t_dedicated : 0;
  return v;
}

}  // namespace contend
