#pragma once
// How inter-node flows share the network beyond the NICs (issue: "inter-node
// flows additionally share the fabric's links beyond the NIC"). The staircase
// gives each node pair (A, B) a demand D_AB: the bandwidth its flows would get
// from the receiving node's group alone. Each fabric link shares its capacity
// max-min among the pairs crossing it (water-filling on their demands); a
// pair's cap is the smallest share along its route, and its flows move at
// phi_AB = min(1, cap / D_AB) of their staircase rate.
//
// Max-min per link on the pairs' unconstrained demands, no global solve (why:
// models/staircase/README.md). Only demands into one node change per event,
// so an update costs the pairs into that node and the links they cross.
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace contend {

class FabricSharing {
 public:
  struct LinkRef {
    const void* key;  // identifies the link (the same key, the same link)
    double capacity;  // B/s
  };
  // route(a, b): the fabric links between nodes a and b, asked once per pair.
  explicit FabricSharing(std::function<std::vector<LinkRef>(int, int)> route);

  // The demands of every pair into node `dst` (pairs not listed have none).
  // Appends to `changed` the pairs (src, dst) whose factor changed.
  void set_demands(int dst, const std::vector<std::pair<int, double>>& demand_by_source,
                   std::vector<std::pair<int, int>>& changed);
  // phi of the pair (src, dst): 1 when the fabric does not hold it back.
  double factor(int src, int dst) const;
  bool any_overloaded() const { return overloaded_links_ > 0; }
  // The link that caps the pair (src, dst): its key, capacity and max-min
  // share per pair; key null when the fabric does not hold the pair back.
  struct Bottleneck {
    const void* key = nullptr;
    double capacity = 0, share = 0;
  };
  Bottleneck bottleneck(int src, int dst) const;

 private:
  struct Pair {
    int src, dst;
    double demand = 0;
    double factor = 1;
    std::vector<int> links;
    unsigned mark = 0;  // last update that touched it
  };
  struct LinkState {
    double capacity;
    double load = 0;                  // sum of the demands of the pairs crossing it
    double water_level = kUnlimited;  // max-min share per pair when overloaded
    std::vector<int> pairs;           // every pair that ever crossed it
    const void* key = nullptr;
    unsigned mark = 0;
  };
  static constexpr double kUnlimited = 1e300;
  static long long key(int src, int dst) { return (static_cast<long long>(src) << 32) | static_cast<unsigned>(dst); }

  int pair_index(int src, int dst);
  void refill(int link);
  void refactor(int pair, std::vector<std::pair<int, int>>& changed);

  std::function<std::vector<LinkRef>(int, int)> route_;
  std::unordered_map<const void*, int> link_of_;
  std::vector<LinkState> links_;
  std::vector<Pair> pairs_;
  std::unordered_map<long long, int> pair_of_;
  std::vector<std::vector<int>> pairs_into_;  // by dst: pairs with a demand set
  int overloaded_links_ = 0;
  unsigned update_ = 0;  // stamps marks, instead of clearing sets
};

}  // namespace contend
