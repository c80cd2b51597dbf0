#pragma once

#include "nccl.hpp"

#include <plinth/backend/communicator.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace plinth::cuda {

class ContextState;

/// An NCCL communicator's local ranks: one ncclComm_t per device of the context it was made
/// on (ncclCommInitAll), or one rank of many processes (ncclCommInitRank). NCCL runs on the
/// devices' primary contexts (the CUDA runtime's), so the context must hold those: the
/// contexts plinth creates do; a wrapped context must be its device's primary one.
class Communicator final : public backend::CommunicatorAdapter {
 public:
  /// One rank per device of `devices` (distinct indices of `state`), ranks in that order.
  /// Throws LogicError where NCCL is unavailable (saying why) or a device's context is not
  /// its primary one, BackendError where NCCL fails.
  static std::unique_ptr<Communicator> create(std::shared_ptr<ContextState> state,
                                              std::span<const std::size_t> devices);
  /// Rank `rank` of `rank_count` of the communicator `id` (128 bytes from ncclGetUniqueId) on
  /// `device`; blocks until every rank has joined. Throws LogicError for an id of another
  /// size, a rank out of range, or as create() does; BackendError where NCCL fails.
  static std::unique_ptr<Communicator> join(std::shared_ptr<ContextState> state, std::size_t device,
                                            std::span<const std::byte> id, std::size_t rank_count,
                                            std::size_t rank);

  /// Finalizes (where NCCL has ncclCommFinalize; grouped, as NCCL requires of several
  /// communicators on one thread) and destroys the ranks' communicators. Never throws.
  ~Communicator() override;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  /// Enqueues `call` on each part's queue (ncclAllReduce...; inside ncclGroupStart/End for
  /// several local ranks). Throws LogicError for parts that do not match the ranks or a
  /// root out of range, BackendError with NCCL's code and text. One thread at a time.
  void run(const backend::CollectiveCall& call,
           std::span<const backend::CollectivePart> parts) override;

 private:
  Communicator(std::shared_ptr<ContextState> state, std::vector<std::size_t> devices,
               std::vector<nccl::Comm*> comms, std::size_t rank_count);

  std::shared_ptr<ContextState> state_;  // kept alive: NCCL uses its primary contexts
  std::vector<std::size_t> devices_;     // each local rank's device, an index of state_
  std::vector<nccl::Comm*> comms_;       // each local rank's communicator
  std::size_t rank_count_;               // all ranks, of every process
};

/// NCCL's data type for a collective type.
nccl::DataType nccl_type(backend::CollectiveType type);
/// NCCL's reduction for a collective operation.
nccl::RedOp nccl_op(backend::CollectiveOp op);

}  // namespace plinth::cuda
