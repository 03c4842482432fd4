#include "traces/tracer/tracer.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace contend::tracer {
namespace {

// MPI predefined datatypes and their SimGrid 3.32 ids (smpi_datatype.cpp).
const std::vector<std::pair<MPI_Datatype, int>>& simgrid_ids() {
  static const std::vector<std::pair<MPI_Datatype, int>> ids = {
      {MPI_DOUBLE, 0},
      {MPI_INT, 1},
      {MPI_CHAR, 2},
      {MPI_SHORT, 3},
      {MPI_LONG, 4},
      {MPI_FLOAT, 5},
      {MPI_BYTE, 6},
      {MPI_LONG_LONG, 7},
      {MPI_SIGNED_CHAR, 8},
      {MPI_UNSIGNED_CHAR, 9},
      {MPI_UNSIGNED_SHORT, 10},
      {MPI_UNSIGNED, 11},
      {MPI_UNSIGNED_LONG, 12},
      {MPI_UNSIGNED_LONG_LONG, 13},
      {MPI_LONG_DOUBLE, 14},
      {MPI_WCHAR, 15},
      {MPI_C_BOOL, 16},
      {MPI_INT8_T, 17},
      {MPI_INT16_T, 18},
      {MPI_INT32_T, 19},
      {MPI_INT64_T, 20},
      {MPI_UINT8_T, 21},
      {MPI_UINT16_T, 22},
      {MPI_UINT32_T, 23},
      {MPI_UINT64_T, 24},
      {MPI_C_FLOAT_COMPLEX, 25},
      {MPI_C_DOUBLE_COMPLEX, 26},
      {MPI_AINT, 28},
      {MPI_OFFSET, 29},
      {MPI_FLOAT_INT, 30},
      {MPI_LONG_INT, 31},
      {MPI_DOUBLE_INT, 32},
      {MPI_SHORT_INT, 33},
      {MPI_2INT, 34},
      {MPI_PACKED, 57},
  };
  return ids;
}

// contend's datatype base names (sim/core/datatype.hpp).
const char* contend_base_name(MPI_Datatype t) {
  if (t == MPI_BYTE) return "byte";
  if (t == MPI_CHAR) return "char";
  if (t == MPI_SHORT) return "short";
  if (t == MPI_INT) return "int";
  if (t == MPI_FLOAT) return "float";
  if (t == MPI_LONG) return "long";
  if (t == MPI_DOUBLE) return "double";
  return nullptr;
}

void make_directory(const std::string& dir) {
  std::string partial;
  for (std::size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || dir[i] == '/') {
      if (!partial.empty() && mkdir(partial.c_str(), 0777) != 0 && errno != EEXIST) {
        Tracer::get().die("cannot create directory " + partial + ": " + std::strerror(errno));
      }
    }
    if (i < dir.size()) partial += dir[i];
  }
}

// Writes `text` to `path` through a temporary file and a rename.
void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) Tracer::get().die("cannot open " + tmp + ": " + std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !written) Tracer::get().die("cannot write " + tmp + ": " + std::strerror(errno));
  if (std::rename(tmp.c_str(), path.c_str()) != 0) Tracer::get().die("cannot rename " + tmp + " to " + path);
}

// `v` with 9 significant digits (std::to_chars: no printf on the hot path).
std::string number(double v) {
  char text[40];
  const auto end = std::to_chars(text, text + sizeof text, v, std::chars_format::general, 9).ptr;
  return std::string(text, end);
}

}  // namespace

Tracer& Tracer::get() {
  static Tracer tracer;
  return tracer;
}

void Tracer::die(const std::string& what) const {
  std::fprintf(stderr, "contend-trace: rank %d: %s\n", rank_, what.c_str());
  std::fflush(stderr);
  PMPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

void Tracer::start(int world_rank) {
  rank_ = world_rank;
  PMPI_Comm_size(MPI_COMM_WORLD, &world_);
  const char* dir = std::getenv("CONTEND_TRACE_DIR");
  dir_ = dir && *dir ? dir : "contend-trace";
  if (const char* speed = std::getenv("CONTEND_TRACE_SPEED")) {
    char* end = nullptr;
    speed_ = std::strtod(speed, &end);
    if (end == speed || *end != '\0' || !(speed_ > 0))
      die(std::string("CONTEND_TRACE_SPEED: expected flop/s > 0, got '") + speed + "'");
  }
  make_directory(dir_);
  trace_.open(dir_ + "/rank-" + std::to_string(rank_) + ".txt");
  calls_.open(dir_ + "/calls-" + std::to_string(rank_) + ".csv");
  calls_.append("call,start_s,duration_s,compute_before_s\n");
  // The speed the computation's seconds become flops at, for the replay's
  // --compute measured (a comment line: SimGrid's replay skips it).
  trace_.append("# contend-trace compute-speed " + number(speed_) + "\n");
  comms_[MPI_COMM_WORLD] = 0;
  active_ = true;
  line("init");
  init_end_ = last_exit_ = now();
}

void Tracer::begin() {
  call_begin_ = now();
  const double gap = call_begin_ - last_exit_;
  gap_before_ = gap;
  comp_ += gap;
  pending_compute_ += gap;  // written before the next line (calls left out of the trace join the gaps)
}

void Tracer::end(const char* call, CallKind kind) {
  const double t = now();
  const double duration = t - call_begin_;
  calls_.append(std::string(call) + "," + number(call_begin_ - init_end_) + "," + number(duration) + "," +
                number(gap_before_) + "\n");
  mpi_ += duration;
  switch (kind) {
    case CallKind::Nonblocking:
      nonblocking_.add(duration);
      break;
    case CallKind::Test:
      test_.add(duration);
      break;
    case CallKind::Wait:
      wait_.add(duration);
      break;
    case CallKind::Blocking:
      blocking_.add(duration);
      break;
    case CallKind::Other:
      other_.add(duration);
      break;
  }
  last_exit_ = now();  // the tracer's own bookkeeping is neither computation nor MPI
}

void Tracer::line(const std::string& text) {
  if (pending_compute_ > 0) {
    const double seconds = pending_compute_;
    pending_compute_ = 0;
    line("compute " + number(seconds * speed_));
  }
  trace_.append(std::to_string(rank_) + " " + text + "\n");
}

void ChunkedFile::open(const std::string& path) {
  path_ = path;
  part_ = path + ".part";
  file_ = std::fopen(part_.c_str(), "w");
  if (!file_) Tracer::get().die("cannot open " + part_ + ": " + std::strerror(errno));
  buffer_.reserve(kChunk + 4096);
}

void ChunkedFile::flush() {
  if (buffer_.empty()) return;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size() || std::fflush(file_) != 0) {
    Tracer::get().die("cannot write " + part_ + ": " + std::strerror(errno));
  }
  buffer_.clear();
}

