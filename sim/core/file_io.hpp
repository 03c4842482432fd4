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

// Every output file of contend, and of its MPI programs, is written here
// (docs/commands.md, "Output files"):
//  - "-" is standard output; /dev/stdout, /dev/stderr, /dev/fd/N and
//    /proc/self/fd/N are this process's own descriptors, written where they
//    stand (a shell redirection or a process substitution keeps what was
//    written before);
//  - a FIFO, a terminal or another device is streamed to;
//  - anything else is written completely or not at all: into a temporary file
//    beside the target, renamed over it once every byte has been written. A
//    symbolic link stays and its target is replaced; a replaced file keeps
//    its permissions. SIGINT, SIGTERM and SIGHUP wait while the temporary
//    file exists, so an interrupted run leaves no partial file.
// Throws "cannot write 'path': why" (a directory, a missing or read-only
// folder, a full disk); the target is then as it was.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace contend
