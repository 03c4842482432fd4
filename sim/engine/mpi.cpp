#include "engine/mpi.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace contend {

double Mpi::now() const { return simgrid::s4u::Engine::get_clock(); }

}  // namespace contend
