#pragma once

// Collectives over several devices and processes (pygpu's GpuComm, NCCL's communicators):
// all_reduce, reduce, broadcast, all_gather and reduce_scatter on Arrays and MultiArrays.

#include <plinth/api.hpp>
#include <plinth/array.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth {

namespace detail {
struct CommunicatorImpl;
}

/// How a reduction combines the ranks' elements. `avg` is the sum divided by the number of
/// ranks (in the element type: integers divide as C does).
enum class ReduceOp { sum, prod, min, max, avg };

/// Names one communicator across processes. One rank creates it and hands it to the others
/// by whatever the program already uses (MPI, a file, a socket, an environment variable),
/// and every rank passes it to Communicator::join(). With NCCL it is NCCL's unique id, which
/// holds the address where rank 0's bootstrap listens: the ranks must reach that address.
///
///     // rank 0                                    // every rank
///     auto id = CommunicatorId::create(api);       auto id = CommunicatorId::from_string(text);
///     publish(id.to_string());                     auto comm = Communicator::join(queue, id,
///                                                                                 ranks, rank);
///
/// A value type; any thread may use it.
class PLINTH_EXPORT CommunicatorId {
 public:
  /// A new id from `api`'s collectives library. Throws LogicError if the API has none (with
  /// the reason, e.g. that libnccl.so.2 cannot be loaded), BackendError if the library fails.
  static CommunicatorId create(const API& api);
  /// Reads to_string()'s text. Throws LogicError for text that is not an id.
  static CommunicatorId from_string(std::string_view text);
  /// An id from bytes() and api_shortcut() of one that create() made (e.g. sent with
  /// MPI_Bcast). Throws LogicError for an empty or oversized (over 4096 bytes) id.
  static CommunicatorId from_bytes(std::string_view api_shortcut, std::span<const std::byte> bytes);

  /// "<api shortcut>:<the id's bytes in hex>", printable and safe in a file or a command line.
  std::string to_string() const;
  /// The shortcut of the API that created the id.
  const std::string& api_shortcut() const noexcept { return api_; }
  /// The library's id itself.
  std::span<const std::byte> bytes() const noexcept { return bytes_; }

  friend bool operator==(const CommunicatorId&, const CommunicatorId&) = default;

 private:
  CommunicatorId(std::string api, std::vector<std::byte> bytes)
      : api_(std::move(api)), bytes_(std::move(bytes)) {}
  std::string api_;
  std::vector<std::byte> bytes_;
};

/// A group of ranks, one device each, that run collectives together. A communicator made
/// from a MultiQueue has one rank per queue in this process; one made by join() is one rank
/// of a communicator spread over processes (and nodes).
///
/// Collectives follow NCCL's semantics. Each is enqueued on the queues of this process's
/// ranks and returns without waiting: its results are there for later work on those queues,
/// and on the host after they are synchronized. Arrays must stay alive until then. Every
/// rank must make the same calls in the same order, with the same sizes and dtypes.
///
/// Where the backend has a collectives library (NCCL for CUDA, loaded at run time), plinth
/// uses it; otherwise, within one process, plinth's own device copies and kernels
/// (PLINTH_DEBUG=transfer says which). Calls on one communicator must not be made from
/// several threads at once. A shared handle, cheap to copy; when the last copy goes, it waits
/// for its queues (a library's communicator cannot be destroyed under running work).
///
/// Element types: broadcast and all_gather move any dtype. Reductions take int8, uint8,
/// int32, uint32, int64, uint64, float32 and float64, float16 with NCCL only, and complex64
/// and complex128 for sum and avg; other dtypes are a LogicError naming the dtype and op.
class PLINTH_EXPORT Communicator {
 public:
  /// One rank per queue of `queues` (distinct devices of one context, at least one), ranks
  /// numbered in the order of the queues. Throws LogicError for repeated devices,
  /// BackendError if the library fails to set the communicator up.
  explicit Communicator(const MultiQueue& queues);

