#pragma once
// `contend simulate --step`: every instant at which a flow started or ended
// or a rate changed, in time order, with the flows that started and ended
// and the rate of every flow moving after it. Readable by a person, for
// small runs (limits::kMaxStepRanks ranks, limits::kMaxStepInstants
// instants); docs/timelines.md has an example.
#include <cstdint>
#include <map>
#include <ostream>
#include <vector>

#include "sim/engine/model.hpp"

namespace contend {

class StepLog {
 public:
  StepLog(const CommunicationModel& model, const TransferSink& sink, std::ostream& out)
      : model_(model), sink_(sink), out_(out) {}

  // SimGrid's clock moved on to `now`: everything of the instant before it
  // has happened (every actor ready then has run), so it is reported.
  void clock_advanced(double now);
  // The run is over: reports its last instant.
  void finish(double now);
  // Whether the run had more than limits::kMaxStepInstants instants (the
  // report stopped there).
  bool too_long() const { return too_long_; }

 private:
  struct Flow {
    int src = 0, dst = 0;
    std::uint64_t bytes = 0;
    Level level = Level::IntraSocket;
    double post = 0;  // with src, dst and bytes: tells a recycled transfer id apart
    double rate = 0;
    bool same_message(const Flow& o) const {
      return src == o.src && dst == o.dst && bytes == o.bytes && post == o.post;
    }
  };
  void report(double time);

  const CommunicationModel& model_;
  const TransferSink& sink_;
  std::ostream& out_;
  double instant_ = 0;  // the instant being gathered
  std::map<TransferId, Flow> moving_;
  std::vector<MovingTransfer> scratch_;
  std::uint64_t instants_ = 0;
  bool too_long_ = false;
};

}  // namespace contend
