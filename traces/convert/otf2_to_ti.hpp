#pragma once
// Writes an OTF2 archive as a SimGrid time-independent trace (index
// DIR/trace.txt, one DIR/rank-R.txt per rank), rank by rank, streaming: so
// that SimGrid's `smpirun -replay` (or contend) can replay it.
//   - computation gaps become `compute FLOPS` at `speed` flop/s (choose the
//     core speed of the platform it will be replayed on);
//   - the archive's communicators other than MPI_COMM_WORLD become
//     `comm_split 0 COLOR KEY` lines at the start of every rank's file (in
//     definition order; members colour 0 with their rank in it as key,
//     others -1), and the lines on them end with `comm=ID` (ID: that
//     order, from 1), as contend's tracer writes them;
//   - receive counts OTF2 does not record (v-collectives) become the rank's
//     total received bytes. SimGrid's replay may still report a truncation
//     where the equal split of a rank's alltoallv or scatterv sends exceeds
//     what a peer received in the real run; contend's replay accepts it.
#include <string>

namespace contend {

struct ConversionSummary {
  int ranks = 0;
  long long actions = 0;
};

ConversionSummary convert_otf2_to_ti(const std::string& anchor, const std::string& dir, double speed);

}  // namespace contend
