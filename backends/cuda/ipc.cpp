// SDK 1.6: interprocess memory and events. A buffer is exported as the cuIpcGetMemHandle of
// its allocation's base (cuMemGetAddressRange: sub-regions and pool blocks lie inside a larger
// allocation) and its offset there; the importer maps the allocation with cuIpcOpenMemHandle
// and unmaps it (cuIpcCloseMemHandle) with the last buffer over it. Events are made with
// CU_EVENT_INTERPROCESS, which needs CU_EVENT_DISABLE_TIMING: they cannot time.

#include "buffer.hpp"
#include "context.hpp"
#include "driver.hpp"
#include "event.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <cstring>
#include <string>

namespace plinth::cuda {

namespace {

// The vendor handle type `Handle` from `bytes`, which must be exactly its size.
template <class Handle>
Handle handle_from(std::span<const std::byte> bytes, const char* what) {
  Handle handle{};
  if (bytes.size() != sizeof(handle)) {
    throw LogicError(std::string("not a CUDA ") + what + ": " + std::to_string(bytes.size()) +
                     " bytes, " + std::to_string(sizeof(handle)) + " expected");
  }
  std::memcpy(&handle, bytes.data(), sizeof(handle));
  return handle;
}

template <class Handle>
std::vector<std::byte> bytes_of(const Handle& handle) {
  std::vector<std::byte> bytes(sizeof(handle));
  std::memcpy(bytes.data(), &handle, sizeof(handle));
  return bytes;
}

/// An allocation of another process mapped into this one, unmapped when destroyed.
class IpcMapping {
 public:
  IpcMapping(std::shared_ptr<ContextState> state, std::size_t device, CUdeviceptr pointer)
      : state_(std::move(state)), device_(device), pointer_(pointer) {}
  ~IpcMapping() {
    ScopedContext current((*state_)[device_].context, std::nothrow);
    CU_CHECK_IN_DESTRUCTOR(cuIpcCloseMemHandle(pointer_));
  }
  IpcMapping(const IpcMapping&) = delete;
  IpcMapping& operator=(const IpcMapping&) = delete;

 private:
  std::shared_ptr<ContextState> state_;
  std::size_t device_;
  CUdeviceptr pointer_;
};

}  // namespace

backend::IpcAvailability Context::ipc_availability(std::size_t device) {
  const DeviceContext& entry = (*state_)[device];
  int unified = 0;
  int events = 0;
  if (driver().cuDeviceGetAttribute(&unified, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING,
                                    entry.device) != CUDA_SUCCESS ||
      driver().cuDeviceGetAttribute(&events, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED,
                                    entry.device) != CUDA_SUCCESS) {
    return {false, false, "cuDeviceGetAttribute failed to say whether the device has IPC"};
  }
  if (unified == 0) {
    return {false, false, "the device has no unified addressing, which CUDA IPC needs"};
  }
  if (events == 0) {
    return {false, false,
            "the device says it has no IPC (CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED is 0: e.g. "
            "Windows outside TCC mode, or a platform CUDA IPC does not run on)"};
  }
  return {true, true, ""};
}

backend::IpcMemoryExport Context::export_memory(std::size_t device,
                                                backend::BufferAdapter& buffer) {
  ScopedContext current((*state_)[device].context);
  const CUdeviceptr pointer = device_pointer(buffer);
  CUdeviceptr base = 0;
  std::size_t extent = 0;
  CU_CHECK(cuMemGetAddressRange(&base, &extent, pointer));
  CUipcMemHandle handle{};
  CU_CHECK(cuIpcGetMemHandle(&handle, base));
  return {bytes_of(handle), static_cast<std::size_t>(pointer - base)};
}

std::unique_ptr<backend::BufferAdapter> Context::import_memory(std::size_t device,
                                                               std::span<const std::byte> handle,
                                                               std::size_t size) {
  const auto vendor = handle_from<CUipcMemHandle>(handle, "IPC memory handle");
  ScopedContext current((*state_)[device].context);
  CUdeviceptr pointer = 0;
  // Lazy peer access: another device's memory is mapped through it where the devices allow.
  CU_CHECK(cuIpcOpenMemHandle(&pointer, vendor, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  auto mapping = std::make_shared<IpcMapping>(state_, device, pointer);  // unmaps if this throws
  auto buffer = std::make_unique<Buffer>(state_, device, pointer, size, false);
  buffer->keep(std::move(mapping));
  return buffer;
}

std::unique_ptr<backend::EventAdapter> Context::create_ipc_event(std::size_t device) {
  ScopedContext current((*state_)[device].context);
  CUevent event = nullptr;
  CU_CHECK(cuEventCreate(&event, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
  return std::make_unique<Event>(state_, event, device);
}

std::vector<std::byte> Context::export_event(backend::EventAdapter& event) {
  // The driver answers CUDA_ERROR_INVALID_CONTEXT without its device's context current.
  const auto& ipc_event = static_cast<Event&>(event);
  ScopedContext current((*state_)[ipc_event.device()].context);
  CUipcEventHandle handle{};
  CU_CHECK(cuIpcGetEventHandle(&handle, ipc_event.event()));
  return bytes_of(handle);
}

std::unique_ptr<backend::EventAdapter> Context::import_event(std::size_t device,
                                                             std::span<const std::byte> handle) {
  const auto vendor = handle_from<CUipcEventHandle>(handle, "IPC event handle");
  ScopedContext current((*state_)[device].context);
  CUevent event = nullptr;
  CU_CHECK(cuIpcOpenEventHandle(&event, vendor));
  return std::make_unique<Event>(state_, event, device);
}

void Queue::record_ipc_event(backend::EventAdapter& event) {
  ScopedContext current(context_);
  CU_CHECK(cuEventRecord(static_cast<Event&>(event).event(), stream_));
}

}  // namespace plinth::cuda
