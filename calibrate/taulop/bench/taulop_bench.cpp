// The experiments of Nuriyev et al. (JPDC 2022) Sec. 5, for contend fit-taulop.
//
// --experiment nbft (Sec. 5.1): for each P of --procs, ranks 0..P-1 run a
// non-blocking flat tree broadcast (NBFT) of one segment m_s: the root posts
// MPI_Isend to every other rank and waits for all; the others post MPI_Irecv
// and wait. One sample is theta(P, N) / N, the root's time for N = --calls
// successive NBFTs separated by barriers ("N successive calls of the NBFT
// separated by barriers"; the barriers are inside theta as in the paper).
// --channel 0 measures shared memory (every rank on the root's node), 1 the
// network (every other rank on another node than the root; on one host,
// --network-loopback accepts Open MPI's TCP BTL over loopback instead).
//
// --experiment bcast_gather (Sec. 5.2, Sec. 6.1): for each P and message size
// m, one sample is, on the root: barrier; start; MPI_Bcast(m) by the algorithm
// that mpirun forced; barrier; flat gather without synchronisation of m_s
// bytes (every rank MPI_Send to the root, which MPI_Recv's them in rank order);
// stop. The forced algorithm, segment size and chain fanout are read back
// from Open MPI (MPI_T) and the run stops if they are not what --algorithm
// and --segment say.
//
// Output (rank 0, written atomically), one row per sample, time in seconds:
//   experiment,channel,algorithm,ompi_algorithm,segment,fanout,P,nodes,size,calls,sample,time_s
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "calibrate/common/command_line.hpp"
#include "calibrate/common/mpi_support.hpp"
#include "calibrate/taulop/bench/tuned_forcing.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"

namespace {

using contend::Error;
using contend::calibrate::component_allowed;
using contend::calibrate::read_int_cvar;
using contend::calibrate::read_string_cvar;
using contend::mpi_support::monotonic_now;

constexpr int kTag = 4242;

// The paper's names for Open MPI's coll_tuned_bcast_algorithm ids (see
// calibrate/taulop/fit/bcast_stages.hpp).
const std::map<std::string, int> kAlgorithms = {{"linear", 1},       {"kchain", 2}, {"chain", 3},
                                                {"split_binary", 4}, {"binary", 5}, {"binomial", 6}};

struct Options {
  std::string experiment;
  int channel = 0;
  bool network_loopback = false;
  std::string procs;
  std::string segment = "8KiB";
  std::string min_size = "16KiB", max_size = "4MiB";
  std::string algorithm;
  int calls = 100;
  int samples = 10;
  int warmup = 2;
  std::string output;
};

std::uint64_t parse_size_option(const std::string& text, const char* name) {
  const auto v = contend::units::parse_size(text);
  if (!v || *v == 0)
    throw Error(std::string(name) + ": expected " + std::string(contend::units::kSizeHelp) + ", got '" + text + "'");
  if (*v > (1ULL << 30)) throw Error(std::string(name) + ": at most 1 GiB");
  return *v;
}

// "2,3,4", "2-8" or a mix; every P in 2..world.
std::vector<int> parse_procs(const std::string& text, int world, int fallback_first) {
  std::vector<int> out;
  if (text.empty()) {
    for (int p = fallback_first; p <= world; ++p) out.push_back(p);
    return out;
  }
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    int first = 0, last = 0;
    char dash = 0;
    std::istringstream range(item);
    range >> first;
    if (range >> dash) {
      if (dash != '-' || !(range >> last))
        throw Error("--procs: expected numbers and ranges such as 2,3,4 or 2-8, got '" + text + "'");
    } else {
      last = first;
    }
    if (first < 2 || last > world || first > last) {
      throw Error("--procs: '" + item + "' is outside 2.." + std::to_string(world) + " (the ranks mpirun started)");
    }
    for (int p = first; p <= last; ++p) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> node_indices(const std::vector<std::string>& hosts) {
  std::vector<std::string> seen;
  std::vector<int> nodes;
  for (const auto& h : hosts) {
    auto it = std::find(seen.begin(), seen.end(), h);
    if (it == seen.end()) it = seen.insert(seen.end(), h);
    nodes.push_back(static_cast<int>(it - seen.begin()));
  }
  return nodes;
}

std::string nodes_field(const std::vector<int>& nodes, int procs) {
  std::string out;
  for (int r = 0; r < procs; ++r) out += (r ? ":" : "") + std::to_string(nodes[static_cast<std::size_t>(r)]);
  return out;
}

// The first `procs` ranks of the world; MPI_COMM_NULL on the others.
MPI_Comm first_ranks(int procs, int rank) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank < procs ? 0 : MPI_UNDEFINED, rank, &comm);
  return comm;
}

