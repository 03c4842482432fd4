#include "models/maxmin/age_sharing.hpp"

#include <algorithm>
#include <cmath>

namespace contend {

SharingOptions parse_maxmin_sharing(const YamlField& section) {
  SharingOptions o;
  if (!section.present()) return o;
  section.allow_only({"sharing"});
  const auto sharing = section.child("sharing");
  if (!sharing.present()) return o;
  sharing.allow_only({"age_decay"});
  if (const auto decay = sharing.child("age_decay"); decay.present()) {
    o.age_decay = decay.as_number();
    if (!(o.age_decay > 0 && o.age_decay <= 1)) decay.fail("a weight ratio in (0, 1]");
  }
  return o;
}

double AgeWeights::weight(std::size_t rank) const { return std::pow(decay_, static_cast<double>(rank)); }

void AgeWeights::activate(std::uint32_t route, MaxMinSystem::LinkId link, Changes& changes) {
  auto& routes = active_[link];
  routes.push_back(route);
  changes.emplace_back(route, weight(routes.size() - 1));
}

void AgeWeights::deactivate(std::uint32_t route, MaxMinSystem::LinkId link, Changes& changes) {
  auto& routes = active_[link];
  const auto it = std::find(routes.begin(), routes.end(), route);
  if (it == routes.end()) return;
  // The younger ones move up one rank.
  for (auto later = routes.erase(it); later != routes.end(); ++later)
    changes.emplace_back(*later, weight(static_cast<std::size_t>(later - routes.begin())));
}

}  // namespace contend
