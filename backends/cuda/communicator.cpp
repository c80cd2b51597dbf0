#include "communicator.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "driver.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <climits>
#include <cstring>
#include <string>
#include <utility>

namespace plinth::cuda {

namespace {

// The loaded NCCL, or LogicError saying why there is none.
const nccl::Library& require_library() {
  const nccl::Library& library = nccl::library();
  if (!library.available) throw LogicError("NCCL is unavailable: " + library.description);
  return library;
}

// NCCL launches on the CUDA runtime's contexts, the primary ones: a stream of another context
// of the device would not do.
void require_primary(const ContextState& state, std::size_t device) {
  if (state.ownership() == ContextState::Ownership::primary) return;
  const DeviceContext& entry = state[device];
  CUcontext primary = nullptr;
  CU_CHECK(cuDevicePrimaryCtxRetain(&primary, entry.device));
  CU_CHECK(cuDevicePrimaryCtxRelease(entry.device));
  if (primary != entry.context)
    throw LogicError(
        "NCCL runs on each device's primary CUDA context; this context wraps "
        "another context of CUDA device " +
        std::to_string(entry.device));
}

// Makes `context` current for a scope, and after it whatever was current before, even where
// NCCL (which switches devices through the CUDA runtime, cudaSetDevice) left another one
// current: ScopedContext restores only a switch of its own.
class NcclScope {
 public:
  explicit NcclScope(CUcontext context) {
    CU_CHECK(cuCtxGetCurrent(&previous_));
    if (previous_ != context) CU_CHECK(cuCtxSetCurrent(context));
  }
  NcclScope(CUcontext context, std::nothrow_t) noexcept {
    if (driver().cuCtxGetCurrent(&previous_) != CUDA_SUCCESS) return;
    if (previous_ != context) CU_CHECK_IN_DESTRUCTOR(cuCtxSetCurrent(context));
  }
  ~NcclScope() {
    CUcontext now = nullptr;
    if (driver().cuCtxGetCurrent(&now) != CUDA_SUCCESS || now != previous_)
      CU_CHECK_IN_DESTRUCTOR(cuCtxSetCurrent(previous_));
  }
  NcclScope(const NcclScope&) = delete;
  NcclScope& operator=(const NcclScope&) = delete;

