#pragma once

// The state behind a Communicator. Internal to the core.

#include "collectives/engine.hpp"

#include <plinth/collectives.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

struct LoadedApi;

/// The collectives library of `api`, or why there is none (also for plugins older than SDK
/// 1.4, which have no collectives()). Throws nothing the backend does not.
backend::CollectivesLibrary collectives_library(const LoadedApi& api);

/// The refusal of `call` (e.g. "Communicator::join") on `api`, which has no collectives
/// library (`library`): "<call> needs a collectives library, and the <api> backend has none",
/// with the backend's reason where it says more than that. Throws std::bad_alloc only.
std::string no_collectives_library_message(std::string_view call, const LoadedApi& api,
                                           const backend::CollectivesLibrary& library);

struct CommunicatorImpl {
  CommunicatorImpl(MultiQueue local_queues, std::size_t rank_count,
                   std::vector<std::size_t> local_ranks, std::string name,
                   std::unique_ptr<CollectiveEngine> collective_engine)
      : queues(std::move(local_queues)),
        size(rank_count),
        ranks(std::move(local_ranks)),
        engine_name(std::move(name)),
        engine(std::move(collective_engine)) {}
  CommunicatorImpl(const CommunicatorImpl&) = delete;
  CommunicatorImpl& operator=(const CommunicatorImpl&) = delete;
  /// Synchronizes the queues (the library's communicator may be destroyed only after its
  /// work is done), then destroys the engine before the queues and their context.
  ~CommunicatorImpl();

  MultiQueue queues;  // first: outlives the engine
  std::size_t size;
  std::vector<std::size_t> ranks;
  std::string engine_name;
  std::unique_ptr<CollectiveEngine> engine;
};

/// The arrays a public call names for each local rank (MultiArray parts in the queues'
/// order, or the one Array), before checking. Not owned: the public call's arguments hold them.
struct CollectiveArgs {
  const char* collective;  // "all_reduce", ... for messages
  backend::CollectiveKind kind;
  std::vector<const Array*> src;  // one per local rank
  std::vector<const Array*> dst;
  const ReduceOp* op = nullptr;  // for reductions
  std::size_t root = 0;
};

/// One Array per local rank from a MultiArray form's `array` (argument `name`). Throws
/// LogicError unless its devices are exactly the communicator's.
std::vector<const Array*> rank_parts(const CommunicatorImpl& comm, const char* collective,
                                     const char* name, const MultiArray& array);
/// The one local rank's Array from an Array form. Throws LogicError unless the communicator
/// has exactly one local rank.
std::vector<const Array*> rank_parts(const CommunicatorImpl& comm, const char* collective,
                                     const Array& array);

/// Checks `args` against `comm` and the dtype and op rules; returns the call to run, or
/// nothing for arrays of no elements. Throws LogicError naming the collective, the argument
/// and the problem.
std::optional<CheckedCollective> check_collective(const CommunicatorImpl& comm,
                                                  const CollectiveArgs& args);

}  // namespace plinth::detail
