// SimGrid TI traces as files: an index naming one file per rank, or one file
// of every rank's lines; each rank's lines read lazily (ti_trace.hpp).
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "sim/core/file_io.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"
#include "traces/formats/ti_trace.hpp"

namespace contend {
namespace fs = std::filesystem;

namespace {

// A line that starts `RANK ACTION` with a known action: the file holds actions.
bool looks_like_action(const std::string& text) {
  const auto fields = split_blanks(text);
  if (fields.size() < 2) return false;
  int rank = 0;
  auto [ptr, ec] = std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), rank);
  if (ec != std::errc{} || ptr != fields[0].data() + fields[0].size()) return false;
  const auto& names = ti_action_names();
  return std::find(names.begin(), names.end(), fields[1]) != names.end();
}

std::string resolve_rank_file(const std::string& index, const std::string& name, int line) {
  const fs::path listed(name);
  const fs::path dir = fs::path(index).parent_path();
  std::vector<fs::path> candidates{dir / listed, listed};
  // SimGrid lists paths relative to the directory smpirun ran in: INDEX_files/
  // next to the index is where they are wherever the trace was moved.
  if (listed.has_parent_path()) candidates.push_back(dir / listed.parent_path().filename() / listed.filename());
  if (listed.is_absolute()) candidates = {listed, dir / listed.parent_path().filename() / listed.filename()};
  for (const auto& c : candidates) {
    if (fs::is_regular_file(c)) return c.string();
  }
  throw Error(
      SourceLocation{index, line, 1},
      fmt::format("rank file '{}' not found (looked in {}, the current directory and {})", name,
                  dir.empty() ? "." : dir.string(), (dir / (fs::path(index).filename().string() + "_files")).string()));
}

// Cheap test before parsing a line of a single-file trace: most lines belong
// to other ranks.
bool starts_with_rank(const std::string& text, int rank) {
  std::size_t i = text.find_first_not_of(" \t");
  if (i == std::string::npos || text[i] == '#') return false;
  int value = -1;
  auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), value);
  return ec != std::errc{} || value == rank;  // a malformed line is parsed (and reported)
}

// What one streaming pass over a file of actions tells: the highest rank
// it names, the dialect its action names mark, the speed it recorded.
struct FileSurvey {
  int highest_rank = -1;
  TiDialect dialect = TiDialect::simgrid_3_20;
  std::optional<double> recorded_speed;
};

// A line only SimGrid before 3.20 wrote: one of its action names, or a
// wait/test naming no request.
bool marks_old_dialect(const std::vector<std::string_view>& fields) {
  static const std::vector<std::string_view> old_names = {"Isend",     "Irecv",      "waitAll",      "allReduce",
                                                          "allToAll",  "allToAllV",  "gatherV",      "scatterV",
                                                          "allGather", "allGatherV", "reduceScatter"};
  if (fields.size() == 2 && (fields[1] == "wait" || fields[1] == "test")) return true;
  return fields.size() >= 2 && std::find(old_names.begin(), old_names.end(), fields[1]) != old_names.end();
}

FileSurvey survey(const std::string& path) {
  std::ifstream in = open_input(path, path + ": cannot open the trace");
  FileSurvey survey;
  std::string text;
  int line = 0;
  while (read_line(in, text, path, line + 1)) {
    ++line;
    if (auto speed = ti_recorded_speed(trim(text), path, line)) {
      if (!survey.recorded_speed) survey.recorded_speed = speed;
      continue;
    }
    auto content = trim(std::string_view(text).substr(0, text.find('#')));
    if (content.empty()) continue;
    const auto fields = split_blanks(content);
    int rank = -1;
    auto [ptr, ec] = std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), rank);
    if (ec != std::errc{} || ptr != fields[0].data() + fields[0].size() || rank < 0) {
      throw Error(SourceLocation{path, line, 1}, fmt::format("expected 'RANK ACTION ...', got '{}'", content));
    }
    if (rank >= limits::kMaxRanks) {
      throw LimitError(SourceLocation{path, line, 1},
                       limits::exceeds(fmt::format("rank {}", rank), limits::kMaxRanksText));
    }
    survey.highest_rank = std::max(survey.highest_rank, rank);
    if (marks_old_dialect(fields)) survey.dialect = TiDialect::before_3_20;
  }
  return survey;
}

}  // namespace

