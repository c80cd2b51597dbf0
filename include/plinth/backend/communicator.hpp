#pragma once

// SDK 1.4: collectives through a vendor library (NCCL, RCCL). Optional: a backend without one
// leaves ApiAdapter::collectives() at its default, and the core runs collectives within one
// process with its own copies and kernels.

#include <plinth/backend/buffer.hpp>
#include <plinth/backend/queue.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace plinth::backend {

/// The element types a collectives library reduces; every backend that offers collectives
/// takes all of them (NCCL's and RCCL's common set). The core sends other dtypes as bytes
/// (uint8) where no arithmetic is involved, and complex sums as pairs of reals.
enum class CollectiveType { int8, uint8, int32, uint32, int64, uint64, float16, float32, float64 };

/// What a reduction combines elements with. `avg` is the sum divided by the number of ranks.
enum class CollectiveOp { sum, prod, min, max, avg };

/// Which collective to run, with NCCL's semantics (a rank's `count` elements each):
/// - all_reduce: every rank's recv gets the reduction of every rank's send (count elements).
/// - reduce: the root's recv gets the reduction; other ranks' recv is not touched.
/// - broadcast: every rank's recv gets the root's send (count elements).
/// - all_gather: every rank's recv (count × ranks) gets every rank's send (count), in rank
///   order.
/// - reduce_scatter: rank r's recv (count) gets part r of the reduction of every rank's send
///   (count × ranks).
enum class CollectiveKind { all_reduce, reduce, broadcast, all_gather, reduce_scatter };

/// One collective call, the same on every rank.
struct CollectiveCall {
  CollectiveKind kind = CollectiveKind::all_reduce;  ///< which collective
  /// The element type (the core maps plinth's dtypes onto these: complex sums as pairs of
  /// reals, data movement of any dtype as bytes).
  CollectiveType type = CollectiveType::uint8;
  CollectiveOp op = CollectiveOp::sum;  ///< for all_reduce, reduce and reduce_scatter
  std::size_t count = 0;                ///< elements per rank, as described above (> 0)
  std::size_t root = 0;                 ///< for reduce and broadcast: a rank of the communicator
};

/// One local rank's buffers for a call. `send` and `recv` are buffers of the rank's device
/// (recv may be send, at the same offset, for in-place calls; all_gather's in-place send is
/// recv at its rank's part, reduce_scatter's in-place recv is send at its rank's part).
/// The core has checked that both hold what the call needs from their offsets.
struct CollectivePart {
  QueueAdapter* queue = nullptr;  ///< the rank's queue, on its device: the call is ordered there
  BufferAdapter* send = nullptr;  ///< what the rank contributes (read by the collective)
  std::size_t send_offset = 0;    ///< bytes from the start of `send`
  BufferAdapter* recv = nullptr;  ///< what the rank receives (written by the collective)
  std::size_t recv_offset = 0;    ///< bytes from the start of `recv`
};

/// A communicator: ranks on devices of one process (ContextAdapter::create_communicator())
/// or one rank of many processes (ContextAdapter::join_communicator()). Destroyed by the core
/// before its context, after the queues it was called with are synchronized. Called from one
/// thread at a time.
class CommunicatorAdapter {
 public:
  virtual ~CommunicatorAdapter() = default;
  /// Enqueues `call` on every local rank's queue and returns without waiting for it.
  ///
  /// Called by every Communicator collective, on the user's thread (one thread at a time per
  /// communicator), with `parts` holding one part per local rank, in the communicator's
  /// order. Each part names the rank's queue and its send and receive buffers with offsets;
  /// the core has checked everything first (devices, sizes, overlap, dtypes and ops) and that
  /// the buffers hold `count` elements as the kind requires (CollectiveKind). NCCL: one call
  /// per part, inside ncclGroupStart/ncclGroupEnd when there are several. Throws BackendError
  /// with the library's code and text. Since SDK 1.4; required of a communicator.
  virtual void run(const CollectiveCall& call, std::span<const CollectivePart> parts) = 0;
};

/// The reason ApiAdapter::collectives() gives by default (a backend without a library); the
/// core's own messages say no more than this where it is the reason.
inline constexpr std::string_view no_collectives_library = "the backend has no collectives library";

/// What ApiAdapter::collectives() says about the backend's collectives library.
struct CollectivesLibrary {
  bool available = false;  ///< whether the core may use the library (create communicators)
  /// When available, the library and its version ("NCCL 2.28.3"); otherwise why not, in the
  /// loader's or the library's words ("libnccl.so.2: cannot open shared object file...").
  std::string description;
};

}  // namespace plinth::backend
