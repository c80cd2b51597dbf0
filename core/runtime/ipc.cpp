// Interprocess memory and events over SDK 1.6's optional methods: Buffer::ipc_handle() and
// from_ipc_handle(), Event::create_interprocess(), ipc_handle() and from_ipc_handle(),
// ipc_support(). The handles' text and bytes are ipc_handles.cpp's.

#include "runtime/impl.hpp"
#include "runtime/ipc_limits.hpp"

#include <plinth/backend/context.hpp>
#include <plinth/buffer.hpp>
#include <plinth/errors.hpp>
#include <plinth/event.hpp>
#include <plinth/ipc.hpp>

#include <fmt/format.h>

#include <exception>
#include <map>
#include <mutex>
#include <tuple>

namespace plinth {

namespace {

constexpr int ipc_minor = 6;

// Why `api`'s plugin cannot share memory or events at all, or "" when it has the methods.
std::string plugin_refusal(const detail::LoadedApi& api) {
  if (api.abi_minor >= ipc_minor) return {};
  return fmt::format(
      "the {} plugin is of SDK 1.{}, which has no interprocess memory or events (1.{} added "
      "them)",
      api.id.shortcut, api.abi_minor, ipc_minor);
}

backend::IpcAvailability availability(const BoundDevice& device) {
  const auto& api = detail::loaded(device.context().api());
  if (auto refusal = plugin_refusal(api); !refusal.empty()) return {false, false, refusal};
  return detail::adapter(device.context()).ipc_availability(device.index());
}

// Throws LogicError (naming `call`) unless `device` can share memory (events: `events`).
void require(std::string_view call, const BoundDevice& device, bool events) {
  const auto answer = availability(device);
  if (events ? answer.events : answer.memory) return;
  const auto& api = detail::loaded(device.context().api());
  throw LogicError(
      fmt::format("{}: the {} backend cannot share {} with other processes on "
                  "device '{}': {}",
                  call, api.id.shortcut, events ? "events" : "memory", device.name(),
                  answer.reason.empty() ? "it says no more" : answer.reason));
}

void require_api(std::string_view call, const BoundDevice& device, const std::string& shortcut) {
  const auto& api = detail::loaded(device.context().api());
  if (shortcut != api.id.shortcut) {
    throw LogicError(fmt::format("{}: the handle is of API '{}', the device '{}' of '{}'", call,
                                 shortcut, device.name(), api.id.shortcut));
  }
}

void check_vendor_answer(const BoundDevice& device, const char* method, std::size_t size) {
  if (size == 0 || size > detail::max_ipc_vendor_bytes) {
    throw BackendError(detail::loaded(device.context().api()).id.shortcut, method, 0, "bad handle",
                       fmt::format("the backend made a handle of {} bytes (1 to {} expected)", size,
                                   detail::max_ipc_vendor_bytes));
  }
}

// The allocations this process has mapped, one root buffer per (context, device, vendor
// handle): CUDA maps an allocation once per context, so regions of one allocation share it.
// Entries hold the roots weakly: the mapping goes with the last buffer that uses it.
struct ImportKey {
  const detail::ContextImpl* context;
  std::size_t device;
  std::vector<std::byte> handle;
  friend bool operator<(const ImportKey& a, const ImportKey& b) {
    return std::tie(a.context, a.device, a.handle) < std::tie(b.context, b.device, b.handle);
  }
};

struct Imports {
  std::mutex mutex;
  std::map<ImportKey, std::weak_ptr<detail::BufferImpl>> roots;
};

Imports& imports() {
  static auto* const state = new Imports;  // never destroyed: buffers may go at exit
  return *state;
}

}  // namespace

IpcSupport ipc_support(const BoundDevice& device) {
  try {
    auto answer = availability(device);
    return {answer.memory, answer.events, std::move(answer.reason)};
  } catch (const std::exception& e) {
    return {false, false, e.what()};
  } catch (...) {
    return {false, false, "the backend failed to say"};
  }
}

IpcMemoryHandle Buffer::ipc_handle() const {
  constexpr const char* call = "Buffer::ipc_handle";
  require(call, device(), false);
  const auto& root = impl_->parent ? impl_->parent : impl_;
  if (root->sub_regions) {
    throw LogicError(fmt::format(
        "{}: the buffer is virtual (virtual_alloc.hpp): pack() may move its memory, which "
        "another process could not follow; export a buffer of its own",
        call));
  }
  const auto& api = detail::loaded(device().context().api());
  auto exported =
      detail::adapter(device().context()).export_memory(device().index(), *impl_->adapter);
  check_vendor_answer(device(), "export_memory", exported.handle.size());
  return IpcMemoryHandle::from_parts(api.id.shortcut, exported.handle, size(), exported.offset);
}

Buffer Buffer::from_ipc_handle(const BoundDevice& device, const IpcMemoryHandle& handle) {
  constexpr const char* call = "Buffer::from_ipc_handle";
  require_api(call, device, handle.api_shortcut());
  require(call, device, false);
  const auto& api = detail::loaded(device.context().api());
  const std::size_t extent = handle.offset() + handle.size();  // checked by the handle
  ImportKey key{detail::Access::impl(device.context()).get(),
                device.index(),
                {handle.vendor_handle().begin(), handle.vendor_handle().end()}};
  std::shared_ptr<detail::BufferImpl> root;
  {
    auto& state = imports();
    std::lock_guard lock(state.mutex);
    if (auto found = state.roots.find(key); found != state.roots.end()) {
      root = found->second.lock();
    }
    if (!root) {
      std::erase_if(state.roots, [](const auto& entry) { return entry.second.expired(); });
      auto adapter = detail::adapter(device.context())
                         .import_memory(device.index(), handle.vendor_handle(), extent);
      root = std::make_shared<detail::BufferImpl>(
          detail::BufferImpl{device, nullptr, nullptr, 0, extent, nullptr, nullptr});
      root->adapter = api.adopt(std::move(adapter));
      state.roots[std::move(key)] = root;
    }
  }
  // The mapping covers the whole allocation, whatever extent its first import asked for: a
  // region beyond it is still inside the vendor's mapping.
  if (handle.offset() == 0 && handle.size() == root->size) return Buffer(std::move(root));
  auto region = std::make_shared<detail::BufferImpl>(
      detail::BufferImpl{device, root, nullptr, handle.offset(), handle.size(), nullptr, nullptr});
  region->adapter = api.adopt(root->adapter->sub_region(handle.offset(), handle.size()));
  return Buffer(std::move(region));
}

Event Event::create_interprocess(const BoundDevice& device) {
  require("Event::create_interprocess", device, true);
  const auto& api = detail::loaded(device.context().api());
  auto adapter = api.adopt(detail::adapter(device.context()).create_ipc_event(device.index()));
  return Event(std::move(adapter), device, Kind::interprocess);
}

Event Event::from_ipc_handle(const BoundDevice& device, const IpcEventHandle& handle) {
  constexpr const char* call = "Event::from_ipc_handle";
  require_api(call, device, handle.api_shortcut());
  require(call, device, true);
  const auto& api = detail::loaded(device.context().api());
  auto adapter = api.adopt(
      detail::adapter(device.context()).import_event(device.index(), handle.vendor_handle()));
  return Event(std::move(adapter), device, Kind::imported);
}

IpcEventHandle Event::ipc_handle() const {
  constexpr const char* call = "Event::ipc_handle";
  if (kind_ == Kind::local) {
    throw LogicError(fmt::format(
        "{}: the event was recorded by Queue::record_event(), not made for other processes; "
        "make one with Event::create_interprocess()",
        call));
  }
  if (kind_ == Kind::imported) {
    throw LogicError(fmt::format(
        "{}: the event was opened from another process's handle; hand on that handle instead",
        call));
  }
  auto bytes = detail::adapter(device_.context()).export_event(*adapter_);
  check_vendor_answer(device_, "export_event", bytes.size());
  return IpcEventHandle::from_parts(detail::loaded(device_.context().api()).id.shortcut, bytes);
}

}  // namespace plinth
