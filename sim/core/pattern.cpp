#include "sim/core/pattern.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "sim/core/file_io.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/pattern_collectives.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

namespace contend {
namespace {

// `1ms`, `2e-3s` (seconds) or `2Gf`, `1e9flop`, `5Mflops` (flops): a unit is required.
std::pair<double, ComputeSpec::Unit> compute_amount(const PatternLine& line, std::size_t field) {
  const std::string_view text = line[field];
  const std::string help = "an amount of computation: a duration with its unit (1ms, 2e-3s) or flops (2Gf, 1e9flop)";
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text.back()))) {
    line.fail(field, "compute: expected " + help + ", got '" + std::string(text) + "'");
  }
  std::string flops(text);
  if (flops.size() > 4 && flops.substr(flops.size() - 4) == "flop") flops += "s";
  if (flops.find('/') == std::string::npos) {
    if (const auto f = units::parse_flops(flops)) return {*f, ComputeSpec::Unit::Flops};
    if (auto breach = units::limit_breach(units::QuantityKind::flops, flops); !breach.empty()) {
      line.refuse(field, "compute: " + breach);
    }
  }
  if (const auto s = units::parse_duration(text)) return {*s, ComputeSpec::Unit::Seconds};
  if (auto breach = units::limit_breach(units::QuantityKind::duration, text); !breach.empty()) {
    line.refuse(field, "compute: " + breach);
  }
  line.fail(field, "compute: expected " + help + ", got '" + std::string(text) + "'");
}

// ranks=0,2,4-7
std::vector<int> rank_list(PatternLine& line, std::size_t field) {
  std::string_view text = line[field].substr(6);
  std::vector<int> ranks;
  if (text.empty()) line.fail(field, "ranks=: expected a list of ranks such as 0,2,4-7");
  while (!text.empty()) {
    const auto comma = text.find(',');
    const auto item = text.substr(0, comma);
    const auto dash = item.find('-');
    if (dash == std::string_view::npos) {
      ranks.push_back(line.rank_in(field, item, "ranks="));
    } else {
      const int low = line.rank_in(field, item.substr(0, dash), "ranks=");
      const int high = line.rank_in(field, item.substr(dash + 1), "ranks=");
      if (low > high) line.fail(field, "ranks=: range '" + std::string(item) + "' ends before it begins");
      for (int r = low; r <= high; ++r) ranks.push_back(r);
    }
    if (comma == std::string_view::npos) break;
    text = text.substr(comma + 1);
    if (text.empty()) line.fail(field, "ranks=: a rank must follow ','");
  }
  return ranks;
}

KeywordStep parse_compute(PatternLine& line) {
  if (line.size() < 2) line.fail(0, "expected 'compute AMOUNT [ranks=LIST] [overlap]'");
  const auto [amount, unit] = compute_amount(line, 1);
  std::vector<int> ranks;
  bool overlap = false, have_ranks = false;
  for (std::size_t i = 2; i < line.size(); ++i) {
    if (line[i] == "overlap" && !overlap) {
      overlap = true;
    } else if (line[i].substr(0, 6) == "ranks=" && !have_ranks) {
      ranks = rank_list(line, i);
      have_ranks = true;
    } else {
      line.fail(i, "expected 'ranks=LIST' or 'overlap' (each once), got '" + std::string(line[i]) + "'");
    }
  }
  std::sort(ranks.begin(), ranks.end());
  return ComputeSpec{amount, unit, std::move(ranks), overlap, line.where(0)};
}

}  // namespace

std::uint64_t Pattern::message_count() const {
  std::uint64_t n = 0;
  for (const auto& step : steps) {
    if (const auto* x = std::get_if<ExchangeSpec>(&step.content)) n += x->messages.size();
  }
  return n;
}

Pattern to_pattern(const ManyPairPattern& exchange) {
  Pattern p;
  p.name = exchange.name;
  p.ranks = exchange.ranks;
  if (!exchange.datatypes.empty()) p.datatypes = exchange.datatypes;
  p.steps.push_back(StepSpec{SourceLocation{exchange.name, 0, 0}, ExchangeSpec{exchange.messages, {}}});
  return p;
}

std::string summary(const ExchangeSpec& exchange) {
  std::string out = "exchange of " + std::to_string(exchange.messages.size()) + " messages";
  for (const auto& compute : exchange.overlapped) out += " overlapping " + summary(compute);
  return out;
}

std::string summary(const ComputeSpec& compute) {
  std::string out =
      "compute " + fmt::format("{:g}", compute.amount) + (compute.unit == ComputeSpec::Unit::Seconds ? " s" : " flop");
  if (!compute.ranks.empty()) out += " on " + std::to_string(compute.ranks.size()) + " ranks";
  return out;
}

