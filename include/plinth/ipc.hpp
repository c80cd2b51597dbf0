#pragma once

/// \file
/// Sharing device memory and events with other processes (PyCUDA's IPCMemoryHandle and
/// Event.ipc_handle): the exporting process writes a handle as bytes or text, another process
/// reads it and maps the same memory, or waits for the same event.
///
///     // process A                                 // process B
///     auto buffer = Buffer::allocate(device, n);   auto memory = IpcMemoryHandle::from_string(m);
///     auto done = Event::create_interprocess(dev); auto done = Event::from_ipc_handle(
///     send(buffer.ipc_handle().to_string(),            device, IpcEventHandle::from_string(e));
///          done.ipc_handle().to_string());         auto buffer = Buffer::from_ipc_handle(device,
///     ... write buffer on queue ...                                                     memory);
///     queue.record(done);                          queue.wait_for(done);  // after A's record
///                                                  ... read buffer on queue ...
///
/// Which APIs have it: CUDA (cuIpcGetMemHandle, cuIpcGetEventHandle), HIP (hipIpc*) and Level
/// Zero (zeMemGetIpcHandle; events through IPC event pools); OpenCL has no interprocess sharing
/// and refuses, as do plugins of SDK 1.5 and older. ipc_support() says which, or why not.
/// Handles are meaningful only on the same machine, between processes of the same API.

#include <plinth/context.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth {

/// A device allocation (or a region of one) exported by Buffer::ipc_handle(), for
/// Buffer::from_ipc_handle() in another process. It carries the API's shortcut, the vendor's
/// handle (which names the whole allocation: a sub-region or a MemoryPool block is a region
/// of a larger one), the region's offset inside that allocation and its size. A value type;
/// any thread may use it.
class PLINTH_EXPORT IpcMemoryHandle {
 public:
  /// A handle from its parts, checked as from_string() checks them. Throws LogicError for a
  /// shortcut that is not 1 to 64 of a-z, 0-9, _, an empty or oversized (over 4096 bytes)
  /// vendor handle, size 0, or offset + size beyond 2^64.
  static IpcMemoryHandle from_parts(std::string_view api_shortcut,
                                    std::span<const std::byte> vendor_handle, std::size_t size,
                                    std::size_t offset);
  /// Reads to_string()'s text, "<api>:<size>:<offset>:<vendor handle in hex>". Throws
  /// LogicError, naming the problem, for any text that is not such a handle.
  static IpcMemoryHandle from_string(std::string_view text);
  /// Reads to_bytes()'s bytes. Throws LogicError, naming the problem, for any bytes that are
  /// not such a handle (e.g. an event handle's, or cut short).
  static IpcMemoryHandle from_bytes(std::span<const std::byte> bytes);

  /// Printable and safe in a file, an environment variable or a command line.
  std::string to_string() const;
  /// A compact binary form (for a socket or MPI): a 4-byte tag "plm1", the shortcut's length
  /// and characters, size and offset as 64-bit little-endian numbers, then the vendor handle.
  std::vector<std::byte> to_bytes() const;

  /// The shortcut of the API that exported the memory.
  const std::string& api_shortcut() const noexcept { return api_; }
  /// The vendor's handle of the whole allocation (cudaIpcMemHandle_t, ...).
  std::span<const std::byte> vendor_handle() const noexcept { return vendor_; }
  /// Bytes in the exported region.
  std::size_t size() const noexcept { return size_; }
  /// Where the region starts inside the vendor's allocation.
  std::size_t offset() const noexcept { return offset_; }

  friend bool operator==(const IpcMemoryHandle&, const IpcMemoryHandle&) = default;

 private:
  IpcMemoryHandle(std::string api, std::vector<std::byte> vendor, std::size_t size,
                  std::size_t offset)
      : api_(std::move(api)), vendor_(std::move(vendor)), size_(size), offset_(offset) {}
  std::string api_;
  std::vector<std::byte> vendor_;
  std::size_t size_ = 0;
  std::size_t offset_ = 0;
};

/// An interprocess event exported by Event::ipc_handle(), for Event::from_ipc_handle() in
/// another process. It carries the API's shortcut and the vendor's handle. A value type; any
/// thread may use it.
class PLINTH_EXPORT IpcEventHandle {
 public:
  /// A handle from its parts. Throws LogicError for a shortcut that is not 1 to 64 of a-z,
  /// 0-9, _, or an empty or oversized (over 4096 bytes) vendor handle.
  static IpcEventHandle from_parts(std::string_view api_shortcut,
                                   std::span<const std::byte> vendor_handle);
  /// Reads to_string()'s text, "<api>:<vendor handle in hex>". Throws LogicError, naming the
  /// problem, for any text that is not such a handle.
  static IpcEventHandle from_string(std::string_view text);
  /// Reads to_bytes()'s bytes. Throws LogicError, naming the problem, for any bytes that are
  /// not such a handle.
  static IpcEventHandle from_bytes(std::span<const std::byte> bytes);

  /// Printable and safe in a file, an environment variable or a command line.
  std::string to_string() const;
  /// A compact binary form: a 4-byte tag "ple1", the shortcut's length and characters, then
  /// the vendor handle.
  std::vector<std::byte> to_bytes() const;

  /// The shortcut of the API that exported the event.
  const std::string& api_shortcut() const noexcept { return api_; }
  /// The vendor's handle (cudaIpcEventHandle_t, ...).
  std::span<const std::byte> vendor_handle() const noexcept { return vendor_; }

  friend bool operator==(const IpcEventHandle&, const IpcEventHandle&) = default;

 private:
  IpcEventHandle(std::string api, std::vector<std::byte> vendor)
      : api_(std::move(api)), vendor_(std::move(vendor)) {}
  std::string api_;
  std::vector<std::byte> vendor_;
};

/// What ipc_support() returns.
struct IpcSupport {
  bool memory = false;  ///< Buffer::ipc_handle() and Buffer::from_ipc_handle() work
  bool events = false;  ///< Event::create_interprocess() and Event::from_ipc_handle() work
  std::string reason;   ///< why not (empty when both work)
};
/// Whether memory on `device` and interprocess events can be shared with other processes,
/// or why not (OpenCL has no interprocess sharing; a plugin of SDK 1.5 or older has no IPC
/// methods; a CUDA device that does not support it). Never throws; any thread may call it.
PLINTH_EXPORT IpcSupport ipc_support(const BoundDevice& device);

}  // namespace plinth