void nbft_once(MPI_Comm comm, int rank, int procs, std::vector<char>& buffer, std::uint64_t segment) {
  const int count = static_cast<int>(segment);
  if (rank == 0) {
    std::vector<MPI_Request> requests(static_cast<std::size_t>(procs - 1));
    for (int child = 1; child < procs; ++child) {
      MPI_Isend(buffer.data(), count, MPI_BYTE, child, kTag, comm, &requests[static_cast<std::size_t>(child - 1)]);
    }
    MPI_Waitall(procs - 1, requests.data(), MPI_STATUSES_IGNORE);
  } else {
    MPI_Request request;
    MPI_Irecv(buffer.data(), count, MPI_BYTE, 0, kTag, comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
}

// theta(P, N) / N on the root.
double nbft_sample(MPI_Comm comm, int rank, int procs, int calls, std::vector<char>& buffer, std::uint64_t segment) {
  MPI_Barrier(comm);
  const double start = monotonic_now();
  for (int i = 0; i < calls; ++i) {
    nbft_once(comm, rank, procs, buffer, segment);
    MPI_Barrier(comm);
  }
  return (monotonic_now() - start) / calls;
}

double bcast_gather_sample(MPI_Comm comm, int rank, int procs, std::uint64_t size, std::uint64_t segment,
                           std::vector<char>& message, std::vector<char>& gathered) {
  const int count = static_cast<int>(segment);
  MPI_Barrier(comm);
  const double start = monotonic_now();
  MPI_Bcast(message.data(), static_cast<int>(size), MPI_BYTE, 0, comm);
  MPI_Barrier(comm);
  if (rank == 0) {
    for (int r = 1; r < procs; ++r) {
      MPI_Recv(gathered.data() + static_cast<std::size_t>(r) * segment, count, MPI_BYTE, r, kTag, comm,
               MPI_STATUS_IGNORE);
    }
  } else {
    MPI_Send(message.data(), count, MPI_BYTE, 0, kTag, comm);
  }
  return monotonic_now() - start;
}

// Refuses placements and transports that would not measure the named channel.
void check_channel(const Options& o, const std::vector<int>& nodes, int largest) {
  const auto btl = read_string_cvar("btl").value_or("");
  const bool one_host = std::all_of(nodes.begin(), nodes.begin() + largest, [&](int n) { return n == nodes[0]; });
  if (o.channel == 0) {
    if (!one_host)
      throw Error("refusing to measure: channel 0 (shared memory) needs ranks 0.." + std::to_string(largest - 1) +
                  " on one node");
    if (!component_allowed(btl, "vader"))
      throw Error("refusing to measure: channel 0 (shared memory) but the btl list '" + btl + "' excludes vader");
    return;
  }
  if (o.network_loopback) {
    if (component_allowed(btl, "vader") || !component_allowed(btl, "tcp")) {
      throw Error(
          "refusing to measure: --network-loopback needs Open MPI's TCP BTL without shared memory (--mca btl "
          "tcp,self), got btl '" +
          btl + "'");
    }
    return;
  }
  for (int r = 1; r < largest; ++r) {
    if (nodes[static_cast<std::size_t>(r)] == nodes[0]) {
      throw Error("refusing to measure: channel 1 (network) needs every rank but the root on another node, rank " +
                  std::to_string(r) +
                  " shares the root's node (on one host, --network-loopback with --mca btl tcp,self)");
    }
  }
}

struct Forced {
  int algorithm = 0;
  int fanout = 0;
};

// What Open MPI's tuned component was told; an error if it is not --algorithm / --segment.
Forced check_forcing(const Options& o, std::uint64_t segment) {
  const auto wanted = kAlgorithms.find(o.algorithm);
  if (wanted == kAlgorithms.end()) {
    throw Error("--algorithm: expected linear, chain, kchain, split_binary, binary or binomial, got '" + o.algorithm +
                "'");
  }
  const auto dynamic = read_int_cvar("coll_tuned_use_dynamic_rules");
  const auto algorithm = read_int_cvar("coll_tuned_bcast_algorithm");
  const auto segsize = read_int_cvar("coll_tuned_bcast_algorithm_segmentsize");
  const auto fanout = read_int_cvar("coll_tuned_bcast_algorithm_chain_fanout");
  if (!dynamic || !algorithm || !segsize || !fanout) {
    throw Error("cannot read Open MPI's coll_tuned_* variables (MPI_T): is this Open MPI with the tuned component?");
  }
  const std::string forcing = "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm " +
                              std::to_string(wanted->second) + " --mca coll_tuned_bcast_algorithm_segmentsize " +
                              std::to_string(segment);
  if (*dynamic == 0 || *algorithm != wanted->second || static_cast<std::uint64_t>(*segsize) != segment) {
    throw Error("refusing to measure: Open MPI runs bcast algorithm " + std::to_string(*algorithm) +
                " with segments of " + std::to_string(*segsize) + " bytes (dynamic rules " + (*dynamic ? "on" : "off") +
                "), not " + o.algorithm + " (" + std::to_string(wanted->second) + ") with " + std::to_string(segment) +
                "; give mpirun " + forcing);
  }
  return Forced{wanted->second, static_cast<int>(*fanout)};
}

std::vector<std::uint64_t> size_series(const Options& o, std::uint64_t segment) {
  const auto first = parse_size_option(o.min_size, "--min-size"), last = parse_size_option(o.max_size, "--max-size");
  if (last < first) throw Error("--max-size is smaller than --min-size");
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = first; s <= last; s *= 2) {
    if (s % segment != 0)
      throw Error("message size " + std::to_string(s) + " is not a multiple of the segment (" +
                  std::to_string(segment) + ")");
    sizes.push_back(s);
  }
  return sizes;
}

std::string row(const std::string& experiment, const std::string& channel, const std::string& algorithm,
                int ompi_algorithm, std::uint64_t segment, int fanout, int procs, const std::string& nodes,
                std::uint64_t size, int calls, int sample, double time) {
  char line[512];
  std::snprintf(line, sizeof line, "%s,%s,%s,%s,%llu,%s,%d,%s,%llu,%d,%d,%.9g", experiment.c_str(), channel.c_str(),
                algorithm.c_str(), ompi_algorithm ? std::to_string(ompi_algorithm).c_str() : "",
                static_cast<unsigned long long>(segment), fanout ? std::to_string(fanout).c_str() : "", procs,
                nodes.c_str(), static_cast<unsigned long long>(size), calls, sample, time);
  return line;
}

int run(const Options& o) {
  int rank = 0, world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if (world < 2) throw Error("needs at least 2 ranks");
  if (o.calls < 1 || o.samples < 1 || o.warmup < 0)
    throw Error("--calls and --samples must be at least 1, --warmup at least 0");
  const std::uint64_t segment = parse_size_option(o.segment, "--segment");
  const auto hosts = contend::mpi_support::allgather_strings(contend::mpi_support::this_host());
  const auto nodes = node_indices(hosts);
  const bool nbft = o.experiment == "nbft";
  if (!nbft && o.experiment != "bcast_gather")
    throw Error("--experiment: expected nbft or bcast_gather, got '" + o.experiment + "'");
  const auto procs_list = parse_procs(o.procs, world, nbft ? 2 : world);
  if (nbft && o.channel != 0 && o.channel != 1) throw Error("--channel: expected 0 (shared memory) or 1 (network)");
  if (nbft) check_channel(o, nodes, procs_list.back());
  const Forced forced = nbft ? Forced{} : check_forcing(o, segment);
  const auto sizes = nbft ? std::vector<std::uint64_t>{segment} : size_series(o, segment);

  std::vector<char> message(sizes.back(), static_cast<char>(rank)), gathered(static_cast<std::size_t>(world) * segment);
  std::vector<std::string> rows;
  for (const int procs : procs_list) {
    MPI_Comm comm = first_ranks(procs, rank);
    if (comm != MPI_COMM_NULL) {
      const std::string where = nodes_field(nodes, procs);
      for (const auto size : sizes) {
        for (int w = 0; w < o.warmup; ++w) {
          if (nbft)
            nbft_sample(comm, rank, procs, o.calls, message, segment);
          else
            bcast_gather_sample(comm, rank, procs, size, segment, message, gathered);
        }
        for (int s = 0; s < o.samples; ++s) {
          const double t = nbft ? nbft_sample(comm, rank, procs, o.calls, message, segment)
                                : bcast_gather_sample(comm, rank, procs, size, segment, message, gathered);
          if (rank != 0) continue;
          rows.push_back(
              nbft ? row("nbft", std::to_string(o.channel), "", 0, segment, 0, procs, where, size, o.calls, s, t)
                   : row("bcast_gather", "", o.algorithm, forced.algorithm, segment, forced.fanout, procs, where, size,
                         1, s, t));
        }
        if (rank == 0) {
          std::fprintf(stderr, "taulop_bench: %s P=%d size=%llu: %s\n",
                       nbft ? ("nbft channel " + std::to_string(o.channel)).c_str() : o.algorithm.c_str(), procs,
                       static_cast<unsigned long long>(size), rows.back().substr(rows.back().rfind(',') + 1).c_str());
        }
      }
      MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    std::string library(version, static_cast<std::size_t>(length));
    library = library.substr(0, library.find_first_of(",\n"));
    contend::write_file_atomically(o.output, [&](std::ostream& out) {
      out << "# Nuriyev et al. JPDC 2022 Sec. 5, contend calibrate/taulop: " << o.experiment
          << (nbft ? " (NBFT of one segment, time per call incl. its barrier)"
                   : " (bcast + barrier + flat gather of one segment)")
          << "\n";
      out << "# " << library << "; btl '" << read_string_cvar("btl").value_or("") << "'"
          << (nbft && o.channel == 1 && o.network_loopback ? "; network channel = TCP loopback on one host" : "")
          << "\n";
      out << "# hosts:";
      for (std::size_t r = 0; r < hosts.size(); ++r) out << ' ' << r << '@' << hosts[r];
      out << "\nexperiment,channel,algorithm,ompi_algorithm,segment,fanout,P,nodes,size,calls,sample,time_s\n";
      for (const auto& r : rows) out << r << '\n';
    });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Nuriyev et al. (JPDC 2022) Sec. 5 experiments: raw timings for contend fit-taulop", "taulop_bench"};
  app.add_option("--experiment", o.experiment, "nbft (gamma, Q) | bcast_gather (per-algorithm o, L)")->required();
  app.add_option("--channel", o.channel, "nbft: 0 shared memory, 1 network")->capture_default_str();
  app.add_flag("--network-loopback", o.network_loopback,
               "nbft channel 1 on one host through Open MPI's TCP BTL (tests, not a network)");
  app.add_option("--procs", o.procs, "P values, e.g. 2-8 or 4,8 (default: nbft 2..ranks, bcast_gather all ranks)");
  app.add_option("--segment", o.segment, "Segment size m_s (as forced with coll_tuned_bcast_algorithm_segmentsize)")
      ->capture_default_str();
  app.add_option("--min-size", o.min_size, "bcast_gather: first message size")->capture_default_str();
  app.add_option("--max-size", o.max_size, "bcast_gather: last message size (sizes double)")->capture_default_str();
  app.add_option("--algorithm", o.algorithm,
                 "bcast_gather: the algorithm mpirun forced (linear, chain, kchain, split_binary, binary, binomial)");
  app.add_option("--calls", o.calls, "nbft: NBFTs per sample (N)")->capture_default_str();
  app.add_option("--samples", o.samples, "Samples per (P, size)")->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed samples per (P, size)")->capture_default_str();
  app.add_option("-o,--output", o.output, "Raw CSV to write (rank 0)")->required();
  if (const auto status = contend::mpi_support::parse_command_line(app, argc, argv)) return *status;
  MPI_Init(&argc, &argv);
  int rank = 0, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    if (!o.experiment.empty() && o.experiment != "nbft" && o.algorithm.empty())
      throw Error("--algorithm is required with --experiment bcast_gather");
    status = run(o);
  } catch (const std::exception& e) {
    if (rank == 0) std::cerr << "taulop_bench: error: " << e.what() << "\n";
    status = 1;
  }
  if (status != 0) {
    // The checks fail on every rank alike: let rank 0 print before anyone aborts the job.
    if (rank != 0) contend::mpi_support::sleep_until(monotonic_now() + 2);
    MPI_Abort(MPI_COMM_WORLD, status);
  }
  MPI_Finalize();
  return status;
}