std::string summary(const StepSpec& step) {
  return std::visit([](const auto& content) { return summary(content); }, step.content);
}

std::string describe(const Pattern& pattern) {
  std::string out = "pattern " + pattern.name + " (";
  for (std::size_t i = 0; i < pattern.steps.size(); ++i) out += (i ? ", " : "") + summary(pattern.steps[i]);
  return out + ")";
}

const std::vector<PatternKeyword>& pattern_keywords() {
  static const std::vector<PatternKeyword> keywords = [] {
    std::vector<PatternKeyword> all = collective_pattern_keywords();
    all.push_back({"compute", "compute AMOUNT [ranks=LIST] [overlap]", parse_compute});
    return all;
  }();
  return keywords;
}

PatternLine::PatternLine(std::string_view text, std::vector<std::string_view> fields, const std::string& file, int line,
                         int declared_ranks)
    : text_(text), fields_(std::move(fields)), file_(file), line_(line), declared_ranks_(declared_ranks) {}

SourceLocation PatternLine::where(std::size_t field) const {
  const int column = field < fields_.size() ? static_cast<int>(fields_[field].data() - text_.data()) + 1 : 1;
  return SourceLocation{file_, line_, column};
}

void PatternLine::fail(std::size_t field, const std::string& message) const { throw Error(where(field), message); }

void PatternLine::refuse(std::size_t field, const std::string& limit_message) const {
  throw LimitError(where(field), limit_message);
}

int PatternLine::rank(std::size_t field, const char* what) { return rank_in(field, fields_[field], what); }

int PatternLine::rank_in(std::size_t field, std::string_view text, const char* what) {
  long long v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || ptr != text.data() + text.size() || v < 0) {
    fail(field, std::string(what) + ": expected a rank (an integer >= 0), got '" + std::string(text) + "'");
  }
  if (v >= limits::kMaxRanks) {
    refuse(field, std::string(what) + ": " + limits::exceeds("rank " + std::string(text), limits::kMaxRanksText));
  }
  if (declared_ranks_ >= 0 && v >= declared_ranks_) {
    fail(field, "rank " + std::to_string(v) + " is out of range: the pattern declares " +
                    std::to_string(declared_ranks_) + " ranks");
  }
  highest_rank_ = std::max(highest_rank_, static_cast<int>(v));
  return static_cast<int>(v);
}

std::uint64_t PatternLine::size_field(std::size_t field, const char* what) const {
  const auto v = units::parse_size(fields_[field]);
  if (!v) {
    if (auto breach = units::limit_breach(units::QuantityKind::size, fields_[field]); !breach.empty()) {
      refuse(field, std::string(what) + ": " + breach);
    }
    fail(field, std::string(what) + ": expected " + std::string(units::kSizeHelp) + ", got '" +
                    std::string(fields_[field]) + "'");
  }
  return *v;
}

double PatternLine::duration_field(std::size_t field, const char* what) const {
  const auto v = units::parse_duration(fields_[field]);
  if (!v) {
    if (auto breach = units::limit_breach(units::QuantityKind::duration, fields_[field]); !breach.empty()) {
      refuse(field, std::string(what) + ": " + breach);
    }
    fail(field, std::string(what) + ": expected " + std::string(units::kDurationHelp) + ", got '" +
                    std::string(fields_[field]) + "'");
  }
  return *v;
}

