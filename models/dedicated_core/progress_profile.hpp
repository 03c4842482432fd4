#pragma once
// Per-rank profiles of a run without progression, the input of Denis et
// al.'s dedicated-core model (CCGRID 2022, Sec. III-D and IV). CSV format in
// models/dedicated_core/README.md; the PMPI tracer writes it.
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/results.hpp"

namespace contend {

struct ProgressProfile {
  int rank = 0;
  double t_noprogress = 0;  // the rank's run time without progression
  double t_comp = 0;        // its time outside MPI
  long long n_nonblocking = 0;
  double t_min_nonblocking = 0;  // t_minMPInonblock
  long long n_test = 0;
  double t_min_test = 0;
  long long n_wait = 0;
  double t_min_wait = 0;
  long long n_blocking = 0;
  double t_blocking = 0;        // t_MPIblocking, total
  double t_other = 0;           // t_MPIother, total
  std::optional<double> t_mpi;  // t_MPI if measured; else t_noprogress - t_comp
  double mpi_time() const { return t_mpi.value_or(t_noprogress - t_comp); }
};

// Reads the CSV; errors name file:line:col and the column.
std::vector<ProgressProfile> read_progress_profile(std::istream& in, const std::string& name);
std::vector<ProgressProfile> read_progress_profile(const std::string& path);
const std::vector<std::string>& progress_profile_columns();  // the required ones, in the documented order
// Writes every column, t_mpi included.
void write_progress_profile(std::ostream& out, const std::vector<ProgressProfile>& rows);
// The profile of a simulated run, as a PMPI profiler would record it (the
// MPI time is what the ranks spent in calls; t_noprogress their finish time).
std::vector<ProgressProfile> profile_of(const Results& results);

}  // namespace contend
