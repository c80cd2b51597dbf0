#pragma once

#include <plinth/backend/context.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plinth::opencl {

/// A cl_context (one reference owned) over the devices it was created with.
class Context final : public backend::ContextAdapter {
 public:
  /// A new context over `devices` (of one platform).
  static std::unique_ptr<Context> create(std::vector<cl_device_id> devices);
  /// Wraps `context`, which must contain `devices`; without `take_ownership` it is retained.
  static std::unique_ptr<Context> wrap(cl_context context, std::vector<cl_device_id> devices,
                                       bool take_ownership);

  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context() override;

  std::size_t device_count() const override;
  std::unique_ptr<backend::BufferAdapter> allocate(std::size_t device, std::size_t size) override;
  std::unique_ptr<backend::BufferAdapter> wrap_buffer(std::size_t device,
                                                      backend::NativeHandle memory,
                                                      std::size_t size,
                                                      bool take_ownership) override;
  std::unique_ptr<backend::QueueAdapter> create_queue(std::size_t device) override;
  std::unique_ptr<backend::QueueAdapter> wrap_queue(std::size_t device, backend::NativeHandle queue,
                                                    bool take_ownership) override;
  std::unique_ptr<backend::ProgramAdapter> create_program(
      std::span<const std::size_t> devices, const backend::ProgramInput& input,
      const backend::BuildOptions& options) override;
  void activate() override;
  void deactivate() override;
  backend::NativeHandle native_handle(std::size_t device) const override;

 private:
  struct Limits {
    std::size_t alignment;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes
    cl_ulong global_mem;    // CL_DEVICE_GLOBAL_MEM_SIZE
  };
  static std::vector<Limits> query_limits(const std::vector<cl_device_id>& devices);

  // Adopts `context`'s reference.
  Context(cl_context context, std::vector<cl_device_id> devices,
          std::vector<Limits> limits) noexcept;

  cl_context context_;
  std::vector<cl_device_id> devices_;
  std::vector<Limits> limits_;
};

}  // namespace plinth::opencl