namespace {

// Collects steps; message lines accumulate into the current exchange.
class PatternBuilder {
 public:
  explicit PatternBuilder(Pattern& pattern) : pattern_(pattern) {}
  void add_message(const PatternMessage& m, const PatternLine& line) {
    if (total_messages_ >= limits::kMaxMessages) {
      line.refuse(0, limits::exceeds("this message: the pattern's messages", limits::kMaxMessagesText));
    }
    ++total_messages_;
    if (pending_.messages.empty()) pending_where_ = line.where(0);
    pending_.messages.push_back(m);
  }
  void end_exchange() {
    if (pending_.messages.empty()) return;
    pattern_.steps.push_back(StepSpec{pending_where_, std::move(pending_)});
    pending_ = ExchangeSpec{};
  }
  void add_step(KeywordStep step, const PatternLine& line) {
    if (const auto* compute = std::get_if<ComputeSpec>(&step); compute && compute->overlap) {
      if (pending_.messages.empty()) {
        line.fail(0,
                  "an overlapping step runs between the posts and the waits of an exchange: it must follow "
                  "the exchange's message lines");
      }
      pending_.overlapped.push_back(*compute);
      return;
    }
    end_exchange();
    std::visit(
        [&](auto&& content) {
          pattern_.steps.push_back(StepSpec{line.where(0), std::move(content)});
        },
        std::move(step));
  }
  // The pattern's datatypes: index 0 is contiguous.
  std::uint16_t datatype_index(const Datatype& type, const PatternLine& line, std::size_t field) {
    auto& datatypes = pattern_.datatypes;
    for (std::size_t i = 0; i < datatypes.size(); ++i) {
      if (datatypes[i] == type) return static_cast<std::uint16_t>(i);
    }
    if (datatypes.size() >= 65535) line.fail(field, "too many distinct datatypes (at most 65535)");
    datatypes.push_back(type);
    return static_cast<std::uint16_t>(datatypes.size() - 1);
  }
  bool empty() const { return pattern_.steps.empty() && pending_.messages.empty(); }
  std::uint64_t total_messages() const { return total_messages_; }
  // Messages checked against every limit already (PatternReader::add_run);
  // `first` is where the first one is written.
  void add_checked_messages(const std::vector<PatternMessage>& messages, const SourceLocation& first) {
    if (pending_.messages.empty()) pending_where_ = first;
    total_messages_ += messages.size();
    pending_.messages.insert(pending_.messages.end(), messages.begin(), messages.end());
  }

 private:
  Pattern& pattern_;
  ExchangeSpec pending_;
  SourceLocation pending_where_;
  std::uint64_t total_messages_ = 0;
};

std::vector<std::string> keyword_names() {
  std::vector<std::string> names = {"ranks", "---"};
  for (const auto& k : pattern_keywords()) names.push_back(k.keyword);
  return names;
}

// A run of consecutive lines of a pattern file, as scan_chunk() found them:
// either only plain message lines ('src dst bytes'), blank lines and
// comments (fast: read into `messages` already), or anything else (read by
// PatternReader::read_lines in file order).
struct FastRun {
  bool fast = false;
  std::string_view text;  // the lines, each with its line end
  int lines = 0;
  std::vector<PatternMessage> messages;
  int first_message_line = 0;  // of the first message, counted from the run's first line (0)
  int first_column = 1;        // ... and the column of its source rank
};

// A plain message line 'src dst bytes' (ranks below limits::kMaxRanks, bytes
// as parse_size reads them) into `m`; false for anything else, including a
// line that a full read would reject (its reader reports it).
bool plain_message(std::string_view line, std::vector<std::string_view>& fields, PatternMessage& m) {
  split_blanks(without_comment(line), fields);
  if (fields.size() != 3 || fields[0][0] < '0' || fields[0][0] > '9') return false;
  int ranks[2];
  for (int f = 0; f < 2; ++f) {
    const std::string_view text = fields[static_cast<std::size_t>(f)];
    long long v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || ptr != text.data() + text.size() || v < 0 || v >= limits::kMaxRanks) return false;
    ranks[f] = static_cast<int>(v);
  }
  const auto bytes = units::parse_size(fields[2]);
  if (!bytes) return false;
  m = PatternMessage{.src = ranks[0], .dst = ranks[1], .bytes = *bytes};
  return true;
}

// The lines of `chunk` (whole lines) as runs, in order. Each line is judged
// on its own, so pieces of a file are scanned concurrently.
std::vector<FastRun> scan_chunk(std::string_view chunk) {
  std::vector<FastRun> runs;
  std::vector<std::string_view> fields;
  std::size_t pos = 0;
  while (pos < chunk.size()) {
    const std::size_t newline = chunk.find('\n', pos);
    const std::size_t line_end = newline == std::string_view::npos ? chunk.size() : newline;
    const std::size_t next = newline == std::string_view::npos ? chunk.size() : newline + 1;
    const std::string_view line = chunk.substr(pos, line_end - pos);
    PatternMessage m;
    bool message = false, fast = false;
    // A line at read_line's length limit goes to the full reader, which reports it.
    if (line.size() < limits::kMaxLineBytes) {
      message = plain_message(line, fields, m);
      fast = message || fields.empty();
    }
    if (runs.empty() || runs.back().fast != fast) {
      runs.emplace_back();
      runs.back().fast = fast;
      runs.back().text = chunk.substr(pos, 0);
    }
    FastRun& run = runs.back();
    run.text = std::string_view(run.text.data(), static_cast<std::size_t>(chunk.data() + next - run.text.data()));
    if (message) {
      if (run.messages.empty()) {
        run.first_message_line = run.lines;
        run.first_column = static_cast<int>(fields[0].data() - line.data()) + 1;
      }
      run.messages.push_back(m);
    }
    ++run.lines;
    pos = next;
  }
  return runs;
}

