#pragma once
// A sweep file (SWEEP.yaml, docs/sweeps.md) read into the list of its cases:
// each case is what one `contend simulate` runs. Plain data, no SimGrid: the
// MPI driver (contend-sweep-mpi) reads it too.
//
//   platform: ../platforms/epyc-rome-2node.yaml   # one value: every case
//   pattern: [halo.pattern, alltoall.pattern]     # a list: an axis
//   model: [maxmin, staircase]
//   set:                                          # platform values by path
//     levels.inter_node.bandwidth: [10GB/s, 25GB/s]
//
// The cases are the Cartesian product of the axes, the first key of the file
// varying slowest and the last fastest (nested loops in the order written).
// An explicit `cases:` list, whose entries take the same keys, is one more
// axis at its place in the file; a single value written beside it is what
// every listed case starts from.
// Relative paths are relative to the sweep file.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend {

// One platform value to change: `set: {levels.inter_node.bandwidth: 10GB/s}`.
struct PlatformOverride {
  std::string path;   // dotted path in the platform file
  std::string value;  // as written in the sweep file
  SourceLocation where;
};

struct SweepCase {
  std::size_t index = 0;            // 0-based, the case order
  std::vector<std::string> values;  // one per SweepSpec::columns, as written ("" when not given)
  // The case's inputs, relative paths resolved against the sweep file's folder.
  std::string platform;
  SourceLocation platform_where;
  std::vector<PlatformOverride> overrides;
  std::string pattern, trace, compute = "scaled";
  std::string mapping = "block", model = "maxmin", progress, hosts, ompi = "4.1";
  std::vector<std::string> coll;  // --coll options
  bool oversubscribe = false;
  double time_limit = 0;
};

// A value as written and where, for checks the sweep file's reader cannot
// make itself (model names: the registry is above contend_core).
struct SweepValue {
  std::string key, value;
  SourceLocation where;
};

struct SweepSpec {
  std::string file;
  std::vector<std::string> columns;  // option names and `set` paths, in the order first written
  std::vector<SweepCase> cases;
  std::vector<SweepValue> values;  // every value written, once per place
};

// The keys a sweep file may hold besides `set` and `cases`: simulate's
// options, spelt as on its command line without the dashes.
const std::vector<std::string>& sweep_option_keys();

// Errors name sweep.yaml:line:col and what was expected.
SweepSpec read_sweep(const std::string& path);
SweepSpec parse_sweep(const YamlField& root, const std::string& folder);

// The platform file's text with the case's overrides applied, every other
// byte kept (YamlText), and checked by the platform reader. A bad override
// throws naming the sweep file's line, the platform file and the path.
std::string platform_text(const SweepCase& c);

// The case's key for resuming (docs/sweeps.md, "Resuming"): FNV-1a 64 over
// contend's version, every option of the case, the platform's text after
// the overrides and the contents of every other file the case reads (the
// pattern, the trace's files, a mapping or hosts file), as 16 hex digits.
// An edited input file makes a new case. Reads each file once per cache.
class CaseHasher {
 public:
  explicit CaseHasher(std::string contend_version) : version_(std::move(contend_version)) {}
  std::string hash(const SweepCase& c);

 private:
  std::uint64_t file_hash(const std::string& path);
  std::string version_;
  std::map<std::string, std::uint64_t> files_;
};

// The files a trace is read from: the named file; for an OTF2 anchor
// (NAME.otf2) also NAME.def and every file under NAME/; for a TI index, the
// files its lines name.
std::vector<std::string> trace_files(const std::string& trace);

}  // namespace contend
