#pragma once
// Small text helpers shared by parsers and the CLI.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace contend {

// Levenshtein distance between two strings.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` if it is close enough to be a plausible
// misspelling (Ninja's "did you mean"), otherwise nothing.
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "" — ready to append to an error message.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c"
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

std::string_view trim(std::string_view s);

// The line up to its first '#': what the line says without its comment.
std::string_view without_comment(std::string_view line);

// Splits on runs of blanks (spaces and tabs).
std::vector<std::string_view> split_blanks(std::string_view s);
// The same into `fields` (cleared first), reusing its capacity: no
// allocation per line for readers of many lines.
void split_blanks(std::string_view s, std::vector<std::string_view>& fields);

// Checks of command-line numbers, in the form CLI11's validators take: ""
// when the text is acceptable, else what is wrong.
// "expected a finite number, got 'nan'" for NaN and the infinities; text that
// is no number at all is left to the option's own conversion.
std::string finite_number_problem(const std::string& text);
// "expected a number >= 0, got '-1'": a negative number where none makes
// sense (an unsigned option would otherwise wrap -1 to 2^64 - 1).
std::string negative_number_problem(const std::string& text);

}  // namespace contend
