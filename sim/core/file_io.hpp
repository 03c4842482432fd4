#pragma once
// Whole files in and out.
#include <fstream>
#include <functional>
#include <istream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

namespace contend {

// The file's bytes, at most limits::kMaxTextFileBytes of them; throws
// "cannot open 'path' for reading: <why>" (see open_input).
std::string read_text(const std::string& path);

// `path` opened for reading. Throws contend::Error "<cannot_open>: <why>"
// (no such file, permission denied), or "'path' is a directory, expected a
// file" (std::ifstream opens a directory and then reads nothing from it).
// `cannot_open` defaults to "cannot open 'path' for reading".
std::ifstream open_input(const std::string& path, const std::string& cannot_open = {});

// std::getline with a bound: a line longer than limits::kMaxLineBytes
// (a binary file, /dev/zero) is an error naming `file`:`line_number`
// rather than a string that grows until memory runs out.
bool read_line(std::istream& in, std::string& line, const std::string& file, int line_number);

// Each file read by `read` (a function of the path returning a container),
// the results one after the other: the raw CSVs of several runs as one.
template <typename Read>
auto read_all(const std::vector<std::string>& paths, Read read) {
  decltype(read(std::string())) all;
  for (const auto& path : paths) {
    auto more = read(path);
    all.insert(all.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  return all;
}

// "a.csv, b.csv": the files' names without their directories, to say in an
// output where its data came from.
std::string file_names(const std::vector<std::string>& paths);

// Output files are written completely or not at all: the content goes to a
// temporary file beside the target, which is renamed over it only once every
// byte has been written and flushed.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace contend
