#pragma once

#include <plinth/backend/buffer.hpp>
#include <plinth/backend/program.hpp>
#include <plinth/backend/queue.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace plinth::backend {

/// A context over one or more devices of one platform (CUDA: their primary contexts).
/// Devices are referred to by their index in the list the context was created with.
class ContextAdapter {
 public:
  virtual ~ContextAdapter() = default;
  virtual std::size_t device_count() const = 0;
  /// Allocates `size` (> 0) bytes on `device`. Throws OutOfMemoryError or BackendError.
  virtual std::unique_ptr<BufferAdapter> allocate(std::size_t device, std::size_t size) = 0;
  /// Wraps existing device memory; with `take_ownership` it is freed with the adapter.
  virtual std::unique_ptr<BufferAdapter> wrap_buffer(std::size_t device, NativeHandle memory,
                                                     std::size_t size, bool take_ownership) = 0;
  /// A new in-order queue on `device`.
  virtual std::unique_ptr<QueueAdapter> create_queue(std::size_t device) = 0;
  /// Wraps an existing queue/stream of `device`; with `take_ownership` it is released with
  /// the adapter.
  virtual std::unique_ptr<QueueAdapter> wrap_queue(std::size_t device, NativeHandle queue,
                                                   bool take_ownership) = 0;
  /// Builds `source` (prelude already prepended by the core) for `devices`.
  /// Throws CompileError with the compiler's log, the options and the source.
  virtual std::unique_ptr<ProgramAdapter> build_program(std::span<const std::size_t> devices,
                                                        const std::string& source,
                                                        const BuildOptions& options) = 0;
  /// Makes the context current on the calling thread where the API has such a notion
  /// (CUDA); a no-op elsewhere.
  virtual void activate() = 0;
  /// Undoes activate(); a no-op elsewhere.
  virtual void deactivate() = 0;
  /// cl_context, CUcontext (of device `device`), ze_context_handle_t.
  virtual NativeHandle native_handle(std::size_t device) const = 0;
};

}  // namespace plinth::backend
