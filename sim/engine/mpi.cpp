#include "engine/mpi.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace contend {

double Mpi::now() const { return simgrid::s4u::Engine::get_clock(); }

const coll::CollectiveSettings& Mpi::collective_settings() const {
  static const coll::CollectiveSettings defaults;
  return collectives_ ? *collectives_ : defaults;
}

}  // namespace contend