  /// Joins the communicator `id` as rank `rank` of `rank_count`, on `queue`'s device; blocks
  /// until every rank has joined. Needs the backend's collectives library: throws LogicError
  /// saying why it is unavailable, for rank >= rank_count, or for an id of another API, and
  /// BackendError when the library fails (e.g. rank 0 cannot be reached).
  static Communicator join(const Queue& queue, const CommunicatorId& id, std::size_t rank_count,
                           std::size_t rank);

  /// The number of ranks, in every process.
  std::size_t size() const noexcept;
  /// This process's ranks: rank i runs on queues().queues()[i].
  const std::vector<std::size_t>& ranks() const noexcept;
  /// The queues of this process's ranks.
  const MultiQueue& queues() const noexcept;
  /// What runs the collectives: the library and its version ("NCCL 2.28.3"), or
  /// "plinth copies and kernels".
  const std::string& engine() const noexcept;

  // MultiArray forms: one part per rank of this process, the part on each rank's device.
  // Array forms: for a communicator with one rank in this process (join(), or a MultiQueue
  // of one queue). Every form throws LogicError for arrays on other devices or contexts, of
  // the wrong sizes, of different dtypes, not contiguous, or of a dtype the op cannot take.

  ///@{
  /// Every rank's `dst` gets the reduction of every rank's `src` (same dtype and number of
  /// elements on every rank). `dst` may be `src`.
  void all_reduce(const MultiArray& src, const MultiArray& dst, ReduceOp op) const;
  void all_reduce(const Array& src, const Array& dst, ReduceOp op) const;
  ///@}
  ///@{
  /// In place: all_reduce(array, array, op).
  void all_reduce(const MultiArray& array, ReduceOp op) const { all_reduce(array, array, op); }
  void all_reduce(const Array& array, ReduceOp op) const { all_reduce(array, array, op); }
  ///@}

  ///@{
  /// Rank `root`'s `dst` gets the reduction of every rank's `src`; other ranks' `dst` is not
  /// written (but must be given, of the right size). `dst` may be `src`.
  void reduce(const MultiArray& src, const MultiArray& dst, ReduceOp op, std::size_t root) const;
  void reduce(const Array& src, const Array& dst, ReduceOp op, std::size_t root) const;
  ///@}

  ///@{
  /// Every rank's `dst` gets rank `root`'s `src` (other ranks' `src` is not read). `dst` may
  /// be `src`.
  void broadcast(const MultiArray& src, const MultiArray& dst, std::size_t root) const;
  void broadcast(const Array& src, const Array& dst, std::size_t root) const;
  ///@}
  ///@{
  /// In place: broadcast(array, array, root).
  void broadcast(const MultiArray& array, std::size_t root) const { broadcast(array, array, root); }
  void broadcast(const Array& array, std::size_t root) const { broadcast(array, array, root); }
  ///@}

  ///@{
  /// Every rank's `dst` (size() times the elements of a `src`) gets every rank's `src`, in
  /// rank order. `src` and `dst` must not overlap.
  void all_gather(const MultiArray& src, const MultiArray& dst) const;
  void all_gather(const Array& src, const Array& dst) const;
  ///@}

  ///@{
  /// Rank r's `dst` gets part r of the reduction of every rank's `src` (size() times the
  /// elements of a `dst`). `src` and `dst` must not overlap.
  void reduce_scatter(const MultiArray& src, const MultiArray& dst, ReduceOp op) const;
  void reduce_scatter(const Array& src, const Array& dst, ReduceOp op) const;
  ///@}

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations).
  Communicator(const Communicator&) = default;
  Communicator& operator=(const Communicator&) = default;
  ~Communicator() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit Communicator(std::shared_ptr<detail::CommunicatorImpl> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<detail::CommunicatorImpl> impl_;
};

/// What collectives_support() returns.
struct CollectivesSupport {
  bool library = false;     ///< multi-process communicators (join()) are possible
  std::string description;  ///< the library and its version, or why there is none
};
/// Whether `api` has a collectives library, and which ("NCCL 2.28.3"), or why not. Never
/// throws; any thread may call it.
PLINTH_EXPORT CollectivesSupport collectives_support(const API& api);

}  // namespace plinth