TiTraceFiles open_ti_trace(const std::string& path) {
  std::ifstream in = open_input(path, path + ": cannot open the trace");
  TiTraceFiles files;
  files.path = path;
  std::string text;
  int line = 0;
  std::vector<std::string> listed;
  while (read_line(in, text, path, line + 1)) {
    ++line;
    auto content = trim(std::string_view(text).substr(0, text.find('#')));
    if (content.empty()) continue;
    if (listed.empty() && looks_like_action(std::string(content))) {
      // The file holds actions: every rank's, in one file.
      const FileSurvey s = survey(path);
      files.rank_files.assign(static_cast<std::size_t>(s.highest_rank + 1), path);
      files.single_file = true;
      files.dialect = s.dialect;
      files.recorded_speed = s.recorded_speed;
      return files;
    }
    if (listed.size() >= static_cast<std::size_t>(limits::kMaxRanks)) {
      throw LimitError(SourceLocation{path, line, 1}, limits::exceeds("the index's rank files", limits::kMaxRanksText));
    }
    listed.push_back(resolve_rank_file(path, std::string(content), line));
  }
  if (listed.empty()) throw Error(path + ": empty trace (expected an index of rank files or TI actions)");
  const FileSurvey s = survey(listed.front());
  if (listed.size() == 1) {
    // SimGrid's tracing/smpi/format/ti-one-file: an index naming one file of every rank.
    const int ranks = std::max(s.highest_rank + 1, 1);
    files.single_file = ranks > 1;
    files.rank_files.assign(static_cast<std::size_t>(ranks), listed.front());
  } else {
    files.rank_files = std::move(listed);
  }
  files.dialect = s.dialect;
  files.recorded_speed = s.recorded_speed;
  return files;
}

// A rank's file read through a POSIX descriptor rather than std::ifstream:
// an ifstream's FILE sits in glibc's list of open files, which fclose walks
// from the newest, so closing every rank's file cost P^2 / 2 steps (a second
// and more at P = 8192, `perf`: _IO_un_link).
class TiFileBuffer final : public std::streambuf {
 public:
  TiFileBuffer(const std::string& path, const std::string& cannot_open) : path_(path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw Error("'" + path + "' is a directory, expected a file");
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Error(cannot_open + ": " + std::strerror(errno));
  }
  ~TiFileBuffer() override { ::close(fd_); }
  TiFileBuffer(const TiFileBuffer&) = delete;
  TiFileBuffer& operator=(const TiFileBuffer&) = delete;

 protected:
  int_type underflow() override {
    ssize_t n = 0;
    do {
      n = ::read(fd_, buffer_.data(), buffer_.size());
    } while (n < 0 && errno == EINTR);
    if (n < 0) throw Error(path_ + ": read error: " + std::strerror(errno));
    if (n == 0) return traits_type::eof();
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::array<char, 8192> buffer_{};  // BUFSIZ, as std::ifstream's
};

TiRankReader::TiRankReader(const TiTraceFiles& files, int rank)
    : file_(files.rank_files.at(static_cast<std::size_t>(rank))),
      buffer_(std::make_unique<TiFileBuffer>(file_, file_ + ": cannot open rank " + std::to_string(rank) + "'s trace")),
      in_(buffer_.get()),
      rank_(rank),
      world_(files.ranks()),
      single_file_(files.single_file),
      dialect_(files.dialect) {}

TiRankReader::~TiRankReader() = default;

std::optional<TiAction> TiRankReader::next() {
  while (read_line(in_, text_, file_, line_ + 1)) {
    ++line_;
    if (single_file_ && !starts_with_rank(text_, rank_)) continue;
    auto action = parse_ti_line(
        text_, file_, line_, world_, fields_,
        [this](int id) -> std::optional<int> {
          auto it = comm_sizes_.find(id);
          if (it == comm_sizes_.end()) return std::nullopt;
          return it->second;
        },
        dialect_);
    if (!action) continue;
    if (action->rank != rank_) {
      if (single_file_) continue;
      throw Error(SourceLocation{file_, line_, 1},
                  fmt::format("line for rank {} in rank {}'s file", action->rank, rank_));
    }
    return action;
  }
  if (in_.bad()) throw Error(file_ + ": read error");
  return std::nullopt;
}

void write_ti_index(std::ostream& out, const std::vector<std::string>& rank_files) {
  for (const auto& f : rank_files) out << f << '\n';
}

}  // namespace contend
