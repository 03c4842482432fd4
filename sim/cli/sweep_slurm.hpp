#pragma once
// A sweep over a Slurm job array (docs/sweeps.md, "On Slurm"): the batch
// script whose array tasks each run one shard, and joining the shards.
#include <string>

#include "sim/core/sweep_spec.hpp"

namespace contend::cli {

// Writes DIR/sweep.sbatch (array tasks 1..shards, each `contend sweep SWEEP
// --shard $SLURM_ARRAY_TASK_ID/shards --output DIR/shard-K-of-N.csv`) and
// DIR/sweep.json (the sweep file and the shard count, for --merge).
void write_slurm_array(const std::string& sweep_file, const SweepSpec& spec, std::size_t shards, int jobs,
                       const std::string& dir);

// Joins DIR's shards into `output`, rows in case order. Throws when a shard
// is missing, belongs to another sweep or lacks some of its cases (naming
// the array tasks to run again).
void merge_shards(const std::string& dir, const std::string& output, bool quiet);

std::string shard_file(const std::string& dir, std::size_t k, std::size_t n);

}  // namespace contend::cli
