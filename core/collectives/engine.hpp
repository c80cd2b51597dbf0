#pragma once

// What runs a checked collective: the backend's library (library_engine.cpp) or plinth's own
// copies and kernels within one process (plinth_engine.cpp). Internal to the core.

#include <plinth/array.hpp>
#include <plinth/backend/communicator.hpp>
#include <plinth/dtype.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace plinth::detail {

/// One local rank's arrays as the caller gave them (checked: C-contiguous, on the rank's
/// device, of the call's dtype). Not owned: valid while the public call runs, which is as
/// long as an engine's run() looks at them.
struct RankArrays {
  const Array* src = nullptr;
  const Array* dst = nullptr;
};

/// A collective whose arguments collective_checks.cpp has checked (never empty): what the
/// library is told, in its terms (complex as pairs of reals, moved dtypes as bytes). Built on
/// every call, so it holds pointers rather than Arrays: a call allocates little.
struct CheckedCollective {
  backend::CollectiveCall call;   ///< count > 0, root < the communicator's size
  DType dtype = DType::uint8();   ///< the working dtype, matching call.type
  std::vector<RankArrays> ranks;  ///< one per local rank, in the queues' order
};

/// One local rank's arrays as flat (one-dimensional) arrays of the call's working dtype, over
/// the same memory.
struct CollectiveArrays {
  Array src;
  Array dst;
};

/// Every local rank's arrays of `collective` as flat arrays of its working dtype (plinth's
/// own engine computes on them).
std::vector<CollectiveArrays> flat_parts(const CheckedCollective& collective);

/// Whether `a` and `b` are the same elements of one allocation (an in-place call's src and
/// dst): the same first byte and size. Throws nothing.
bool same_elements(const Array& a, const Array& b);

/// Runs checked collectives on a communicator's queues. Not thread-safe (nor is a
/// Communicator's use).
class CollectiveEngine {
 public:
  virtual ~CollectiveEngine() = default;
  /// Enqueues `collective` on the local ranks' queues and returns without waiting.
  /// Throws BackendError, or LogicError for what only this engine refuses.
  virtual void run(const CheckedCollective& collective) = 0;
  /// Whether the engine reduces `dtype` (a working dtype, not complex) at all.
  virtual bool reduces(const DType& dtype) const = 0;
};

/// The library's communicator `adapter`, driven on `queues` (the local ranks' queues).
std::unique_ptr<CollectiveEngine> make_library_engine(
    std::shared_ptr<backend::CommunicatorAdapter> adapter, MultiQueue queues);
/// plinth's own engine on `queues`: every rank is local.
std::unique_ptr<CollectiveEngine> make_plinth_engine(MultiQueue queues);

}  // namespace plinth::detail
