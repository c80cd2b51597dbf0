// The smallest useful plinth backend: one "device" whose global memory is host memory.
// Transfers, sub-regions, queues and events work; it compiles no programs. It shows what a
// third party writes against the installed SDK (docs/plugin-interface.md) and nothing more.

#include <plinth/backend/sdk.hpp>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace example {

using namespace plinth::backend;

class Device final : public DeviceAdapter {
 public:
  std::string name() const override { return "Example host-memory device"; }
  plinth::DeviceParameters parameters() const override {
    plinth::DeviceParameters p;
    p.type = plinth::DeviceType::cpu;
    p.compute_units = 1;
    p.local_mem_size = 1;
    p.max_local_sizes = {1, 1, 1};
    p.max_num_groups = {1, 1, 1};
    p.global_mem_size = std::size_t{1} << 30;
    return p;
  }
  NativeHandle native_handle() const override { return 1; }
};

class Platform final : public PlatformAdapter {
 public:
  std::string name() const override { return "Example platform"; }
  std::string vendor() const override { return "plinth example"; }
  std::string version() const override { return "1.0"; }
  std::size_t device_count() const override { return 1; }
  std::unique_ptr<DeviceAdapter> device(std::size_t) const override {
    return std::make_unique<Device>();
  }
  NativeHandle native_handle() const override { return 0; }
};

/// Host memory shared by a buffer and its sub-regions.
class Buffer final : public BufferAdapter {
 public:
  Buffer(std::shared_ptr<std::vector<std::byte>> memory, std::size_t offset, std::size_t size)
      : memory_(std::move(memory)), offset_(offset), size_(size), address_(data()) {}
  std::byte* data() const { return memory_->data() + offset_; }
  std::size_t size() const override { return size_; }
  std::unique_ptr<BufferAdapter> sub_region(std::size_t origin, std::size_t size) override {
    return std::make_unique<Buffer>(memory_, offset_ + origin, size);
  }
  ArgValue kernel_arg() const override { return {&address_, sizeof(address_)}; }
  NativeHandle native_handle() const override { return reinterpret_cast<NativeHandle>(data()); }

 private:
  std::shared_ptr<std::vector<std::byte>> memory_;
  std::size_t offset_, size_;
  std::byte* address_;
};

Buffer& own(BufferAdapter& b) { return static_cast<Buffer&>(b); }

class Event final : public EventAdapter {
 public:
  void wait() override {}
  double elapsed_ms_since(EventAdapter& start) override {
    return std::chrono::duration<double, std::milli>(time_ - static_cast<Event&>(start).time_)
        .count();
  }
  NativeHandle native_handle() const override { return 0; }

 private:
  std::chrono::steady_clock::time_point time_ = std::chrono::steady_clock::now();
};

/// Work runs at once, so the queue is always in order and synchronized.
class Queue final : public QueueAdapter {
 public:
  void write(BufferAdapter& dst, std::size_t offset, const void* src, std::size_t size,
             bool) override {
    std::memcpy(own(dst).data() + offset, src, size);
  }
  void read(void* dst, BufferAdapter& src, std::size_t offset, std::size_t size, bool) override {
    std::memcpy(dst, own(src).data() + offset, size);
  }
  void copy(BufferAdapter& dst, std::size_t dst_offset, BufferAdapter& src, std::size_t src_offset,
            std::size_t size) override {
    std::memmove(own(dst).data() + dst_offset, own(src).data() + src_offset, size);
  }
  void synchronize() override {}
  std::unique_ptr<EventAdapter> record_event() override { return std::make_unique<Event>(); }
  void wait_for(EventAdapter&) override {}
  NativeHandle native_handle() const override { return 0; }
};

class Context final : public ContextAdapter {
 public:
  std::size_t device_count() const override { return 1; }
  std::unique_ptr<BufferAdapter> allocate(std::size_t, std::size_t size) override {
    return std::make_unique<Buffer>(std::make_shared<std::vector<std::byte>>(size), 0, size);
  }
  std::unique_ptr<BufferAdapter> wrap_buffer(std::size_t, NativeHandle, std::size_t,
                                             bool) override {
    throw plinth::LogicError("the example backend cannot wrap native memory");
  }
  std::unique_ptr<QueueAdapter> create_queue(std::size_t) override {
    return std::make_unique<Queue>();
  }
  std::unique_ptr<QueueAdapter> wrap_queue(std::size_t, NativeHandle, bool) override {
    return std::make_unique<Queue>();
  }
  std::unique_ptr<ProgramAdapter> create_program(std::span<const std::size_t>,
                                                 const ProgramInput& input,
                                                 const BuildOptions& options) override {
    throw plinth::CompileError("the example backend compiles no programs", options.compiler_options,
                               std::string(input.source), "example");
  }
  void activate() override {}
  void deactivate() override {}
  NativeHandle native_handle(std::size_t) const override { return 0; }
};

class Api final : public ApiAdapter {
 public:
  std::string name() const override { return "Example"; }
  void initialize() override {}
  std::size_t platform_count() const override { return 1; }
  std::unique_ptr<PlatformAdapter> platform(std::size_t) const override {
    return std::make_unique<Platform>();
  }
  std::unique_ptr<ContextAdapter> create_context(std::span<const DeviceAdapter* const>) override {
    return std::make_unique<Context>();
  }
  std::unique_ptr<ContextAdapter> wrap_context(NativeHandle, std::span<const DeviceAdapter* const>,
                                               bool) override {
    return std::make_unique<Context>();
  }
  std::string prelude(bool) const override { return {}; }
};

std::unique_ptr<ApiAdapter> create_api() { return std::make_unique<Api>(); }

}  // namespace example

PLINTH_BACKEND_PLUGIN(example, example::create_api)