// Reads a pattern's lines in order, from one or more streams (the parts of a
// file that the parallel reader below could not take on its own).
class PatternReader {
 public:
  PatternReader(const std::string& name, const PatternLimits& limits)
      : name_(name), limits_(limits), builder_(pattern_) {
    pattern_.name = std::filesystem::path(name).filename().string();
  }

  // Every line of `in`, numbered after the lines read so far.
  void read_lines(std::istream& in) {
    std::string text;
    while (read_line(in, text, name_, line_no_ + 1)) {
      ++line_no_;
      auto fields = split_blanks(without_comment(text));
      if (fields.empty()) continue;
      PatternLine line(text, fields, name_, line_no_, declared_);
      const std::string_view head = fields[0];
      if (head == "ranks") {
        if (fields.size() != 2) line.fail(0, "expected 'ranks N'");
        if (declared_ >= 0) line.fail(0, "'ranks' given twice (first on line " + std::to_string(declared_line_) + ")");
        if (!builder_.empty()) line.fail(0, "'ranks' must come before the steps");
        declared_ = line.rank(1, "ranks");
        if (declared_ == 0) line.fail(1, "ranks: must be at least 1");
        declared_line_ = line_no_;
        continue;
      }
      if (head == "---") {
        if (fields.size() != 1) line.fail(1, "expected nothing after '---'");
        builder_.end_exchange();
        continue;
      }
      if (!head.empty() && (head[0] < '0' || head[0] > '9') && head[0] != '-') {
        const auto& keywords = pattern_keywords();
        auto k = std::find_if(keywords.begin(), keywords.end(),
                              [&](const PatternKeyword& kw) { return kw.keyword == head; });
        if (k == keywords.end()) {
          line.fail(0, "unknown step '" + std::string(head) + "'" + did_you_mean(head, keyword_names()) +
                           "; expected 'src dst bytes' or one of: " + join(keyword_names()));
        }
        builder_.add_step(k->parse(line), line);
        highest_ = std::max(highest_, line.highest_rank());
        continue;
      }
      if (fields.size() < 3 || fields.size() > 5) {
        line.fail(0, "expected 'src dst bytes [@start] [type=DATATYPE]' (or 'ranks N'), got " +
                         std::to_string(fields.size()) + " fields");
      }
      PatternMessage m;
      m.src = line.rank(0, "src");
      m.dst = line.rank(1, "dst");
      m.bytes = line.size_field(2, "bytes");
      if (m.bytes > limits_.max_message_bytes) {
        line.fail(2, "bytes: at most " + limits_.max_message_bytes_text + ", got " + std::to_string(m.bytes));
      }
      bool have_start = false, have_type = false;
      for (std::size_t f = 3; f < fields.size(); ++f) {
        if (!have_start && !fields[f].empty() && fields[f][0] == '@') {
          const std::string_view text = fields[f].substr(1);
          const auto start = units::parse_duration(text);
          if (!start) {
            if (auto breach = units::limit_breach(units::QuantityKind::duration, text); !breach.empty()) {
              line.refuse(f, "start: " + breach);
            }
            line.fail(f, "start: expected @ and " + std::string(units::kDurationHelp) + ", got '" +
                             std::string(fields[f]) + "'");
          }
          m.start = *start;
          have_start = true;
        } else if (!have_type && fields[f].substr(0, 5) == "type=") {
          std::string error;
          const auto type = parse_datatype(fields[f].substr(5), error);
          if (!type) line.fail(f, "type=: expected " + error + ", got '" + std::string(fields[f].substr(5)) + "'");
          m.datatype = builder_.datatype_index(*type, line, f);
          have_type = true;
        } else {
          line.fail(f, "expected '@TIME' (a start offset such as @2ms) or 'type=DATATYPE' (each once), got '" +
                           std::string(fields[f]) + "'");
        }
      }
      highest_ = std::max(highest_, line.highest_rank());
      builder_.add_message(m, line);
    }
    if (in.bad()) throw Error("error while reading '" + name_ + "'");
  }

