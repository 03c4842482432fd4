#include "sim/core/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace contend {

// Optimal string alignment distance: insertions, deletions, substitutions
// and transpositions of neighbours ("flaot" is one edit from "float").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(word, candidate);
    if (!best || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  // Accept up to a third of the word's length as typos (at least one edit).
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  if (best && best_distance <= limit) return best;
  return std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  if (auto match = closest_match(word, candidates)) return " (did you mean '" + *match + "'?)";
  return "";
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

std::string_view without_comment(std::string_view line) { return line.substr(0, line.find('#')); }

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::vector<std::string_view> split_blanks(std::string_view s) {
  std::vector<std::string_view> out;
  split_blanks(s, out);
  return out;
}

void split_blanks(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    if (i >= s.size()) break;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r') ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
}

}  // namespace contend

namespace contend {
namespace {

// The number `text` spells, whole (strtod's forms: 1e3, nan, inf, 0x1p3).
std::optional<double> whole_number(const std::string& text) {
  const std::string trimmed(trim(text));
  if (trimmed.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(trimmed.c_str(), &end);
  if (end != trimmed.c_str() + trimmed.size()) return std::nullopt;
  return value;
}

}  // namespace

std::string finite_number_problem(const std::string& text) {
  const auto value = whole_number(text);
  if (!value || std::isfinite(*value)) return "";
  return "expected a finite number, got '" + text + "'";
}

std::string negative_number_problem(const std::string& text) {
  const auto value = whole_number(text);
  if (!value || !(*value < 0)) return "";
  return "expected a number >= 0, got '" + text + "'";
}

}  // namespace contend
