// OTF2 archives: one file of a small valid archive (the 4-rank archive of
// tests/data/otf2/sample4, copied to a temporary folder) replaced by the
// input, then the definitions and every rank's events read and converted as
// `contend simulate --trace` does (the events checked first, then
// converted). libotf2 takes paths, so the input goes
// through a file; the first byte picks which: the anchor, the global
// definitions, or a rank's event or local definition file.
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "sim/core/asan_build.hpp"
#if CONTEND_ASAN_BUILD
#include <sanitizer/lsan_interface.h>
#define CONTEND_FUZZ_LSAN 1
#endif

#include "tests/fuzz/fuzz_target.hpp"
#include "traces/formats/otf2_trace.hpp"

namespace {

namespace fs = std::filesystem;

constexpr std::array<const char*, 10> kArchiveFiles = {
    "traces.otf2",  "traces.def",   "traces/0.evt", "traces/1.evt", "traces/2.evt",
    "traces/3.evt", "traces/0.def", "traces/1.def", "traces/2.def", "traces/3.def",
};

constexpr std::size_t kAnchor = 0;  // kArchiveFiles[kAnchor]

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A private copy of the archive, removed at exit; each input changes one of
// its files and puts the original back afterwards.
class ScratchArchive {
 public:
  ScratchArchive() : dir_(fs::temp_directory_path() / ("contend-fuzz-otf2-" + std::to_string(getpid()))) {
    fs::remove_all(dir_);
    fs::copy(CONTEND_OTF2_FUZZ_ARCHIVE, dir_, fs::copy_options::recursive);
    for (std::size_t i = 0; i < kArchiveFiles.size(); ++i) originals_[i] = read_bytes(dir_ / kArchiveFiles[i]);
  }
  ~ScratchArchive() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  ScratchArchive(const ScratchArchive&) = delete;
  ScratchArchive& operator=(const ScratchArchive&) = delete;

  std::string anchor() const { return (dir_ / "traces.otf2").string(); }
  void replace(std::size_t file, const std::string& bytes) const { write_bytes(dir_ / kArchiveFiles[file], bytes); }
  void restore(std::size_t file) const { write_bytes(dir_ / kArchiveFiles[file], originals_[file]); }

 private:
  fs::path dir_;
  std::array<std::string, kArchiveFiles.size()> originals_;
};

void read_archive(const std::string& anchor) {
  using namespace contend;
  const Otf2Definitions defs = read_otf2_definitions(anchor);
  check_otf2_events(defs);
  for (int rank = 0; rank < defs.ranks(); ++rank) {
    Otf2RankReader reader(defs, rank);
    while (auto action = reader.next()) (void)format_ti_action(*action);
  }
}

}  // namespace

#ifdef CONTEND_FUZZ_LSAN
// A broken anchor file can make libotf2 ask for tens of GiB at once (a
// count read from the file); refused, the allocation returns null, which
// libotf2 reports as an error (without ASan, Linux hands out the untouched
// memory and libotf2 fails further on: `contend` stays at ~40 MB).
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ScratchArchive archive;
  if (size == 0) return 0;
  const std::size_t file = data[0] % kArchiveFiles.size();
  archive.replace(file, std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  contend::fuzz::run(data + 1, size - 1, [&](const std::string&) {
#ifdef CONTEND_FUZZ_LSAN
    // libotf2 (Debian's 3.0) leaks inside OTF2_Reader_Open on some broken
    // anchor files, whether the open then fails (no reader is returned to
    // close) or not: leak checking is off for anchor inputs, where only
    // libotf2 reads the bytes. Every other input still finds a leak of
    // contend's, such as a reader left open on an error path.
    std::optional<__lsan::ScopedDisabler> libotf2_leaks;
    if (file == kAnchor) libotf2_leaks.emplace();
#endif
    read_archive(archive.anchor());
  });
  archive.restore(file);
  return 0;
}
