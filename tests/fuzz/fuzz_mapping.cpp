// Mapping files ('rank node socket core' lines), on 4 ranks of 2 nodes x 2
// sockets x 2 cores. The reader takes a path: the input goes through a file.
#include <unistd.h>

#include <fstream>

#include "sim/core/mapping.hpp"
#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  static const std::string path = "/tmp/contend-fuzz-mapping-" + std::to_string(getpid()) + ".map";
  return fuzz::run(data, size, [](const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    NodeArchitecture nodes;
    nodes.count = 2;
    nodes.sockets = 2;
    nodes.cores_per_socket = 2;
    nodes.core_speed = 1e9;
    (void)read_mapping_file(path, 4, nodes, false);
  });
}
