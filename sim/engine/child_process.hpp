#pragma once
// Runs a job in a child process and brings its answer back. SimGrid allows
// one engine per process, so a command that needs several simulations (one
// per algorithm, per mapping, per case of a sweep) runs each in a child.
//
// The child's standard output goes to /dev/null (SimGrid may log there); the
// job's return value comes back through a pipe. An exception thrown by the
// job is rethrown in the parent as contend::Error with its message; a child
// that dies without answering is an error naming its exit status.
#include <functional>
#include <string>

namespace contend {

std::string run_in_child_process(const std::function<std::string()>& job);

}  // namespace contend
