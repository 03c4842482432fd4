#pragma once
// Output files are written completely or not at all: the content goes to a
// temporary file beside the target, which is renamed over it only once every
// byte has been written and flushed.
#include <functional>
#include <ostream>
#include <string>

namespace contend {

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace contend
