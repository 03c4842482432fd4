// Netgauge-style LogGOPS measurement (Hoefler et al.'s PRTT method, as Bacon
// et al., EuroMPI 2023, use it for MPI datatypes), between ranks 0 (client)
// and 1 (server). For every datatype and message size s (payload bytes, the
// datatype's MPI size, not its extent: Bacon Sec. 3.2) it records, per repetition:
//
//   prtt     PRTT(n, d, s): the client sends n messages of s bytes, busy-waiting
//            d between consecutive sends, the server receives them and replies
//            once with s bytes; measured on the client for (n, d) = (1, 0),
//            (n, 0) and (n, d). d is --delay, or with `--delay auto`
//            PRTT(1, 0, s) itself (Hoefler's choice), measured first per size.
//   orecv    the server's receive overhead: the client sends n messages back to
//            back, the server busy-waits d before each receive (so the message
//            is there) and times the n - 1 receive calls after the first; the
//            row's time is their sum, o_r-hat = time / (n - 1).
//   pingpong Bacon Sec. 4.3: --pingpong-iterations blocking round trips timed
//            together; the row's time is one round trip (their mean).
//   pingpong_median  the same block's median single round trip: on a loaded
//            machine a block's mean holds every preemption of the block
//            (milliseconds), its median does not.
//
// The order of the quantities is shuffled in every repetition (a fixed seed),
// so a slow phase of a loaded machine does not hit one quantity only. Rows go
// to the raw CSV that `contend fit-loggops` reads:
//   datatype,bytes,count,quantity,n,delay_s,repetition,time_s
// count is the number of datatype instances in one message; the datatype is
// quoted (its name has commas).
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "calibrate/common/command_line.hpp"
#include "calibrate/common/mpi_support.hpp"
#include "calibrate/common/placement.hpp"
#include "sim/core/datatype.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"

namespace {

using contend::mpi_support::monotonic_now;

constexpr int kClient = 0;
constexpr int kServer = 1;
constexpr int kDataTag = 1;
constexpr int kReplyTag = 2;

struct Options {
  std::vector<std::string> datatypes{"contiguous"};
  std::string min_size = "1", max_size = "1MiB";
  int messages = 10;  // Netgauge's n
  std::string delay = "auto";
  int repetitions = 15;
  int pingpong_iterations = 100;  // Bacon Sec. 4.3
  int warmup = 2;
  std::string output;
  std::string level;  // checked against the ranks' placement when given
};

// One MPI datatype of the run: the committed MPI type and its geometry.
struct MessageType {
  contend::Datatype type;
  MPI_Datatype mpi = MPI_BYTE;
  std::uint64_t payload = 1;  // bytes of one instance (its MPI size)
  std::uint64_t extent = 1;   // bytes one instance spans in the buffer
};

MPI_Datatype base_mpi_type(const std::string& base) {
  if (base == "byte") return MPI_BYTE;
  if (base == "char") return MPI_CHAR;
  if (base == "short") return MPI_SHORT;
  if (base == "int") return MPI_INT;
  if (base == "float") return MPI_FLOAT;
  if (base == "long") return MPI_LONG;
  if (base == "double") return MPI_DOUBLE;
  throw contend::Error("no MPI type for base '" + base + "'");
}

// Vector instances are laid out count x stride elements apart (the vector is
// resized to that extent), so that n instances keep the stride pattern across
// instance boundaries, as a sub-array of a larger strided array does. (A bare
// MPI_Type_vector's extent stops after the last block.)
MessageType make_message_type(const std::string& text) {
  std::string error;
  const auto parsed = contend::parse_datatype(text, error);
  if (!parsed) throw contend::Error("--datatype '" + text + "': expected " + error);
  MessageType m{*parsed};
  if (parsed->kind == contend::Datatype::Kind::Contiguous) return m;
  const MPI_Datatype base = base_mpi_type(parsed->base);
  MPI_Datatype vector = MPI_DATATYPE_NULL;
  MPI_Type_vector(parsed->count, parsed->blocklength, parsed->stride, base, &vector);
  m.extent = static_cast<std::uint64_t>(parsed->count) * static_cast<std::uint64_t>(parsed->stride) *
             static_cast<std::uint64_t>(parsed->base_size);
  MPI_Type_create_resized(vector, 0, static_cast<MPI_Aint>(m.extent), &m.mpi);
  MPI_Type_commit(&m.mpi);
  MPI_Type_free(&vector);
  int size = 0;
  MPI_Type_size(m.mpi, &size);
  m.payload = static_cast<std::uint64_t>(size);
  return m;
}

std::uint64_t parse_size_option(const std::string& text, const char* name) {
  const auto v = contend::units::parse_size(text);
  if (!v || *v == 0)
    throw contend::Error(std::string(name) + ": expected " + std::string(contend::units::kSizeHelp) + ", got '" + text +
                         "'");
  return *v;
}

// Powers of two from --min-size to --max-size (inclusive), in bytes.
std::vector<std::uint64_t> size_series(const Options& o) {
  const auto first = parse_size_option(o.min_size, "--min-size");
  const auto last = parse_size_option(o.max_size, "--max-size");
  if (last < first) throw contend::Error("--max-size is smaller than --min-size");
  if (last > (1ULL << 30)) throw contend::Error("--max-size: at most 1 GiB");
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = first; s <= last; s *= 2) sizes.push_back(s);
  return sizes;
}

