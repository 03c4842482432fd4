#pragma once
// The flow-cut table of one network/MPI pair (Martinasso & Mehaut, RR-5910,
// Table 2), read from a platform file's `models: flowcut:` section:
//
//   flowcut:
//     source: free text (where the values come from)              optional
//     same_direction:            # C<-X-> (outgo) and C->X<- (income) chains, R2
//       odd_conflicts: [1]       # chains with an odd number of conflicts
//       even_conflicts: [1/2, 2] # chains with an even number of conflicts
//     outgo_income: {incoming: 0, outgoing: 3}   # C->X->, (0, 3) for GigaEth
//     alone: {include: 1/2, start_end: 0}        # 1-communication conflicts
//
// A cut is a number >= 0 or a fraction such as 4/3. A sequence is repeated
// along a chain: [1/2, 2] is the paper's (1/2, 2, 1/2, 2, ..., 1/2).
// models/flowcut/README.md explains each entry and the reading of the paper.
#include <string>
#include <vector>

#include "sim/core/yaml_field.hpp"

namespace contend {

struct FlowCutTable {
  std::string source;
  std::vector<double> odd_conflicts{1.0};  // along a same-direction chain, repeated
  std::vector<double> even_conflicts{1.0};
  double incoming = 0;   // C->X->: the flow entering X
  double outgoing = 0;   // C->X->: the flow leaving X
  double include = 0;    // a flow left alone by R1 with other flows at both ends
  double start_end = 0;  // a flow left alone by R1 with other flows at one end only
};

// Reads `models.flowcut` (errors name file:line:col and the key). An absent
// section is an error: the model has no defaults for a network.
FlowCutTable parse_flowcut_table(const YamlField& section);

// One cut: "3", "0.75", "3/4". Throws with `field`'s location otherwise.
double parse_cut(const YamlField& field);

}  // namespace contend
