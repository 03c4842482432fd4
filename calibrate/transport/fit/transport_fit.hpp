#pragma once
// The fit of the transport buffering benchmark (calibrate/transport): per
// level, how many bytes of a message were still undelivered when the
// sender's MPI call completed, i.e. held by the transport (Open MPI's TCP
// BTL: the socket buffers), and its writer into a platform file's
// `levels.<level>.transport_buffer`.
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "sim/core/platform.hpp"

namespace contend::calibrate {

// One row of transport_bench's raw CSV: level,call,size,sample,send_s,recv_s.
struct TransportSample {
  Level level = Level::IntraSocket;
  std::string call;  // isend | send
  std::uint64_t size = 0;
  double send_s = 0;  // the sender's completion, from the common start
  double recv_s = 0;  // the receiver's completion, from the common start
};

struct TransportData {
  std::vector<TransportSample> samples;
  std::map<Level, std::string> sources;  // the raw files' names, per level
};

// Errors name file:line:col ("raw.csv:4:12: size: expected a number >= 1, got 'x'").
std::vector<TransportSample> read_transport_csv(std::istream& in, const std::string& name);
TransportData read_transport_csvs(const std::vector<std::string>& paths);

// One size: medians over its samples, and the bytes undelivered at the
// send's completion, bw_eff * (recv - send), kept within [0, size].
struct SizeEstimate {
  std::uint64_t size = 0;
  int samples = 0;
  double send_s = 0, recv_s = 0;
  double undelivered = 0;
  // The size is at least twice the largest `undelivered` of any size: the
  // send waited for the transport to drain, so `undelivered` measures the
  // buffer. A smaller message may fit in the buffer whole, or wait only for
  // the rendezvous handshake; its backlog is bounded by its size.
  bool informative = false;
};

struct TransportFit {
  Level level = Level::IntraSocket;
  std::string call;
  double bandwidth = 0;  // bw_eff: median of the receive time's slope over consecutive sizes
  double latency = 0;    // median of recv_s - size / bw_eff, at least 0
  std::vector<SizeEstimate> sizes;
  double buffer = 0;                       // median of the informative sizes' undelivered bytes
  double spread_low = 0, spread_high = 0;  // their smallest and largest
  int informative_sizes = 0;
  bool lower_bound = false;  // no size was informative: `buffer` is the largest undelivered, a lower bound

  // The buffer rounded to whole KiB (the platform file's value).
  std::uint64_t buffer_bytes() const;
};

// Per level. Throws contend::Error when a level has fewer than two sizes,
// mixes --call values, or its receive time does not grow with the size.
std::map<Level, TransportFit> fit_transport(const std::vector<TransportSample>& samples);

// The fits as CSV: level,size,samples,send_s,recv_s,undelivered_bytes,informative.
std::string transport_fits_csv(const std::map<Level, TransportFit>& fits);

// `text` (a platform file named `name`) with `levels.<level>.transport_buffer`
// set for every fitted level, preceded by a comment line naming `sources` and
// the fit (a previous fit's line and value are replaced); every other byte
// stays. The levels must exist and be written in block style. The result is
// parsed again as YAML and must carry the values written.
std::string update_platform_transport(const std::string& text, const std::string& name,
                                      const std::map<Level, TransportFit>& fits,
                                      const std::map<Level, std::string>& sources);

}  // namespace contend::calibrate