void busy_wait(double seconds) {
  const double until = monotonic_now() + seconds;
  while (monotonic_now() < until) {
  }
}

struct Exchange {
  const MessageType& type;
  int count;  // instances per message
  std::vector<char>& buffer;
  void send(int peer, int tag) const { MPI_Send(buffer.data(), count, type.mpi, peer, tag, MPI_COMM_WORLD); }
  void recv(int peer, int tag) const {
    MPI_Recv(buffer.data(), count, type.mpi, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
};

// PRTT(n, d, s) on the client; the server's side returns 0.
double prtt(const Exchange& x, int rank, int n, double delay) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == kServer) {
    for (int i = 0; i < n; ++i) x.recv(kClient, kDataTag);
    x.send(kClient, kReplyTag);
    return 0;
  }
  const double begin = monotonic_now();
  for (int i = 0; i < n; ++i) {
    if (i > 0 && delay > 0) busy_wait(delay);
    x.send(kServer, kDataTag);
  }
  x.recv(kServer, kReplyTag);
  return monotonic_now() - begin;
}

// The server's n - 1 timed receives (after a delay each); sent to the client.
double receive_overhead(const Exchange& x, int rank, int n, double delay) {
  MPI_Barrier(MPI_COMM_WORLD);
  double total = 0;
  if (rank == kClient) {
    for (int i = 0; i < n; ++i) x.send(kServer, kDataTag);
    MPI_Recv(&total, 1, MPI_DOUBLE, kServer, kReplyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return total;
  }
  for (int i = 0; i < n; ++i) {
    busy_wait(delay);
    const double begin = monotonic_now();
    x.recv(kClient, kDataTag);
    if (i > 0) total += monotonic_now() - begin;
  }
  MPI_Send(&total, 1, MPI_DOUBLE, kClient, kReplyTag, MPI_COMM_WORLD);
  return total;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

struct PingPongTimes {
  double mean = 0;    // Bacon Sec. 4.3: the block's time over its round trips
  double median = 0;  // the median single round trip of the block
};

// `iterations` blocking ping-pongs, each timed on the client's clock.
PingPongTimes pingpong(const Exchange& x, int rank, int iterations) {
  MPI_Barrier(MPI_COMM_WORLD);
  std::vector<double> trips;
  trips.reserve(static_cast<std::size_t>(iterations));
  const double begin = monotonic_now();
  for (int i = 0; i < iterations; ++i) {
    const double start = monotonic_now();
    if (rank == kClient) {
      x.send(kServer, kDataTag);
      x.recv(kServer, kReplyTag);
    } else {
      x.recv(kClient, kDataTag);
      x.send(kClient, kReplyTag);
    }
    trips.push_back(monotonic_now() - start);
  }
  return {(monotonic_now() - begin) / iterations, median(trips)};
}

// Both ranks agree on d: the client's median PRTT(1, 0, s) with --delay auto.
double choose_delay(const Options& o, const Exchange& x, int rank) {
  double d = 0;
  if (o.delay == "auto") {
    std::vector<double> rtts;
    for (int i = 0; i < 5; ++i) rtts.push_back(prtt(x, rank, 1, 0));
    d = rank == kClient ? median(rtts) : 0;
  } else {
    const auto parsed = contend::units::parse_duration(o.delay);
    if (!parsed || *parsed < 0)
      throw contend::Error("--delay: expected 'auto' or " + std::string(contend::units::kDurationHelp) + ", got '" +
                           o.delay + "'");
    d = *parsed;
  }
  MPI_Bcast(&d, 1, MPI_DOUBLE, kClient, MPI_COMM_WORLD);
  return d;
}

enum class Quantity { Prtt1, PrttN, PrttND, Orecv, Pingpong };

struct Row {
  std::string datatype;
  std::uint64_t bytes;
  int count;
  const char* quantity;
  int n;
  double delay;
  int repetition;
  double time;
};

void measure_size(const Options& o, const MessageType& type, std::uint64_t bytes, int rank, std::mt19937& shuffle,
                  std::vector<Row>& rows) {
  const int count = static_cast<int>(bytes / type.payload);
  std::vector<char> buffer(static_cast<std::size_t>(count) * type.extent, static_cast<char>(rank + 1));
  const Exchange x{type, count, buffer};
  const int n = o.messages;
  for (int w = 0; w < o.warmup; ++w) prtt(x, rank, n, 0);
  const double d = choose_delay(o, x, rank);
  std::vector<Quantity> order{Quantity::Prtt1, Quantity::PrttN, Quantity::PrttND, Quantity::Orecv, Quantity::Pingpong};
  const std::string name = type.type.name();
  for (int rep = 0; rep < o.repetitions; ++rep) {
    std::shuffle(order.begin(), order.end(), shuffle);  // same seed on both ranks: same order
    for (const auto q : order) {
      switch (q) {
        case Quantity::Prtt1:
          rows.push_back({name, bytes, count, "prtt", 1, 0, rep, prtt(x, rank, 1, 0)});
          break;
        case Quantity::PrttN:
          rows.push_back({name, bytes, count, "prtt", n, 0, rep, prtt(x, rank, n, 0)});
          break;
        case Quantity::PrttND:
          rows.push_back({name, bytes, count, "prtt", n, d, rep, prtt(x, rank, n, d)});
          break;
        case Quantity::Orecv:
          rows.push_back({name, bytes, count, "orecv", n, d, rep, receive_overhead(x, rank, n, d)});
          break;
        case Quantity::Pingpong: {
          const auto t = pingpong(x, rank, o.pingpong_iterations);
          rows.push_back({name, bytes, count, "pingpong", 1, 0, rep, t.mean});
          rows.push_back({name, bytes, count, "pingpong_median", 1, 0, rep, t.median});
          break;
        }
      }
    }
  }
  if (rank == kClient) {
    const Row& first = rows[rows.size() - 6 * static_cast<std::size_t>(o.repetitions)];
    std::fprintf(stderr, "netgauge_bench: %s %llu B (%d x %llu B): d = %.3g s, first PRTT(1,0,s) = %.3g s\n",
                 name.c_str(), static_cast<unsigned long long>(bytes), count,
                 static_cast<unsigned long long>(type.payload), d, first.time);
  }
}

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string v(text, static_cast<std::size_t>(length));
  const auto newline = v.find_first_of(std::string("\r\n\0", 3));  // Open MPI counts the terminating NUL
  return newline == std::string::npos ? v : v.substr(0, newline);
}

void write_csv(const std::string& path, const Options& o, const std::vector<std::string>& hosts,
               const std::vector<Row>& rows) {
  contend::write_file_atomically(path, [&](std::ostream& out) {
    out << "# Netgauge-style LogGOPS measurement (PRTT(n, d, s), Hoefler et al.; Bacon et al. EuroMPI 2023), contend "
           "calibrate/netgauge\n";
    out << "# mpi: " << library_version() << "\n";
    out << "# placement (host/package): 0@" << hosts[0] << " 1@" << hosts[1]
        << (o.level.empty() ? std::string() : ", checked for level " + o.level) << "\n";
    out << "# n = " << o.messages << ", delay " << o.delay << ", " << o.repetitions << " repetitions, ping-pong of "
        << o.pingpong_iterations << " round trips; times in seconds\n";
    out << "datatype,bytes,count,quantity,n,delay_s,repetition,time_s\n";
    for (const auto& r : rows) {
      char line[256];
      std::snprintf(line, sizeof line, "\"%s\",%llu,%d,%s,%d,%.9g,%d,%.9g\n", r.datatype.c_str(),
                    static_cast<unsigned long long>(r.bytes), r.count, r.quantity, r.n, r.delay, r.repetition, r.time);
      out << line;
    }
  });
}

int run_benchmark(const Options& o, int rank, int ranks) {
  if (ranks != 2) throw contend::Error("needs exactly 2 ranks (client and server), got " + std::to_string(ranks));
  if (o.messages < 2 || o.repetitions < 1 || o.pingpong_iterations < 1 || o.warmup < 0) {
    throw contend::Error("--messages must be at least 2, --repetitions and --pingpong-iterations at least 1");
  }
  const auto sizes = size_series(o);
  std::vector<MessageType> types;
  for (const auto& t : o.datatypes) types.push_back(make_message_type(t));
  const auto places = contend::calibrate::gather_places(contend::calibrate::this_process_place());
  if (!o.level.empty()) {
    if (auto why = contend::calibrate::check_level(o.level, places))
      throw contend::Error("refusing to measure: " + *why);
  }
  std::vector<std::string> hosts;
  for (const auto& p : places) hosts.push_back(p.host + "/" + std::to_string(p.package));
  std::mt19937 shuffle(12345);
  std::vector<Row> rows;
  for (const auto& type : types) {
    for (const auto bytes : sizes) {
      if (bytes % type.payload != 0) continue;  // whole instances only (sizes below one instance are skipped)
      if (bytes / type.payload > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) continue;
      measure_size(o, type, bytes, rank, shuffle, rows);
    }
  }
  for (auto& t : types) {
    if (t.mpi != MPI_BYTE) MPI_Type_free(&t.mpi);
  }
  if (rank == kClient) {
    // The server's orecv rows already hold its times (sent back); the client's rows are the ones written.
    write_csv(o.output, o, hosts, rows);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Netgauge-style LogGOPS measurement (PRTT(n, d, s)) on 2 ranks: raw timings for contend fit-loggops",
               "netgauge_bench"};
  app.add_option("--datatype", o.datatypes, "contiguous or vector:COUNT,BLOCKLENGTH,STRIDE:BASE (repeatable)")
      ->capture_default_str();
  app.add_option("--min-size", o.min_size, "Smallest message (payload bytes); sizes double up to --max-size")
      ->capture_default_str();
  app.add_option("--max-size", o.max_size, "Largest message (payload bytes, inclusive)")->capture_default_str();
  app.add_option("-n,--messages", o.messages, "Messages per PRTT(n, d, s) (Netgauge's n)")->capture_default_str();
  app.add_option("--delay", o.delay, "Busy-wait d between sends: auto (PRTT(1,0,s) per size) or a duration")
      ->capture_default_str();
  app.add_option("--repetitions", o.repetitions, "Samples of every quantity per size (the fit takes medians)")
      ->capture_default_str();
  app.add_option("--pingpong-iterations", o.pingpong_iterations, "Round trips per ping-pong sample")
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed PRTT(n,0,s) per size")->capture_default_str();
  app.add_option("-o,--output", o.output, "Raw CSV to write (rank 0)")->required();
  app.add_option("--level", o.level,
                 "intra_socket | inter_socket | inter_node: refuse to measure if the ranks are elsewhere");
  if (const auto status = contend::mpi_support::parse_command_line(app, argc, argv)) return *status;

  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = 0;
  try {
    status = run_benchmark(o, rank, ranks);
  } catch (const std::exception& e) {
    if (rank == 0) std::cerr << "netgauge_bench: error: " << e.what() << "\n";
    status = 1;
  }
  MPI_Finalize();
  return status;
}
