// SDK 1.6: interprocess memory. A buffer is exported as the zeMemGetIpcHandle of its
// allocation's base (zeMemGetAddressRange: sub-regions and pool blocks lie inside a larger
// allocation) and its offset there; the importer maps it with zeMemOpenIpcHandle and unmaps it
// (zeMemCloseIpcHandle) with the last buffer over it.
//
// What is not done: interprocess events (zeEventPoolGetIpcHandle on a pool made with
// ZE_EVENT_POOL_FLAG_IPC): the backend's events live in shared timestamp pools
// (event_pool.hpp), and an IPC pool of their own would need a second event kind in every
// queue. ipc_availability() says so. Nor was a real driver tried (no Intel GPU here): Intel's
// drivers are documented to carry a file descriptor in the memory handle, which another
// process may need passed to it by the OS (a Unix socket) rather than as bytes; plinth passes
// bytes only. Tested against the fake driver (tests/backends/level_zero/fake_driver.cpp) only.

#include "buffer.hpp"
#include "context.hpp"
#include "error.hpp"

#include <plinth/errors.hpp>

#include <cstring>
#include <string>

namespace plinth::level_zero {

namespace {

/// An allocation of another process mapped into this one, unmapped when destroyed.
class IpcMapping {
 public:
  IpcMapping(std::shared_ptr<ContextState> state, void* pointer)
      : state_(std::move(state)), pointer_(pointer) {}
  ~IpcMapping() { PLINTH_CHECK_IN_DESTRUCTOR(zeMemCloseIpcHandle(state_->context(), pointer_)); }
  IpcMapping(const IpcMapping&) = delete;
  IpcMapping& operator=(const IpcMapping&) = delete;

 private:
  std::shared_ptr<ContextState> state_;
  void* pointer_;
};

}  // namespace

backend::IpcAvailability Context::ipc_availability(std::size_t) {
  return {true, false,
          "the Level Zero backend shares memory but not events (ZE_EVENT_POOL_FLAG_IPC pools "
          "are not implemented)"};
}

backend::IpcMemoryExport Context::export_memory(std::size_t, backend::BufferAdapter& buffer) {
  void* pointer = device_pointer(buffer);
  void* base = nullptr;
  std::size_t extent = 0;
  PLINTH_CHECK(zeMemGetAddressRange(state_->context(), pointer, &base, &extent));
  ze_ipc_mem_handle_t handle{};
  PLINTH_CHECK(zeMemGetIpcHandle(state_->context(), base, &handle));
  std::vector<std::byte> bytes(sizeof(handle.data));
  std::memcpy(bytes.data(), handle.data, sizeof(handle.data));
  return {std::move(bytes),
          static_cast<std::size_t>(static_cast<char*>(pointer) - static_cast<char*>(base))};
}

std::unique_ptr<backend::BufferAdapter> Context::import_memory(std::size_t device,
                                                               std::span<const std::byte> handle,
                                                               std::size_t size) {
  ze_ipc_mem_handle_t vendor{};
  if (handle.size() != sizeof(vendor.data)) {
    throw LogicError("not a Level Zero IPC memory handle: " + std::to_string(handle.size()) +
                     " bytes, " + std::to_string(sizeof(vendor.data)) + " expected");
  }
  std::memcpy(vendor.data, handle.data(), sizeof(vendor.data));
  void* pointer = nullptr;
  PLINTH_CHECK(
      zeMemOpenIpcHandle(state_->context(), (*state_)[device].device, vendor, 0, &pointer));
  auto mapping = std::make_shared<IpcMapping>(state_, pointer);
  auto buffer = std::make_unique<Buffer>(state_, pointer, size, false);
  buffer->keep(std::move(mapping));
  return buffer;
}

}  // namespace plinth::level_zero
