#include "calibrate/taulop/bench/tuned_forcing.hpp"

#include <mpi.h>

#include <sstream>
#include <vector>

namespace contend::calibrate {
namespace {

// Opens the MPI_T session once; MPI_T_finalize is left to process exit
// (MPI_T sessions are reference counted and harmless to keep).
bool tool_interface_ready() {
  static const bool ready = [] {
    int provided = 0;
    return MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS;
  }();
  return ready;
}

struct Cvar {
  int index = -1;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int bind = MPI_T_BIND_NO_OBJECT;
};

std::optional<Cvar> find_cvar(const std::string& name) {
  if (!tool_interface_ready()) return std::nullopt;
  Cvar v;
  if (MPI_T_cvar_get_index(name.c_str(), &v.index) != MPI_SUCCESS) return std::nullopt;
  char found[256], description[1024];
  int name_length = sizeof found, description_length = sizeof description, verbosity = 0, scope = 0;
  MPI_T_enum enumtype{};
  if (MPI_T_cvar_get_info(v.index, found, &name_length, &verbosity, &v.type, &enumtype, description,
                          &description_length, &v.bind, &scope) != MPI_SUCCESS) {
    return std::nullopt;
  }
  if (v.bind != MPI_T_BIND_NO_OBJECT) return std::nullopt;  // per-object variables are not settings
  return v;
}

}  // namespace

std::optional<long long> read_int_cvar(const std::string& name) {
  const auto v = find_cvar(name);
  if (!v) return std::nullopt;
  MPI_T_cvar_handle handle{};
  int count = 0;
  if (MPI_T_cvar_handle_alloc(v->index, nullptr, &handle, &count) != MPI_SUCCESS || count != 1) return std::nullopt;
  std::optional<long long> out;
  if (v->type == MPI_C_BOOL) {  // Open MPI's boolean parameters
    bool value = false;
    if (MPI_T_cvar_read(handle, &value) == MPI_SUCCESS) out = value ? 1 : 0;
  } else if (v->type == MPI_INT) {
    int value = 0;
    if (MPI_T_cvar_read(handle, &value) == MPI_SUCCESS) out = value;
  } else if (v->type == MPI_UNSIGNED) {
    unsigned value = 0;
    if (MPI_T_cvar_read(handle, &value) == MPI_SUCCESS) out = value;
  } else if (v->type == MPI_LONG_LONG || v->type == MPI_UNSIGNED_LONG_LONG || v->type == MPI_LONG ||
             v->type == MPI_UNSIGNED_LONG) {
    long long value = 0;
    if (MPI_T_cvar_read(handle, &value) == MPI_SUCCESS) out = value;
  }
  MPI_T_cvar_handle_free(&handle);
  return out;
}

std::optional<std::string> read_string_cvar(const std::string& name) {
  const auto v = find_cvar(name);
  if (!v || v->type != MPI_CHAR) return std::nullopt;
  MPI_T_cvar_handle handle{};
  int count = 0;
  if (MPI_T_cvar_handle_alloc(v->index, nullptr, &handle, &count) != MPI_SUCCESS) return std::nullopt;
  std::vector<char> text(static_cast<std::size_t>(count) + 1, '\0');
  std::optional<std::string> out;
  if (count == 0 || MPI_T_cvar_read(handle, text.data()) == MPI_SUCCESS) out = std::string(text.data());
  MPI_T_cvar_handle_free(&handle);
  return out;
}

bool component_allowed(const std::string& list, const std::string& component) {
  if (list.empty()) return true;
  const bool exclude = list[0] == '^';
  std::istringstream in(exclude ? list.substr(1) : list);
  bool listed = false;
  for (std::string item; std::getline(in, item, ',');) {
    // Open MPI 4 names the shared-memory BTL vader and accepts sm as its alias.
    if (item == component || (component == "vader" && item == "sm")) listed = true;
  }
  return exclude ? !listed : listed;
}

}  // namespace contend::calibrate