void ChunkedFile::close() {
  flush();
  if (std::fclose(file_) != 0) Tracer::get().die("cannot write " + part_ + ": " + std::strerror(errno));
  file_ = nullptr;
  if (std::rename(part_.c_str(), path_.c_str()) != 0) Tracer::get().die("cannot rename " + part_ + " to " + path_);
}

Elements Tracer::elements(long long count, MPI_Datatype type) const {
  for (const auto& [t, id] : simgrid_ids()) {
    if (t == type) return Elements{count, id, {}};
  }
  int size = 0;
  PMPI_Type_size(type, &size);
  Elements e{count * size, 6, {}};
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  if (combiner == MPI_COMBINER_VECTOR && integers == 3 && types == 1) {
    int ints[3];
    MPI_Datatype base;
    PMPI_Type_get_contents(type, 3, 0, 1, ints, nullptr, &base);
    if (const char* name = contend_base_name(base)) {
      e.layout = " type=vector:" + std::to_string(ints[0]) + "," + std::to_string(ints[1]) + "," +
                 std::to_string(ints[2]) + ":" + name;
    }
  }
  return e;
}

int Tracer::comm_id(MPI_Comm comm) const {
  auto it = comms_.find(comm);
  return it == comms_.end() ? -1 : it->second;
}

std::string Tracer::comm_suffix(MPI_Comm comm) const {
  const int id = comm_id(comm);
  return id <= 0 ? std::string() : " comm=" + std::to_string(id);
}

bool Tracer::records(MPI_Comm comm) {
  if (!active_) return false;
  if (comms_.count(comm)) return true;
  if (comm != MPI_COMM_SELF && !warned_unknown_comm_) {
    warned_unknown_comm_ = true;
    std::fprintf(stderr,
                 "contend-trace: rank %d: warning: calls on a communicator not made by MPI_Comm_split or "
                 "MPI_Comm_dup are not traced\n",
                 rank_);
  }
  return false;
}

int Tracer::add_comm(MPI_Comm comm) {
  const int id = next_comm_++;
  if (comm != MPI_COMM_NULL) comms_[comm] = id;
  return id;
}

void Tracer::finish() {
  const double end = now();
  line("finalize");
  trace_.close();
  calls_.close();
  active_ = false;

  // Rank 0 writes the index, the profile and the measured times of all ranks.
  const double run = end - init_end_;
  std::vector<double> row = {run,
                             comp_,
                             static_cast<double>(nonblocking_.count),
                             nonblocking_.min,
                             static_cast<double>(test_.count),
                             test_.min,
                             static_cast<double>(wait_.count),
                             wait_.min,
                             static_cast<double>(blocking_.count),
                             blocking_.total,
                             other_.total,
                             mpi_};
  std::vector<double> rows(rank_ == 0 ? row.size() * static_cast<std::size_t>(world_) : 0);
  PMPI_Gather(row.data(), static_cast<int>(row.size()), MPI_DOUBLE, rows.data(), static_cast<int>(row.size()),
              MPI_DOUBLE, 0, MPI_COMM_WORLD);
  // Where each rank ran, so that a comparison can check the placement it predicts.
  constexpr int kHostChars = 64;
  std::array<char, kHostChars> host{};
  if (gethostname(host.data(), host.size() - 1) != 0) std::strcpy(host.data(), "unknown");
  std::vector<char> hosts(rank_ == 0 ? host.size() * static_cast<std::size_t>(world_) : 0);
  PMPI_Gather(host.data(), kHostChars, MPI_CHAR, hosts.data(), kHostChars, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank_ != 0) return;
  std::string index, profile, measured;
  profile =
      "rank,t_noprogress,t_comp,n_nonblocking,t_min_nonblocking,n_test,t_min_test,n_wait,t_min_wait,"
      "n_blocking,t_blocking,t_other,t_mpi\n";
  measured = "rank,time_s,mpi_time_s,comp_time_s,host\n";
  for (int r = 0; r < world_; ++r) {
    const double* v = rows.data() + static_cast<std::size_t>(r) * row.size();
    index += "rank-" + std::to_string(r) + ".txt\n";
    profile += std::to_string(r);
    for (std::size_t i = 0; i < row.size(); ++i) profile += "," + number(v[i]);
    profile += "\n";
    measured += std::to_string(r) + "," + number(v[0]) + "," + number(v[11]) + "," + number(v[1]) + "," +
                std::string(hosts.data() + static_cast<std::size_t>(r) * kHostChars) + "\n";
  }
  write_atomically(dir_ + "/trace.txt", index);
  write_atomically(dir_ + "/profile.csv", profile);
  write_atomically(dir_ + "/measured.csv", measured);
}

}  // namespace contend::tracer