  // Message lines that scan_chunk() read (a FastRun): added at once if they
  // pass every check that depends on what came before them (the declared
  // ranks, the byte limit, the message count); otherwise their text is read
  // line by line, which reports the first failing line exactly as always.
  void add_run(const FastRun& run) {
    bool valid =
        run.messages.size() <= limits::kMaxMessages - std::min(builder_.total_messages(), limits::kMaxMessages);
    int highest = highest_;
    for (const auto& m : run.messages) {
      if (!valid) break;
      valid = m.bytes <= limits_.max_message_bytes && (declared_ < 0 || std::max(m.src, m.dst) < declared_);
      highest = std::max({highest, m.src, m.dst});
    }
    if (!valid) {
      std::istringstream in{std::string(run.text)};
      read_lines(in);
      return;
    }
    if (!run.messages.empty()) {
      builder_.add_checked_messages(run.messages,
                                    SourceLocation{name_, line_no_ + 1 + run.first_message_line, run.first_column});
    }
    highest_ = highest;
    line_no_ += run.lines;
  }

  Pattern finish() {
    if (declared_ < 0 && highest_ < 0) {
      throw Error(SourceLocation{name_, 0, 0}, "the pattern names no rank and has no 'ranks N' line");
    }
    builder_.end_exchange();
    pattern_.ranks = declared_ >= 0 ? declared_ : highest_ + 1;
    return std::move(pattern_);
  }

 private:
  const std::string& name_;
  const PatternLimits& limits_;
  Pattern pattern_;
  PatternBuilder builder_;
  int declared_ = -1;
  int declared_line_ = 0;
  int highest_ = -1;
  int line_no_ = 0;
};

// Splits `text` into about `parts` pieces at line ends.
std::vector<std::string_view> split_at_lines(std::string_view text, std::size_t parts) {
  std::vector<std::string_view> pieces;
  while (pieces.size() + 1 < parts && !text.empty()) {
    const std::size_t cut = text.find('\n', text.size() / (parts - pieces.size()));
    if (cut == std::string_view::npos) break;
    pieces.push_back(text.substr(0, cut + 1));
    text.remove_prefix(cut + 1);
  }
  pieces.push_back(text);
  return pieces;
}

}  // namespace

Pattern read_pattern(std::istream& in, const std::string& name, const PatternLimits& limits) {
  PatternReader reader(name, limits);
  reader.read_lines(in);
  return reader.finish();
}

// A large pattern (millions of message lines) is scanned in pieces on two
// threads (scan_chunk: each line on its own, without the state that earlier
// lines set), then the pieces are taken in file order on this thread: the
// same pattern, and the same error for the same first bad line, as reading
// it line by line.
Pattern read_pattern(const std::string& path, const PatternLimits& limits) {
  // Only a regular file of a reasonable size is read whole: a device or a
  // pipe (/dev/zero) is read line by line, where the line limit stops it.
  constexpr std::uintmax_t kParallelBytes = 1 << 20, kWholeBytes = std::uintmax_t{1} << 30;
  std::error_code error;
  const std::uintmax_t size =
      std::filesystem::is_regular_file(path, error) ? std::filesystem::file_size(path, error) : 0;
  std::ifstream in = open_input(path, "cannot open pattern file '" + path + "'");
  if (error || size < kParallelBytes || size > kWholeBytes || std::thread::hardware_concurrency() < 2) {
    return read_pattern(in, path, limits);
  }
  std::string text;
  {
    std::ostringstream whole;
    whole << in.rdbuf();
    if (in.bad()) throw Error("error while reading '" + path + "'");
    text = std::move(whole).str();
  }
  const auto pieces = split_at_lines(text, 2);
  std::vector<std::future<std::vector<FastRun>>> scans;
  for (std::size_t i = 1; i < pieces.size(); ++i) {
    scans.push_back(std::async(std::launch::async, scan_chunk, pieces[i]));
  }
  PatternReader reader(path, limits);
  auto take = [&reader](const std::vector<FastRun>& runs) {
    for (const auto& run : runs) {
      if (run.fast) {
        reader.add_run(run);
      } else {
        std::istringstream in{std::string(run.text)};
        reader.read_lines(in);
      }
    }
  };
  take(scan_chunk(pieces[0]));
  for (auto& scan : scans) take(scan.get());
  return reader.finish();
}

void write_pattern(std::ostream& out, const ManyPairPattern& pattern, const std::string& header_comment) {
  std::string_view rest = header_comment;
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    out << "# " << rest.substr(0, nl) << "\n";
    if (nl == std::string_view::npos) break;
    rest = rest.substr(nl + 1);
  }
  out << "ranks " << pattern.ranks << "\n";
  for (const auto& m : pattern.messages) {
    out << m.src << ' ' << m.dst << ' ' << m.bytes;
    if (m.start > 0) out << " @" << m.start;
    if (m.datatype != 0) out << " type=" << pattern.datatypes.at(m.datatype).name();
    out << '\n';
  }
}

}  // namespace contend