 private:
  CUcontext previous_ = nullptr;
};

int to_int(std::size_t value, const char* what) {
  if (value > static_cast<std::size_t>(INT_MAX))
    throw LogicError(std::string(what) + " " + std::to_string(value) + " is more than NCCL takes");
  return static_cast<int>(value);
}

void* address(backend::BufferAdapter& buffer, std::size_t offset) {
  return reinterpret_cast<void*>(device_pointer(buffer) + offset);
}

// One local rank's part of `call` on `comm`, enqueued on the part's stream.
void enqueue(const backend::CollectiveCall& call, const backend::CollectivePart& part,
             nccl::Comm* comm) {
  const void* send = address(*part.send, part.send_offset);
  void* recv = address(*part.recv, part.recv_offset);
  const CUstream stream = static_cast<Queue&>(*part.queue).stream();
  const nccl::DataType type = nccl_type(call.type);
  const int root = static_cast<int>(call.root);  // checked against the rank count
  switch (call.kind) {
    case backend::CollectiveKind::all_reduce:
      NCCL_CHECK(ncclAllReduce(send, recv, call.count, type, nccl_op(call.op), comm, stream));
      return;
    case backend::CollectiveKind::reduce:
      NCCL_CHECK(ncclReduce(send, recv, call.count, type, nccl_op(call.op), root, comm, stream));
      return;
    case backend::CollectiveKind::broadcast:
      NCCL_CHECK(ncclBroadcast(send, recv, call.count, type, root, comm, stream));
      return;
    case backend::CollectiveKind::all_gather:
      NCCL_CHECK(ncclAllGather(send, recv, call.count, type, comm, stream));
      return;
    case backend::CollectiveKind::reduce_scatter:
      NCCL_CHECK(ncclReduceScatter(send, recv, call.count, type, nccl_op(call.op), comm, stream));
      return;
  }
  throw LogicError("unknown collective kind " + std::to_string(static_cast<int>(call.kind)));
}

}  // namespace

nccl::DataType nccl_type(backend::CollectiveType type) {
  using T = backend::CollectiveType;
  switch (type) {
    case T::int8: return nccl::DataType::int8;
    case T::uint8: return nccl::DataType::uint8;
    case T::int32: return nccl::DataType::int32;
    case T::uint32: return nccl::DataType::uint32;
    case T::int64: return nccl::DataType::int64;
    case T::uint64: return nccl::DataType::uint64;
    case T::float16: return nccl::DataType::float16;
    case T::float32: return nccl::DataType::float32;
    case T::float64: return nccl::DataType::float64;
  }
  throw LogicError("unknown collective type " + std::to_string(static_cast<int>(type)));
}

nccl::RedOp nccl_op(backend::CollectiveOp op) {
  using O = backend::CollectiveOp;
  switch (op) {
    case O::sum: return nccl::RedOp::sum;
    case O::prod: return nccl::RedOp::prod;
    case O::min: return nccl::RedOp::min;
    case O::max: return nccl::RedOp::max;
    case O::avg: return nccl::RedOp::avg;
  }
  throw LogicError("unknown collective operation " + std::to_string(static_cast<int>(op)));
}

Communicator::Communicator(std::shared_ptr<ContextState> state, std::vector<std::size_t> devices,
                           std::vector<nccl::Comm*> comms, std::size_t rank_count)
    : state_(std::move(state)),
      devices_(std::move(devices)),
      comms_(std::move(comms)),
      rank_count_(rank_count) {}

std::unique_ptr<Communicator> Communicator::create(std::shared_ptr<ContextState> state,
                                                   std::span<const std::size_t> devices) {
  require_library();
  if (devices.empty()) throw LogicError("a communicator needs at least one device");
  std::vector<int> ordinals;
  for (std::size_t device : devices) {
    if (device >= state->size())
      throw LogicError("device index " + std::to_string(device) +
                       " is out of range for a "
                       "context of " +
                       std::to_string(state->size()) + " devices");
    require_primary(*state, device);
    ordinals.push_back(static_cast<int>((*state)[device].device));  // CUdevice: the ordinal
  }
  std::vector<nccl::Comm*> comms(devices.size(), nullptr);
  {
    // NCCL switches devices itself, starting from the current one.
    NcclScope current((*state)[devices[0]].context);
    NCCL_CHECK(ncclCommInitAll(comms.data(), to_int(devices.size(), "a device count of"),
                               ordinals.data()));
  }
  const std::size_t rank_count = devices.size();
  return std::unique_ptr<Communicator>(new Communicator(
      std::move(state), {devices.begin(), devices.end()}, std::move(comms), rank_count));
}

std::unique_ptr<Communicator> Communicator::join(std::shared_ptr<ContextState> state,
                                                 std::size_t device, std::span<const std::byte> id,
                                                 std::size_t rank_count, std::size_t rank) {
  require_library();
  nccl::UniqueId unique_id{};
  if (id.size() != sizeof(unique_id))
    throw LogicError("an NCCL communicator id is " + std::to_string(sizeof(unique_id)) +
                     " bytes; got " + std::to_string(id.size()));
  if (rank >= rank_count)
    throw LogicError("rank " + std::to_string(rank) + " is out of range for " +
                     std::to_string(rank_count) + " ranks");
  if (device >= state->size())
    throw LogicError("device index " + std::to_string(device) +
                     " is out of range for a "
                     "context of " +
                     std::to_string(state->size()) + " devices");
  require_primary(*state, device);
  std::memcpy(unique_id.internal, id.data(), id.size());
  nccl::Comm* comm = nullptr;
  {
    // ncclCommInitRank takes the current device (cudaGetDevice) for the rank.
    NcclScope current((*state)[device].context);
    NCCL_CHECK(ncclCommInitRank(&comm, to_int(rank_count, "a rank count of"), unique_id,
                                static_cast<int>(rank)));
  }
  return std::unique_ptr<Communicator>(
      new Communicator(std::move(state), {device}, {comm}, rank_count));
}

Communicator::~Communicator() {
  if (comms_.empty()) return;
  const auto& f = nccl::functions();
  NcclScope current((*state_)[devices_[0]].context, std::nothrow);
  if (f.ncclCommFinalize != nullptr) {
    // Finalizing waits for the ranks' work and synchronizes them; several ranks on this one
    // thread must be finalized together, in a group, or the first would wait for the others.
    const bool grouped = comms_.size() > 1;
    bool ok = !grouped || NCCL_CHECK_IN_DESTRUCTOR(ncclGroupStart());
    if (ok) {
      for (nccl::Comm* comm : comms_) NCCL_CHECK_IN_DESTRUCTOR(ncclCommFinalize(comm));
      if (grouped) NCCL_CHECK_IN_DESTRUCTOR(ncclGroupEnd());
    }
  }
  // Destroying a finalized communicator is local (and before 2.14 NCCL's own examples destroy
  // the communicators of ncclCommInitAll one after another).
  for (nccl::Comm* comm : comms_) NCCL_CHECK_IN_DESTRUCTOR(ncclCommDestroy(comm));
}

void Communicator::run(const backend::CollectiveCall& call,
                       std::span<const backend::CollectivePart> parts) {
  if (parts.size() != comms_.size())
    throw LogicError("the communicator has " + std::to_string(comms_.size()) +
                     " local ranks; the call has " + std::to_string(parts.size()) + " parts");
  const bool rooted = call.kind == backend::CollectiveKind::reduce ||
                      call.kind == backend::CollectiveKind::broadcast;
  if (rooted && call.root >= rank_count_)
    throw LogicError("root " + std::to_string(call.root) + " is out of range for " +
                     std::to_string(rank_count_) + " ranks");
  for (const auto& part : parts)
    if (part.queue == nullptr || part.send == nullptr || part.recv == nullptr)
      throw LogicError("a collective part needs a queue, a send and a receive buffer");
  // NCCL switches to each rank's device itself.
  NcclScope current((*state_)[devices_[0]].context);
  if (comms_.size() == 1) {
    enqueue(call, parts[0], comms_[0]);
    return;
  }
  // Several devices on one thread: NCCL needs the calls in one group, or the first would wait
  // for the others' to start.
  NCCL_CHECK(ncclGroupStart());
  try {
    for (std::size_t i = 0; i < parts.size(); ++i) enqueue(call, parts[i], comms_[i]);
  } catch (...) {
    // Close the group, which this thread would otherwise stay in for its next NCCL call;
    // NCCL reports (or drops) the group's calls there, and the first error is the one thrown.
    NCCL_CHECK_IN_DESTRUCTOR(ncclGroupEnd());
    throw;
  }
  NCCL_CHECK(ncclGroupEnd());
}

}  // namespace plinth::cuda
