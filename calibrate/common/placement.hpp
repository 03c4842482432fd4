#pragma once
// Where the ranks of a calibration run actually are (host name and CPU
// package, read with hwloc), and whether that matches the level the run is
// meant to measure. Thune et al. define N per socket (intra/inter-socket) or
// per node (inter-node): ranks 0..P/2-1 form one side, P/2..P-1 the other.
#include <optional>
#include <string>
#include <vector>

namespace contend::calibrate {

struct RankPlace {
  std::string host;
  int package = -1;  // -1: the rank may run on several packages (not bound to one)
};

// This process's place (hwloc: the packages its CPU binding intersects).
RankPlace this_process_place();

// All ranks' places, gathered on every rank (collective over MPI_COMM_WORLD).
std::vector<RankPlace> gather_places(const RankPlace& mine);

// The requested level ("intra_socket", "inter_socket", "inter_node") checked
// against the places; nothing if they agree, otherwise why not.
std::optional<std::string> check_level(const std::string& level, const std::vector<RankPlace>& places);

}  // namespace contend::calibrate
