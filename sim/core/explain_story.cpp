#include "sim/core/explain_story.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <charconv>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace contend {

namespace {

template <class Int>
bool parse_whole(std::string_view text, Int& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && end == text.data() + text.size() && !text.empty();
}

std::string where(const RankResult& r) {
  return fmt::format("node {} socket {} core {}", r.place.node, r.place.socket, r.place.core);
}

std::string name(const MessageAttribution& m) {
  return fmt::format("{}->{} #{} (id {}, tag {}, {}, {})", m.src, m.dst, m.seq, m.id, m.tag,
                     units::human_size(static_cast<double>(m.bytes)), level_name(m.level));
}

const RankResult& rank_of(const Results& r, int rank) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= r.ranks.size()) {
    throw Error(fmt::format("--rank {}: the run has {} ranks (0..{})", rank, r.ranks.size(),
                            static_cast<long long>(r.ranks.size()) - 1));
  }
  return r.ranks[static_cast<std::size_t>(rank)];
}

void tell_rank(std::ostream& out, const Results& r, const RankResult& rank, bool slowest, int last) {
  fmt::print(out, "rank {} ({}) finished at {}{}\n", rank.rank, where(rank), units::human_duration(rank.total_time),
             slowest ? fmt::format(", the slowest of {} ranks", r.ranks.size()) : "");
  fmt::print(out, "  its last incoming message completed at {}, its last outgoing one was delivered at {}\n",
             units::human_duration(rank.recv_time), units::human_duration(rank.send_time));
  std::vector<const MessageAttribution*> mine;
  for (const auto& m : r.attribution) {
    if (m.src == rank.rank || m.dst == rank.rank) mine.push_back(&m);
  }
  if (mine.empty()) {
    fmt::print(out, "  it exchanged no messages\n");
    return;
  }
  // Latest end first; ties by id, so the story does not depend on event order.
  std::stable_sort(mine.begin(), mine.end(), [](const MessageAttribution* a, const MessageAttribution* b) {
    return a->end != b->end ? a->end > b->end : a->id < b->id;
  });
  const std::size_t shown = std::min(mine.size(), static_cast<std::size_t>(std::max(last, 1)));
  fmt::print(out, "  the {} of its {} messages that ended last:\n", shown, mine.size());
  for (std::size_t i = 0; i < shown; ++i) write_message_story(out, *mine[i], 2);
}

}  // namespace

MessageKey parse_message_key(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t from = 0;
  while (true) {
    const auto colon = text.find(':', from);
    parts.push_back(text.substr(from, colon == std::string_view::npos ? std::string_view::npos : colon - from));
    if (colon == std::string_view::npos) break;
    from = colon + 1;
  }
  MessageKey key;
  if ((parts.size() == 2 || parts.size() == 3) && parse_whole(parts[0], key.src) && parse_whole(parts[1], key.dst) &&
      (parts.size() == 2 || parse_whole(parts[2], key.seq)) && key.src >= 0 && key.dst >= 0) {
    return key;
  }
  throw Error(
      fmt::format("--message '{}': expected SRC:DST or SRC:DST:K (ranks and the message's number from 0, "
                  "e.g. 3:5 or 3:5:1)",
                  text));
}

namespace {

void tell(std::ostream& out, const Results& r, const StoryRequest& request) {
  fmt::print(out, "contend explain: {} on {} ({} ranks, mapping {}), model {}\n", r.workload, r.platform,
             r.ranks.size(), r.mapping, r.model);
  if (request.message) {
    const MessageKey& k = *request.message;
    std::uint32_t count = 0;
    for (const auto& m : r.attribution) {
      if (m.src != k.src || m.dst != k.dst) continue;
      ++count;
      if (m.seq != k.seq) continue;
      write_message_story(out, m, 0);
      const RankResult& receiver = rank_of(r, m.dst);
      fmt::print(out, "rank {} (its receiver) finished at {}\n", receiver.rank,
                 units::human_duration(receiver.total_time));
      return;
    }
    throw Error(fmt::format("--message {}:{}:{}: the run delivered {} messages from rank {} to rank {}", k.src, k.dst,
                            k.seq, count, k.src, k.dst));
  }
  if (r.ranks.empty()) return;
  if (request.rank) {
    tell_rank(out, r, rank_of(r, *request.rank), false, request.last);
    return;
  }
  // The slowest rank; the lowest number among equals.
  const RankResult* slowest = &r.ranks.front();
  for (const auto& x : r.ranks) {
    if (x.total_time > slowest->total_time) slowest = &x;
  }
  tell_rank(out, r, *slowest, true, request.last);
}

}  // namespace

void write_message_story(std::ostream& out, const MessageAttribution& m, int indent) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  fmt::print(out, "{}message {}\n", pad, name(m));
  fmt::print(out, "{}  posted at {}, data handed to the model at {}, last byte at {}\n", pad,
             units::human_duration(m.post), units::human_duration(m.start), units::human_duration(m.end));
  const std::string limit = m.limited_by();
  fmt::print(out, "{}  slowdown {:.4g}: {} from the hand-over against {} alone; limited by {} for {}\n", pad,
             m.slowdown(), units::human_duration(m.end - m.start), units::human_duration(m.contention_free), limit,
             units::human_duration(m.time_on(limit)));
  for (const auto& i : m.intervals) {
    const std::string rate = i.rate > 0 ? " at " + units::format_bandwidth(i.rate) : "";
    fmt::print(out, "{}    {} .. {} ({}) {}{}: {}\n", pad, units::human_duration(i.begin), units::human_duration(i.end),
               units::human_duration(i.end - i.begin), i.resource, rate, i.detail);
  }
}

void write_story(std::ostream& out, const Results& r, const StoryRequest& request) {
  if (!r.attributed) throw Error("internal error: explain needs an attributed run");
  // Told in full before anything is written: an unknown rank or message
  // leaves no partial story.
  std::ostringstream story;
  tell(story, r, request);
  out << story.str();
}

}  // namespace contend
