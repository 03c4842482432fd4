#pragma once
// Whole files in and out.
#include <functional>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

namespace contend {

// The file's bytes; throws "cannot open 'path' for reading".
std::string read_text(const std::string& path);

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
