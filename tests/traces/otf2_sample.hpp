#pragma once
// Writes small OTF2 archives of MPI programs with the OTF2 writer API, the
// way Score-P records MPI (regions named MPI_*, MpiSend/MpiRecv inside them,
// request events, MpiCollectiveEnd with Score-P's byte counts, a
// COMM_LOCATIONS group and COMM_GROUP communicators). Used by the OTF2
// replay tests: Score-P itself is not packaged in Debian.
#include <otf2/otf2.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace contend::test {

class Otf2SampleWriter {
 public:
  // `ranks` locations; communicator 0 is MPI_COMM_WORLD, `subgroups` adds
  // communicators 1, 2, ... of those world ranks.
  Otf2SampleWriter(const std::string& dir, int ranks, const std::vector<std::vector<std::uint64_t>>& subgroups = {})
      : ranks_(ranks), subgroups_(subgroups) {
    std::filesystem::remove_all(dir);
    archive_ = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive_) throw std::runtime_error("cannot create the OTF2 archive in " + dir);
    static OTF2_FlushCallbacks flush{
        [](void*, OTF2_FileType, OTF2_LocationRef, void*, bool) -> OTF2_FlushType { return OTF2_FLUSH; }, nullptr};
    OTF2_Archive_SetFlushCallbacks(archive_, &flush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive_);
    OTF2_Archive_OpenEvtFiles(archive_);
    for (int r = 0; r < ranks; ++r)
      writers_.push_back(OTF2_Archive_GetEvtWriter(archive_, static_cast<OTF2_LocationRef>(r)));
    clocks_.assign(static_cast<std::size_t>(ranks), 0);
  }

  // Events of rank r at its clock (ns); each call advances it by `duration`.
  void region(int r, const std::string& name, std::uint64_t duration,
              const std::function<void(OTF2_EvtWriter*, std::uint64_t)>& inside = {}) {
    const auto id = region_id(name);
    auto& t = clocks_[static_cast<std::size_t>(r)];
    OTF2_EvtWriter_Enter(w(r), nullptr, t, id);
    if (inside) inside(w(r), t + duration / 2);
    t += duration;
    OTF2_EvtWriter_Leave(w(r), nullptr, t, id);
  }
  void compute(int r, std::uint64_t ns) { clocks_[static_cast<std::size_t>(r)] += ns; }
  OTF2_EvtWriter* w(int r) { return writers_[static_cast<std::size_t>(r)]; }
  std::uint64_t clock(int r) const { return clocks_[static_cast<std::size_t>(r)]; }

  void close() {
    std::uint64_t end = 0;
    for (int r = 0; r < ranks_; ++r) {
      end = std::max(end, clock(r));
      OTF2_Archive_CloseEvtWriter(archive_, w(r));
    }
    OTF2_Archive_CloseEvtFiles(archive_);
    OTF2_Archive_OpenDefFiles(archive_);
    for (int r = 0; r < ranks_; ++r) {
      OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, static_cast<OTF2_LocationRef>(r)));
    }
    OTF2_Archive_CloseDefFiles(archive_);
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive_);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, end, OTF2_UNDEFINED_TIMESTAMP);
    std::uint32_t next_string = 0;
    auto string = [&](const std::string& s) {
      OTF2_GlobalDefWriter_WriteString(g, next_string, s.c_str());
      return next_string++;
    };
    const auto empty = string("");
    for (const auto& [name, id] : regions_) {
      const auto n = string(name);
      const bool mpi = name.starts_with("MPI_");
      OTF2_GlobalDefWriter_WriteRegion(g, id, n, n, empty, OTF2_REGION_ROLE_FUNCTION,
                                       mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, empty, 0,
                                       0);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, string("machine"), string("node"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    std::vector<std::uint64_t> locations, world;
    for (int r = 0; r < ranks_; ++r) {
      const auto name = string("rank " + std::to_string(r));
      OTF2_GlobalDefWriter_WriteLocationGroup(g, static_cast<OTF2_LocationGroupRef>(r), name,
                                              OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
      OTF2_GlobalDefWriter_WriteLocation(g, static_cast<OTF2_LocationRef>(r), name, OTF2_LOCATION_TYPE_CPU_THREAD, 0,
                                         static_cast<OTF2_LocationGroupRef>(r));
      locations.push_back(static_cast<std::uint64_t>(r));
      world.push_back(static_cast<std::uint64_t>(r));
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, string("locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(ranks_), locations.data());
    OTF2_GlobalDefWriter_WriteGroup(g, 1, string("world"), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(ranks_), world.data());
    OTF2_GlobalDefWriter_WriteComm(g, 0, string("MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    for (std::size_t i = 0; i < subgroups_.size(); ++i) {
      const auto group = static_cast<OTF2_GroupRef>(2 + i);
      OTF2_GlobalDefWriter_WriteGroup(g, group, string("sub"), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                      OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(subgroups_[i].size()),
                                      subgroups_[i].data());
      OTF2_GlobalDefWriter_WriteComm(g, static_cast<OTF2_CommRef>(1 + i), string("sub"), group, 0, OTF2_COMM_FLAG_NONE);
    }
    OTF2_Archive_Close(archive_);
  }

 private:
  OTF2_RegionRef region_id(const std::string& name) {
    auto [it, added] = regions_.try_emplace(name, static_cast<OTF2_RegionRef>(regions_.size()));
    return it->second;
  }

  int ranks_;
  std::vector<std::vector<std::uint64_t>> subgroups_;
  OTF2_Archive* archive_ = nullptr;
  std::vector<OTF2_EvtWriter*> writers_;
  std::vector<std::uint64_t> clocks_;
  std::map<std::string, OTF2_RegionRef> regions_;
};

}  // namespace contend::test
