// SDK 1.6: interprocess memory and events, as the CUDA backend does them (backends/cuda/
// ipc.cpp) through HIP's equivalents: a buffer is exported as the hipIpcGetMemHandle of its
// allocation's base (hipMemGetAddressRange) and its offset there, mapped by the importer with
// hipIpcOpenMemHandle and unmapped (hipIpcCloseMemHandle) with the last buffer over it; events
// are made with hipEventInterprocess | hipEventDisableTiming. Compiled against HIP 5.2 here;
// not run (no AMD GPU).

#include "buffer.hpp"
#include "context.hpp"
#include "error.hpp"
#include "event.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <cstring>
#include <string>

namespace plinth::hip {

namespace {

template <class Handle>
Handle handle_from(std::span<const std::byte> bytes, const char* what) {
  Handle handle{};
  if (bytes.size() != sizeof(handle)) {
    throw LogicError(std::string("not a HIP ") + what + ": " + std::to_string(bytes.size()) +
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
  IpcMapping(int device, void* pointer) : device_(device), pointer_(pointer) {}
  ~IpcMapping() {
    ScopedDevice current(device_, std::nothrow);
    PLINTH_CHECK_IN_DESTRUCTOR(hipIpcCloseMemHandle(pointer_));
  }
  IpcMapping(const IpcMapping&) = delete;
  IpcMapping& operator=(const IpcMapping&) = delete;

 private:
  int device_;
  void* pointer_;
};

}  // namespace

backend::IpcAvailability Context::ipc_availability(std::size_t) {
  // HIP has no attribute that says; IPC needs Linux (ROCm's only platform here).
  return {true, true, ""};
}

backend::IpcMemoryExport Context::export_memory(std::size_t device,
                                                backend::BufferAdapter& buffer) {
  ScopedDevice current((*state_)[device].device);
  const hipDeviceptr_t pointer = device_pointer(buffer);
  hipDeviceptr_t base = nullptr;
  std::size_t extent = 0;
  PLINTH_CHECK(hipMemGetAddressRange(&base, &extent, pointer));
  hipIpcMemHandle_t handle{};
  PLINTH_CHECK(hipIpcGetMemHandle(&handle, base));
  return {bytes_of(handle),
          static_cast<std::size_t>(static_cast<char*>(pointer) - static_cast<char*>(base))};
}

std::unique_ptr<backend::BufferAdapter> Context::import_memory(std::size_t device,
                                                               std::span<const std::byte> handle,
                                                               std::size_t size) {
  const auto vendor = handle_from<hipIpcMemHandle_t>(handle, "IPC memory handle");
  const int ordinal = (*state_)[device].device;
  ScopedDevice current(ordinal);
  void* pointer = nullptr;
  PLINTH_CHECK(hipIpcOpenMemHandle(&pointer, vendor, hipIpcMemLazyEnablePeerAccess));
  auto mapping = std::make_shared<IpcMapping>(ordinal, pointer);
  auto buffer = std::make_unique<Buffer>(state_, device, pointer, size, false);
  buffer->keep(std::move(mapping));
  return buffer;
}

std::unique_ptr<backend::EventAdapter> Context::create_ipc_event(std::size_t device) {
  ScopedDevice current((*state_)[device].device);
  hipEvent_t event = nullptr;
  PLINTH_CHECK(hipEventCreateWithFlags(&event, hipEventInterprocess | hipEventDisableTiming));
  return std::make_unique<Event>(state_, event);
}

std::vector<std::byte> Context::export_event(backend::EventAdapter& event) {
  hipIpcEventHandle_t handle{};
  PLINTH_CHECK(hipIpcGetEventHandle(&handle, static_cast<Event&>(event).event()));
  return bytes_of(handle);
}

std::unique_ptr<backend::EventAdapter> Context::import_event(std::size_t device,
                                                             std::span<const std::byte> handle) {
  const auto vendor = handle_from<hipIpcEventHandle_t>(handle, "IPC event handle");
  ScopedDevice current((*state_)[device].device);
  hipEvent_t event = nullptr;
  PLINTH_CHECK(hipIpcOpenEventHandle(&event, vendor));
  return std::make_unique<Event>(state_, event);
}

void Queue::record_ipc_event(backend::EventAdapter& event) {
  ScopedDevice current(device_);
  PLINTH_CHECK(hipEventRecord(static_cast<Event&>(event).event(), stream_));
}

}  // namespace plinth::hip
