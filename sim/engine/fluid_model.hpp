#pragma once
// Base for models that compute transfer rates themselves (staircase, flow
// cut, tau-Lop, ...). A derived model keeps its own fluid state and answers
// three questions; this class runs it on SimGrid's clock from one daemon
// actor and delivers completed transfers to the engine.
//
// The derived model's own timeline is authoritative: completions carry the
// exact times the model computed, not SimGrid's clock (which only tells the
// actor when to wake). A start may arrive at a clock value a rounding error
// before the model's last event; models clamp such times to their own.
#include <simgrid/s4u.hpp>

#include <limits>
#include <utility>
#include <vector>

#include "sim/engine/model.hpp"

namespace contend {

class FluidModel : public CommunicationModel {
 public:
  explicit FluidModel(const ModelContext& context);
  void start(TransferId id) final;
  bool delivers_by_itself() const final { return true; }

 protected:
  struct Completion {
    TransferId id;
    double time;
  };
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // Transfer `id` starts moving at `now` (its data: sink().transfer(id)).
  virtual void on_start(TransferId id, double now) = 0;
  // The earliest time at which the model's state changes by itself (a
  // completion, the end of a latency phase, ...), kNever if none.
  virtual double next_event() const = 0;
  // Brings the model to time `now` (the time next_event() returned) and
  // appends every transfer completed at or before it, with its exact time.
  virtual void advance(double now, std::vector<Completion>& completed) = 0;

  TransferSink& sink() { return sink_; }
  const ModelContext& context() const { return context_; }

 private:
  void run_network_actor();

  ModelContext context_;
  TransferSink& sink_;
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr wakeup_;
  // When the actor sleeps, the time it will wake at; -infinity while it runs
  // or has been notified (it re-plans anyway). A start notifies it only if it
  // makes an earlier event: most starts (a million at t = 0 in a large
  // pattern) cost no context switch.
  double planned_wakeup_ = -kNever;
  std::vector<Completion> completed_;
};

}  // namespace contend
