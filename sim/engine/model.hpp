#pragma once
// The one interface every communication model implements, and the registry
// that finds models by name (`--model NAME`).
//
// The engine owns MPI semantics (matching, eager/rendezvous, requests); a
// model only decides how fast matched data moves. The engine calls start()
// when a message's data begins to move; the model calls sink.deliver() when
// its last byte has arrived. There are two ways to do that:
//  - drive SimGrid activities (simgrid-lmm: SimGrid's own LMM sharing) and
//    override await(), where the waiting rank blocks on the activity;
//  - compute rates itself (FluidModel, fluid_model.hpp) on SimGrid's clock,
//    from its own actor, which is how models beyond SimGrid's reach
//    (staircase groups, flow cuts, ...) stay fast at millions of messages.
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/yaml_field.hpp"
#include "sim/engine/transfer.hpp"

namespace contend {

class AttributionRecorder;
class ResourceLoads;
class SimgridPlatform;

// What models may ask of the engine.
class TransferSink {
 public:
  virtual ~TransferSink() = default;
  virtual const Transfer& transfer(TransferId id) const = 0;
  virtual const Datatype& datatype(DatatypeId id) const = 0;
  // The last byte of `id` arrived at `end_time` (<= now). Idempotent.
  virtual void deliver(TransferId id, double end_time) = 0;
  // Transport buffering: only transfer(id).release_remaining bytes of `id`
  // were undelivered at `time` (<= now), so its sender's request completes
  // then. Called once, before deliver(), for transfers with
  // release_remaining > 0 only.
  virtual void release_sender(TransferId id, double time) = 0;
};

// A transfer whose data is moving, and its rate now (bytes per second).
struct MovingTransfer {
  TransferId id;
  double rate;
};

struct ModelContext {
  const Platform& platform;
  const Mapping& mapping;
  const SimgridPlatform& simgrid;
  YamlField parameters;  // platform file: models.<name> (may be absent)
  TransferSink& sink;
  // Null unless the run records what bounded each message (attribution_recorder.hpp).
  AttributionRecorder* recorder = nullptr;
  // Null unless the run records a timeline: the model reports there the load
  // of each resource it shares, when it changes (sim/core/timeline_loads.hpp;
  // each model's README, "Timeline").
  ResourceLoads* loads = nullptr;
  // The run prints every instant (--step, step_log.hpp): a model whose flows
  // change at instants no event of its own marks wakes up then too.
  bool step = false;
};

class CommunicationModel {
 public:
  virtual ~CommunicationModel() = default;
  // The data of transfer `id` starts moving now (SimGrid's clock).
  virtual void start(TransferId id) = 0;
  // Whether the model delivers transfers from its own actor (FluidModel) or
  // only when a rank awaits them (SimGrid activities). The engine lets a
  // rank waiting for many requests sleep until the last completes in the
  // first case; in the second it awaits them one by one.
  virtual bool delivers_by_itself() const = 0;
  // A rank needs `id` delivered (models that do not deliver by themselves):
  // block until it is done and deliver it.
  virtual void await(TransferId /*id*/) {}
  // MPI_Test on an undelivered transfer: models using SimGrid activities
  // check them here (and deliver if done) without blocking.
  virtual void poll(TransferId /*id*/) {}
  // CPU time (seconds) the sender spends posting `t` and the receiver
  // completing it (LogGOPS: o_s + O_s k and o_r + O_r k). The rank's core is
  // busy meanwhile (it cannot compute or start other operations; other ranks
  // on the core share it). Models without CPU costs keep 0.
  virtual double send_overhead(const Transfer& /*t*/) const { return 0; }
  virtual double receive_overhead(const Transfer& /*t*/) const { return 0; }
  // The least time between the beginnings of two consecutive sends (or two
  // consecutive receives) of a rank after `t` (LogGOPS g). Only compositions
  // charge it on the CPU (`--model A+loggops`, overheads_on_top.hpp); a model
  // used alone charges its gaps where it models them (loggops: its NIC).
  virtual double overhead_gap(const Transfer& /*t*/) const { return 0; }
  // Whether start(id) may come before t.start, SimGrid's clock behind it:
  // a rank alone on its core then posts its sends at their exact later
  // instants without sleeping each send's overhead (EngineCore::isend). The
  // model must start the transfer at t.start exactly, as if started then.
  virtual bool accepts_early_starts() const { return false; }
  // With attribution: the time from t.start to the arrival of its last byte
  // that the model gives `t` alone on the platform, with the same protocol
  // (the denominator of its slowdown; each model's README, "Attribution").
  // NaN: the model does not say.
  virtual double contention_free_time(const Transfer& /*t*/) const { return std::numeric_limits<double>::quiet_NaN(); }
  // Rank `rank` has finished its program. SimGrid cancels the activities of
  // an actor that ends, so models using SimGrid activities wait here for the
  // rank's messages still in flight (eager sends). The rank's finish time is
  // already recorded.
  virtual void drain(int /*rank*/) {}
  // For `contend simulate --step` (sim/engine/step_log.hpp): appends every
  // transfer whose data is moving now (its latency over, its last byte not
  // arrived) with its current rate, and returns true; a model that cannot
  // tell returns false (and --step refuses it).
  virtual bool moving_transfers(std::vector<MovingTransfer>& /*out*/) const { return false; }
  // Why moving_transfers() cannot tell, in a few words (--step's refusal).
  virtual std::string no_rates_reason() const { return {}; }
  // Transport buffering (docs/mpi-semantics.md): whether the model calls
  // sink.release_sender(id, time) at the exact instant only
  // t.release_remaining bytes of a transfer of `level` remain undelivered.
  // The engine refuses a platform with a transport_buffer on a level whose
  // model cannot: never ignored.
  virtual bool releases_senders(Level /*level*/) const { return false; }
  // Why it cannot, in a few words (the refusal).
  virtual std::string no_release_reason() const { return "it does not report when a sender's data fits the buffer"; }
};

struct ModelInfo {
  std::string name;
  std::string description;  // one line
  std::string citation;     // the paper (or "SimGrid" for its own models)
  // Whether its send/receive_overhead and overhead_gap are CPU costs it can
  // add on top of another model's data movement (`--model A+NAME`).
  bool charges_cpu_overheads = false;
  // Checks the model's section of a platform file (errors with file:line).
  std::function<void(const Platform&, const YamlField& parameters)> validate;
  std::function<std::unique_ptr<CommunicationModel>(const ModelContext&)> create;
};

// The ModelInfo of a model built from the parsed section of its parameters:
// `validate` parses the section (errors with file:line:col), `create` parses
// it and builds Model(context, parameters).
template <class Model, class Parse>
ModelInfo parameterized_model_info(std::string name, std::string description, std::string citation, Parse parse) {
  ModelInfo info;
  info.name = std::move(name);
  info.description = std::move(description);
  info.citation = std::move(citation);
  info.validate = [parse](const Platform&, const YamlField& parameters) { parse(parameters); };
  info.create = [parse](const ModelContext& c) -> std::unique_ptr<CommunicationModel> {
    return std::make_unique<Model>(c, parse(c.parameters));
  };
  return info;
}

class ModelRegistry {
 public:
  void add(ModelInfo info);
  // A registered model, or a composition of registered models
  // (model_composition.hpp: `A+loggops`, `intra=A,inter=B`). Throws with the
  // list of valid names (and a "did you mean") when unknown.
  ModelInfo get(std::string_view name) const;
  const std::vector<ModelInfo>& all() const { return models_; }
  std::vector<std::string> names() const;
  // Every section under `models:` must name a registered model and be valid
  // for it; `default_model:` must name a model or a composition of them.
  void validate_platform(const Platform& platform) const;

 private:
  std::vector<ModelInfo> models_;
};

}  // namespace contend
