#include "select_support.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "engine/simulation.hpp"
#include "mapping/mapping.hpp"
#include "registry.hpp"
#include "util/error.hpp"
#include "workload/workload.hpp"

namespace contend::cli {
namespace {

// Open MPI's bcast ids (coll_tuned_bcast_algorithm): 1 linear, 2 chain
// (fanout K), 3 pipeline (chain of fanout 1), 4 split binary, 5 binary,
// 6 binomial; the models' names for them.
std::optional<taulop::BcastAlgorithm> modelled_as(int ompi_id, int fanout) {
  switch (ompi_id) {
    case 1: return taulop::BcastAlgorithm::Linear;
    case 2: return fanout == 1 ? taulop::BcastAlgorithm::Chain : taulop::BcastAlgorithm::KChain;
    case 3: return taulop::BcastAlgorithm::Chain;
    case 4: return taulop::BcastAlgorithm::SplitBinary;
    case 5: return taulop::BcastAlgorithm::Binary;
    case 6: return taulop::BcastAlgorithm::Binomial;
    default: return std::nullopt;
  }
}

int ompi_id_of(taulop::BcastAlgorithm a) {
  switch (a) {
    case taulop::BcastAlgorithm::Linear: return 1;
    case taulop::BcastAlgorithm::KChain: return 2;
    case taulop::BcastAlgorithm::Chain: return 3;
    case taulop::BcastAlgorithm::SplitBinary: return 4;
    case taulop::BcastAlgorithm::Binary: return 5;
    case taulop::BcastAlgorithm::Binomial: return 6;
  }
  return 0;
}

int ompi_id_of(const std::string& name) {
  const auto names = coll::algorithm_names(coll::CollectiveOp::bcast);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i) + 1;
  }
  return 0;
}

std::string size_text(std::uint64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{}K", bytes / 1024);
  return fmt::format("{}", bytes);
}

class BcastWorkload final : public Workload {
 public:
  BcastWorkload(int procs, coll::CollectiveCall call, coll::CollectiveSettings settings)
      : procs_(procs), call_(std::move(call)), settings_(std::move(settings)) {}
  int rank_count() const override { return procs_; }
  std::string description() const override { return fmt::format("bcast {} B", call_.bytes); }
  void run(Mpi& mpi) override {
    const coll::Communicator world = coll::world_communicator(mpi);
    coll::run_collective(mpi, world, call_, settings_);
  }

 private:
  int procs_;
  coll::CollectiveCall call_;
  coll::CollectiveSettings settings_;
};

coll::CollectiveCall bcast_call(std::uint64_t bytes) {
  coll::CollectiveCall call;
  call.op = coll::CollectiveOp::bcast;
  call.root = 0;
  call.bytes = bytes;
  call.element_bytes = 1;  // MPI_BYTE: count = bytes, as the paper's message sizes
  return call;
}

}  // namespace

OmpiDecision::OmpiDecision(const std::string& version, int kchain_fanout) : kchain_fanout_(kchain_fanout) {
  settings_.version = coll::parse_ompi_version(version);
}

std::string OmpiDecision::version() const { return std::string(coll::to_string(settings_.version)); }

OmpiChoice OmpiDecision::choose(int procs, std::uint64_t bytes) const {
  const coll::AlgorithmChoice c = coll::choose_algorithm(bcast_call(bytes), procs, settings_);
  OmpiChoice out;
  out.segment_bytes = c.segment_bytes;
  const auto modelled = modelled_as(ompi_id_of(c.algorithm), c.fanout);
  std::string name = c.algorithm;
  if (modelled) {
    name = std::string(taulop::bcast_algorithm_name(*modelled));
    for (std::size_t i = 0; i < taulop::kBcastAlgorithms.size(); ++i) {
      if (taulop::kBcastAlgorithms[i] == *modelled) out.modelled = i;
    }
  }
  out.csv_name = name;
  out.label = c.segment_bytes > 0 ? fmt::format("{} seg {}", name, size_text(c.segment_bytes)) : name;
  if (modelled && *modelled == taulop::BcastAlgorithm::KChain && c.fanout != kchain_fanout_) {
    out.label += fmt::format(" K={}", c.fanout);
  }
  return out;
}

coll::ForcedAlgorithm forced_bcast(taulop::BcastAlgorithm algorithm, std::uint64_t segment_bytes) {
  const auto names = coll::algorithm_names(coll::CollectiveOp::bcast);
  const auto id = static_cast<std::size_t>(ompi_id_of(algorithm));
  if (id == 0 || id > names.size()) throw Error("no Open MPI broadcast algorithm for this model");
  coll::ForcedAlgorithm forced;
  forced.algorithm = names[id - 1];
  // The linear tree is never segmented (Nuriyev Sec. 3); the others use m_s.
  forced.segment_bytes = algorithm == taulop::BcastAlgorithm::Linear ? 0 : segment_bytes;
  return forced;
}

AlgorithmSimulator::AlgorithmSimulator(const Platform& platform, std::string mapping, int procs, std::string model,
                                       const taulop::Parameters& parameters)
    : platform_(platform),
      mapping_(std::move(mapping)),
      procs_(procs),
      model_(std::move(model)),
      segment_bytes_(parameters.segment_size),
      kchain_fanout_(parameters.kchain_fanout) {
  all_models().get(model_);  // an unknown name fails now, with "did you mean"
}

double AlgorithmSimulator::run(taulop::BcastAlgorithm algorithm, std::uint64_t bytes) const {
  coll::CollectiveSettings settings;
  settings.forced[coll::CollectiveOp::bcast] = forced_bcast(algorithm, segment_bytes_);
  settings.chain_fanout = kchain_fanout_;
  std::fflush(nullptr);  // the child must not print the parent's buffered output again
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  const pid_t child = fork();
  if (child < 0) throw Error(std::string("cannot fork: ") + std::strerror(errno));
  if (child == 0) {
    close(fds[0]);
    // Whatever the simulation prints (SimGrid's log) goes nowhere: the parent prints the results.
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, STDOUT_FILENO);
    std::string reply;
    try {
      const Mapping mapping = make_mapping(mapping_, procs_, platform_.nodes, false);
      BcastWorkload workload(procs_, bcast_call(bytes), settings);
      SimulationOptions options;
      options.model = model_;
      options.mapping_name = mapping_;
      options.collectives = settings;
      reply = fmt::format("ok {:.17g}", simulate(platform_, mapping, workload, all_models(), options).makespan());
    } catch (const std::exception& e) {
      reply = std::string("error ") + e.what();
    }
    const ssize_t written = write(fds[1], reply.data(), reply.size());
    close(fds[1]);
    _exit(written == static_cast<ssize_t>(reply.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string reply;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) reply.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  const std::string what = fmt::format("simulating {} of {} B on {} ranks", taulop::bcast_algorithm_name(algorithm),
                                       bytes, procs_);
  if (reply.rfind("ok ", 0) == 0) return std::stod(reply.substr(3));
  if (reply.rfind("error ", 0) == 0) throw Error(what + ": " + reply.substr(6));
  throw Error(what + ": the simulation process ended without a result (status " + std::to_string(status) + ")");
}

}  // namespace contend::cli
