#pragma once
// An option of the maxmin model (`models: maxmin: {sharing: {age_decay: g}}`):
// flows into a node share its incoming link by age instead of fairly, as
// concurrent TCP flows do behind a deep switch queue (docs/accuracy.md, "How
// TCP flows share a link": CUBIC's window keeps a flow already running ahead
// of one that joins). On each node's last inter-node link (the route's last
// link: the destination's NIC in), the route classes with flows are ranked
// by when they became active; the m-th (0 = the oldest) weighs g^m, and the
// max-min solver shares in proportion to the weights (its penalty divided by
// the weight). Fair sharing (g = 1, the default) leaves every penalty as it is.
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/maxmin/max_min_system.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend {

struct SharingOptions {
  double age_decay = 1;  // g in (0, 1]; 1 = max-min fair
  bool fair() const { return age_decay == 1; }
};

// `models: maxmin:` of a platform file (absent: fair sharing).
SharingOptions parse_maxmin_sharing(const YamlField& section);

class AgeWeights {
 public:
  explicit AgeWeights(double decay) : decay_(decay) {}

  // The weight changes a route class becoming active (first flow) or idle
  // (last flow gone) on `link` causes: {route, its new weight}.
  using Changes = std::vector<std::pair<std::uint32_t, double>>;
  void activate(std::uint32_t route, MaxMinSystem::LinkId link, Changes& changes);
  void deactivate(std::uint32_t route, MaxMinSystem::LinkId link, Changes& changes);

 private:
  double weight(std::size_t rank) const;

  double decay_;
  // The active route classes on each link, oldest first.
  std::unordered_map<MaxMinSystem::LinkId, std::vector<std::uint32_t>> active_;
};

}  // namespace contend
