// A backend whose device is the host and whose kernels are C++ functions, for testing the
// SDK's versions end to end through the public API. It is built eight times (CMakeLists.txt):
//   hostv10  against tests/plugins/sdk-1.0/, the SDK exactly as released at ABI 1.0, so its
//            vtables end where 1.0's did;
//   hostv11  against the current SDK but exported as ABI 1.1 (HOST_ABI_MINOR=1), implementing
//            what 1.1 added and nothing later: the core must not call 1.2's methods on it;
//   hostv12  against the current SDK but exported as ABI 1.2, implementing what 1.2 added
//            (page-locked host memory: ordinary memory here, recorded so that the core's calls
//            are checked; events recorded again);
//   hostv13  against the current SDK but exported as ABI 1.3, implementing what 1.3 added
//            (compiling for the named targets "host-a" and "host-b:fast+": the "binary" is
//            the target's name, a newline, then the source as compiled; a source containing
//            "#error" is refused with a CompileError), with two devices (HOST_DEVICES=2):
//            copies between them are the core's copy() calls, as SDK 1.0 defined;
//   hostv14  against the current SDK but exported as ABI 1.4, with two devices and no
//            copy_peer() (1.4's default): the core must copy between the devices through the
//            host, and its copy() calls between two devices are refused with a LogicError;
//   hostv15  against the current SDK but exported as ABI 1.5, answering 1.5's features() and
//            target_features() with fixed values the tests recognise (the dialect's atomics
//            are not really there: kernels here are C++ functions);
//   hostv16  against the current SDK (ABI 1.6), with two devices, implementing what 1.6
//            added over host memory: rectangular copies (logged in $PLINTH_TEST_HOST_RECT;
//            pitched allocations with rows 256 bytes apart), interprocess memory and events
//            ("exported" within the process through a table of ids: see "SDK 1.6:
//            interprocess memory" below), managed memory and memory info (calls noted in
//            $PLINTH_TEST_MANAGED) and fills of 1-, 2- and 4-byte patterns (recorded in
//            $PLINTH_TEST_HOST_FILLS);
//   hostdeferred against the current SDK (ABI 1.6), as hostv16 but with HOST_DEFERRED: its
//            queues run transfers later, as a device does (see Queue below), so that the core's
//            bookkeeping of what a queue still uses is tested (host_transfer_order_test.cpp);
//            one device, without rectangular copies.
// Every device's memory is host memory, so reads and writes through any device's queue work.
// A program "compiles" by checking that its source declares each kernel it is asked for
// (`KERNEL void name(`); the kernels themselves are below:
//   scale(GLOBAL_MEM float* out, GLOBAL_MEM const float* in, float factor)
//       out[i] = in[i] * factor
//   group_sums(GLOBAL_MEM float* out, GLOBAL_MEM const float* in, LOCAL_MEM_DYNAMIC float* scratch)
//       out[g] = the sum of group g's elements, staged through `scratch` (dynamic local
//       memory, bound by the backend as OpenCL does)
//   opaque(a, b)
//       parameters the backend cannot introspect (ParamKind::unknown, size 0): `a` is a
//       buffer, `b` a 4-byte int; stores b into ((int*)a)[0]

#include <plinth/backend/sdk.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <span>
#include <string>
#include <vector>

#ifndef HOST_SHORTCUT
#error "HOST_SHORTCUT must name the plugin's shortcut"
#endif

// The SDK minor version this build implements (and exports).
#ifdef HOST_ABI_MINOR
#define HOST_SDK_MINOR HOST_ABI_MINOR
#else
#define HOST_SDK_MINOR PLINTH_ABI_MINOR
#endif

// Whether queues run transfers later (Queue).
#ifdef HOST_DEFERRED
[[maybe_unused]] constexpr bool deferred = true;
#else
[[maybe_unused]] constexpr bool deferred = false;
#endif

// The platform's number of devices.
#ifndef HOST_DEVICES
#define HOST_DEVICES 1
#endif

namespace host {

using namespace plinth::backend;

#define HOST_STRING(x) HOST_STRING_(x)
#define HOST_STRING_(x) #x

constexpr std::size_t max_group = 64;
// What binary() returns: this header, then the source.
constexpr std::string_view binary_magic = "plinth-host-binary\n";

class Device final : public DeviceAdapter {
 public:
  explicit Device(std::size_t index) : index_(index) {}
  std::string name() const override {
    return HOST_DEVICES == 1 ? "Host test device" : "Host test device " + std::to_string(index_);
  }
  plinth::DeviceParameters parameters() const override {
    plinth::DeviceParameters p;
    p.type = plinth::DeviceType::cpu;
    p.compute_units = 1;
    p.local_mem_size = 4096;
    p.max_total_local_size = max_group;
    p.max_local_sizes = {max_group, 1, 1};
    p.max_num_groups = {std::size_t{1} << 20, 1, 1};
    p.global_mem_size = std::size_t{1} << 30;
    return p;
  }
  NativeHandle native_handle() const override { return 1 + index_; }
#if PLINTH_ABI_MINOR >= 1
  std::string compiler_identity() const override { return "host test kernels 1"; }
#endif
#if HOST_SDK_MINOR >= 5
  void features(plinth::DeviceFeatures& features) const override {
    features.atomics = true;
    features.int64_atomics = true;
    features.sub_group_sizes = {1, 4};
  }
#endif

 private:
  std::size_t index_;
};

class Platform final : public PlatformAdapter {
 public:
  std::string name() const override { return "Host test platform"; }
  std::string vendor() const override { return "plinth tests"; }
  std::string version() const override { return "1"; }
  std::size_t device_count() const override { return HOST_DEVICES; }
  std::unique_ptr<DeviceAdapter> device(std::size_t index) const override {
    return std::make_unique<Device>(index);
  }
  NativeHandle native_handle() const override { return 0; }
};

/// Memory of one device (`device`: its index in the context).
class Buffer final : public BufferAdapter {
 public:
  Buffer(std::shared_ptr<std::vector<std::byte>> memory, std::size_t offset, std::size_t size,
         std::size_t device, bool managed = false)
      : memory_(std::move(memory)),
        offset_(offset),
        size_(size),
        device_(device),
        address_(data()),
        managed_(managed) {}
  std::byte* data() const { return memory_->data() + offset_; }
  std::size_t offset() const { return offset_; }
  std::size_t device() const { return device_; }
  const std::shared_ptr<std::vector<std::byte>>& memory() const { return memory_; }
  std::size_t size() const override { return size_; }
  std::unique_ptr<BufferAdapter> sub_region(std::size_t origin, std::size_t size) override {
    return std::make_unique<Buffer>(memory_, offset_ + origin, size, device_, managed_);
  }
  ArgValue kernel_arg() const override { return {&address_, sizeof(address_)}; }
  NativeHandle native_handle() const override { return reinterpret_cast<NativeHandle>(data()); }
#if HOST_SDK_MINOR >= 6
  // ---- SDK 1.6: managed memory ----
  void* host_pointer() const override { return managed_ ? data() : nullptr; }
#endif

 private:
  std::shared_ptr<std::vector<std::byte>> memory_;
  std::size_t offset_, size_, device_;
  std::byte* address_;
  bool managed_;
};

Buffer& own(BufferAdapter& b) { return static_cast<Buffer&>(b); }

/// Whether a context adapter still exists: its events check, when they are destroyed, that
/// the core kept the SDK's lifetime rule (events before their context), and say so in
/// $PLINTH_TEST_LIFETIME if not.
using Alive = std::shared_ptr<std::atomic<bool>>;

/// Bytes of device memory allocated and not yet freed, for PLINTH_TEST_HOST_DEVICE_MEMORY: a
/// byte budget past which allocate() runs out of memory, as a device does (the memory pool's
/// tests give back cached memory and retry through it).
std::atomic<std::size_t> live_device_bytes{0};

/// Memory for allocate(), within the budget. Throws OutOfMemoryError past it.
std::shared_ptr<std::vector<std::byte>> device_memory(std::size_t size) {
  if (const char* budget = std::getenv("PLINTH_TEST_HOST_DEVICE_MEMORY"); budget != nullptr) {
    const auto limit = static_cast<std::size_t>(std::strtoull(budget, nullptr, 10));
    if (live_device_bytes.load() + size > limit)
      throw plinth::OutOfMemoryError("host test", "allocate", 2, "OUT_OF_MEMORY",
                                     std::to_string(size) + " bytes more than the budget allows");
  }
  live_device_bytes += size;
  return std::shared_ptr<std::vector<std::byte>>(new std::vector<std::byte>(size),
                                                 [size](std::vector<std::byte>* memory) {
                                                   live_device_bytes -= size;
                                                   delete memory;
                                                 });
}

class Event final : public EventAdapter {
 public:
  explicit Event(Alive context) : context_(std::move(context)) {}
  ~Event() override {
    if (!context_->load()) setenv("PLINTH_TEST_LIFETIME", "an event outlived its context", 1);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void wait() override {}
  double elapsed_ms_since(EventAdapter&) override { return 0.0; }
  NativeHandle native_handle() const override { return 0; }

 private:
  Alive context_;
};

/// Work runs at once, except with HOST_DEFERRED: then reads and writes (asynchronous ones,
/// and blocking writes, whose source is first copied into staging, as CUDA's staging ring
/// does) are queued and run in order at synchronize(), at a blocking read, before any other
/// work of the queue (which runs at once after them: events are complete when recorded), and
/// when the queue goes. The host memory they use must stay valid until then, as on a device:
/// a host array released too early is written after its release. The rectangular copies are
/// refused, so that the core's fallbacks go through the deferred reads and writes. (One
/// thread at a time per queue: two flushing at once could run its work out of order.)
class Queue final : public QueueAdapter {
 public:
  explicit Queue(Alive context) : context_(std::move(context)) {}
#ifdef HOST_DEFERRED
  ~Queue() override { flush(); }
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;
#endif
  /// Runs the queued work (HOST_DEFERRED; nothing is queued otherwise).
  void flush() {
#ifdef HOST_DEFERRED
    std::vector<std::function<void()>> work;
    {
      std::lock_guard lock(mutex_);
      work.swap(work_);
    }
    for (auto& step : work) step();
#endif
  }
  void write(BufferAdapter& dst, std::size_t offset, const void* src, std::size_t size,
             [[maybe_unused]] bool async) override {
#ifdef HOST_DEFERRED
    auto* to = own(dst).data() + offset;
    if (!async) {
      auto staged = std::make_shared<std::vector<std::byte>>(
          static_cast<const std::byte*>(src), static_cast<const std::byte*>(src) + size);
      later([memory = own(dst).memory(), to, staged] {
        std::memcpy(to, staged->data(), staged->size());
      });
      return;
    }
    later([memory = own(dst).memory(), to, src, size] { std::memcpy(to, src, size); });
#else
    std::memcpy(own(dst).data() + offset, src, size);
#endif
  }
  void read(void* dst, BufferAdapter& src, std::size_t offset, std::size_t size,
            [[maybe_unused]] bool async) override {
#ifdef HOST_DEFERRED
    if (async) {
      const auto* from = own(src).data() + offset;
      later([memory = own(src).memory(), dst, from, size] { std::memcpy(dst, from, size); });
      return;
    }
    flush();
#endif
    std::memcpy(dst, own(src).data() + offset, size);
  }
  void copy(BufferAdapter& dst, std::size_t dst_offset, BufferAdapter& src, std::size_t src_offset,
            std::size_t size) override {
    flush();
#if HOST_SDK_MINOR >= 4
    // From 1.4 on, copy() is within one device (copy_peer() is between two).
    if (own(dst).device() != own(src).device()) {
      throw plinth::LogicError("host: copy() between devices " + std::to_string(own(src).device()) +
                               " and " + std::to_string(own(dst).device()) +
                               " on an SDK 1.4 plugin");
    }
#endif
    std::memmove(own(dst).data() + dst_offset, own(src).data() + src_offset, size);
  }
  void synchronize() override { flush(); }
  // Events are complete when recorded: the queued work runs first.
  std::unique_ptr<EventAdapter> record_event() override {
    flush();
    return std::make_unique<Event>(context_);
  }
#if HOST_SDK_MINOR >= 2
  bool record_event_again(EventAdapter&) override {
    flush();
    return true;
  }
#endif
  void wait_for(EventAdapter&) override { flush(); }
  NativeHandle native_handle() const override { return 0; }
#if HOST_SDK_MINOR >= 6
  // ---- SDK 1.6: fills ----
  // Patterns of 1, 2 and 4 bytes (as CUDA's), refused where the first byte is not at a
  // multiple of the pattern's size from the allocation's start (the SDK's promise); longer
  // ones refused. Each call is appended to $PLINTH_TEST_HOST_FILLS as
  // "<pattern size>:<offset from the allocation>+<size>;" for the tests to check.
  bool fill(BufferAdapter& buffer, std::size_t offset, std::size_t size,
            std::span<const std::byte> pattern) override {
    flush();
    const std::size_t n = pattern.size();
    if (n != 1 && n != 2 && n != 4) return false;
    const std::size_t at = own(buffer).offset() + offset;
    if (at % n != 0 || size % n != 0 || size == 0) {
      throw plinth::LogicError("host: fill() at " + std::to_string(at) + " of " +
                               std::to_string(size) + " bytes, against the SDK's promise");
    }
    for (std::size_t k = 0; k < size; ++k) own(buffer).data()[offset + k] = pattern[k % n];
    const char* before = std::getenv("PLINTH_TEST_HOST_FILLS");
    const std::string calls = (before != nullptr ? before : "") + std::to_string(n) + ":" +
                              std::to_string(at) + "+" + std::to_string(size) + ";";
    setenv("PLINTH_TEST_HOST_FILLS", calls.c_str(), 1);
    return true;
  }
  void record_ipc_event(EventAdapter& event) override;
  // ---- SDK 1.6: managed memory ----
  // Each call is appended to $PLINTH_TEST_MANAGED ("prefetch host 16+8;"), so that tests see
  // what the core passed. Accessed-by advice is what this backend lacks.
  bool prefetch(BufferAdapter& buffer, plinth::ManagedLocation to) override {
    flush();
    note("prefetch", plinth::to_string(to), buffer);
    return true;
  }
  bool advise(BufferAdapter& buffer, plinth::ManagedAdvice advice,
              plinth::ManagedLocation location) override {
    if (advice == plinth::ManagedAdvice::set_accessed_by ||
        advice == plinth::ManagedAdvice::unset_accessed_by)
      return false;
    note("advise", std::string(plinth::to_string(advice)) + " " + plinth::to_string(location),
         buffer);
    return true;
  }
  bool attach(BufferAdapter& buffer, plinth::ManagedAttach attach) override {
    note("attach", plinth::to_string(attach), buffer);
    return true;
  }

 private:
  static void note(const char* what, const std::string& how, BufferAdapter& buffer) {
    if (buffer.host_pointer() == nullptr)
      throw plinth::LogicError(std::string(what) + ": the core passed memory that is not managed");
    const char* before = std::getenv("PLINTH_TEST_MANAGED");
    const std::string line = std::string(before != nullptr ? before : "") + what + " " + how + " " +
                             std::to_string(own(buffer).offset()) + "+" +
                             std::to_string(buffer.size()) + ";";
    setenv("PLINTH_TEST_MANAGED", line.c_str(), 1);
  }
#endif

#if HOST_SDK_MINOR >= 6
  // 1.6: rectangular copies over host memory. Each call appends "<method> WxHxD" to
  // $PLINTH_TEST_HOST_RECT, so the tests see which path the core took. Like CUDA's and
  // OpenCL's, a 3-D copy needs slice pitches that are multiples of the row pitches (false
  // otherwise: the core goes plane by plane); a row pitch above $PLINTH_TEST_HOST_MAX_PITCH
  // is refused too (false: the core goes row by row), as cuMemcpy2D refuses pitches beyond
  // CU_DEVICE_ATTRIBUTE_MAX_PITCH.
  bool copy_rect(BufferAdapter& dst, const RectSide& dst_side, BufferAdapter& src,
                 const RectSide& src_side, const RectShape& shape) override {
    if (deferred) return false;
    if (own(dst).device() != own(src).device())
      throw plinth::LogicError("host: copy_rect() between two devices");
    return rect("copy_rect", own(dst).data(), dst_side, own(src).data(), src_side, shape);
  }
  bool write_rect(BufferAdapter& dst, const RectSide& dst_side, const void* src,
                  const RectSide& src_side, const RectShape& shape, bool) override {
    if (deferred) return false;
    return rect("write_rect", own(dst).data(), dst_side, static_cast<const std::byte*>(src),
                src_side, shape);
  }
  bool read_rect(void* dst, const RectSide& dst_side, BufferAdapter& src, const RectSide& src_side,
                 const RectShape& shape, bool) override {
    if (deferred) return false;
    return rect("read_rect", static_cast<std::byte*>(dst), dst_side, own(src).data(), src_side,
                shape);
  }
  bool copy_rect_peer(BufferAdapter& dst, std::size_t dst_device, const RectSide& dst_side,
                      BufferAdapter& src, std::size_t src_device, const RectSide& src_side,
                      const RectShape& shape) override {
    if (own(dst).device() != dst_device || own(src).device() != src_device)
      throw plinth::LogicError("host: copy_rect_peer() with the wrong device indices");
    if (deferred) return false;
    return rect("copy_rect_peer", own(dst).data(), dst_side, own(src).data(), src_side, shape);
  }

 private:
  static bool rect(const char* method, std::byte* dst, const RectSide& dst_side,
                   const std::byte* src, const RectSide& src_side, const RectShape& shape) {
    if (shape.width == 0 || shape.height == 0 || shape.depth == 0 ||
        dst_side.row_pitch < shape.width || src_side.row_pitch < shape.width)
      throw plinth::LogicError("host: the core passed an unchecked rectangular copy");
    const char* max_pitch = std::getenv("PLINTH_TEST_HOST_MAX_PITCH");
    if (max_pitch != nullptr) {
      const auto limit = static_cast<std::size_t>(std::strtoull(max_pitch, nullptr, 10));
      if (dst_side.row_pitch > limit || src_side.row_pitch > limit) return false;
    }
    if (shape.depth > 1 && (dst_side.slice_pitch % dst_side.row_pitch != 0 ||
                            src_side.slice_pitch % src_side.row_pitch != 0))
      return false;
    for (std::size_t z = 0; z < shape.depth; ++z) {
      for (std::size_t y = 0; y < shape.height; ++y) {
        std::memcpy(dst + dst_side.offset + z * dst_side.slice_pitch + y * dst_side.row_pitch,
                    src + src_side.offset + z * src_side.slice_pitch + y * src_side.row_pitch,
                    shape.width);
      }
    }
    const char* before = std::getenv("PLINTH_TEST_HOST_RECT");
    const std::string log = std::string(before ? before : "") + method + " " +
                            std::to_string(shape.width) + "x" + std::to_string(shape.height) + "x" +
                            std::to_string(shape.depth) + ";";
    setenv("PLINTH_TEST_HOST_RECT", log.c_str(), 1);
    return true;
  }
#endif

 private:
#ifdef HOST_DEFERRED
  void later(std::function<void()> step) {
    std::lock_guard lock(mutex_);
    work_.push_back(std::move(step));
  }
  std::mutex mutex_;
  std::vector<std::function<void()>> work_;
#endif
  Alive context_;
};

template <class T>
T* pointer_arg(const ArgValue& arg) {
  void* address = nullptr;
  std::memcpy(&address, arg.data, sizeof(address));
  return static_cast<T*>(address);
}

template <class T>
T value_arg(const ArgValue& arg) {
  T value{};
  std::memcpy(&value, arg.data, sizeof(value));
  return value;
}

class Kernel final : public KernelAdapter {
 public:
  explicit Kernel(std::string name) : name_(std::move(name)) {
    if (name_ == "scale") {
      params_ = {{ParamKind::global_ptr, sizeof(void*), "float*", "out"},
                 {ParamKind::global_ptr, sizeof(void*), "const float*", "in"},
                 {ParamKind::scalar, sizeof(float), "float", "factor"}};
    } else if (name_ == "group_sums") {
      params_ = {{ParamKind::global_ptr, sizeof(void*), "float*", "out"},
                 {ParamKind::global_ptr, sizeof(void*), "const float*", "in"},
                 {ParamKind::local_ptr, 0, "float*", "scratch"}};
    } else {
      params_ = {{ParamKind::unknown, 0, {}, {}}, {ParamKind::unknown, 0, {}, {}}};
    }
  }
  std::span<const ParamInfo> parameters() const override { return params_; }
  std::size_t max_total_local_size() const override { return max_group; }
  void launch(QueueAdapter& queue, const LaunchShape& shape,
              std::span<const ArgValue> args) override {
    static_cast<Queue&>(queue).flush();
    const std::size_t n = shape.global[0];
    if (name_ == "scale") {
      if (args.size() != 3) throw plinth::LogicError("scale: the core passed a wrong count");
      auto* out = pointer_arg<float>(args[0]);
      const auto* in = pointer_arg<const float>(args[1]);
      const auto factor = value_arg<float>(args[2]);
      for (std::size_t i = 0; i < n; ++i) out[i] = in[i] * factor;
    } else if (name_ == "group_sums") {
      // The core passes two arguments; the backend binds the third, the dynamic local memory.
      if (args.size() != 2) throw plinth::LogicError("group_sums: the core passed a wrong count");
      const std::size_t local = shape.local[0];
      if (shape.local_mem < local * sizeof(float)) {
        throw plinth::LogicError("group_sums: too little dynamic local memory");
      }
      std::vector<float> scratch(shape.local_mem / sizeof(float));
      auto* out = pointer_arg<float>(args[0]);
      const auto* in = pointer_arg<const float>(args[1]);
      for (std::size_t group = 0; group * local < n; ++group) {
        std::memcpy(scratch.data(), in + group * local, local * sizeof(float));
        out[group] = std::accumulate(scratch.begin(), scratch.begin() + local, 0.0f);
      }
    } else {
      if (args.size() != 2 || args[1].size != sizeof(int)) {
        throw plinth::LogicError("opaque: takes a buffer and an int");
      }
      *pointer_arg<int>(args[0]) = value_arg<int>(args[1]);
    }
  }
  NativeHandle native_handle() const override { return 0; }
#if PLINTH_ABI_MINOR >= 1
  DynamicLocalMemory dynamic_local_memory() const override {
    return name_ == "group_sums" ? DynamicLocalMemory::last_parameter : DynamicLocalMemory::none;
  }
#endif

 private:
  std::string name_;
  std::vector<ParamInfo> params_;
};

class Program final : public ProgramAdapter {
 public:
  explicit Program(std::string source) : source_(std::move(source)) {}
  std::unique_ptr<KernelAdapter> create_kernel(std::size_t, const std::string& name) override {
    const bool known = name == "scale" || name == "group_sums" || name == "opaque";
    if (!known || source_.find("KERNEL void " + name + "(") == std::string::npos) {
      throw plinth::LogicError("program has no kernel '" + name + "'");
    }
    return std::make_unique<Kernel>(name);
  }
  void set_constant_array(std::size_t, QueueAdapter&, const std::string& name, BufferAdapter&,
                          std::size_t) override {
    throw plinth::LogicError("the host test backend has no constant array '" + name + "'");
  }
  NativeHandle native_handle(std::size_t) const override { return 0; }
#if PLINTH_ABI_MINOR >= 1
  std::vector<std::byte> binary(std::size_t) const override {
    std::vector<std::byte> bytes(binary_magic.size() + source_.size());
    std::memcpy(bytes.data(), binary_magic.data(), binary_magic.size());
    std::memcpy(bytes.data() + binary_magic.size(), source_.data(), source_.size());
    return bytes;
  }
#endif

 private:
  std::string source_;
};

#if HOST_SDK_MINOR >= 6
// ---- SDK 1.6: interprocess memory ----
// A process-wide table stands in for the vendor's: export_memory() enters the allocation under
// a new id (its handle is "hostipc" and the id's 8 bytes), import_memory() looks the id up.
// Like CUDA, a device of a context maps an allocation once (a second import_memory() of it
// fails while the first mapping lives), so the core must share one mapping between regions;
// the number of live mappings is in $PLINTH_TEST_IPC_MAPPINGS. Events: an interprocess event
// counts its recordings, which every event opened from its handle sees (native_handle()).

constexpr std::string_view ipc_magic = "hostipc";

struct IpcTable {
  std::mutex mutex;
  std::uint64_t next = 1;
  std::map<std::uint64_t, std::weak_ptr<std::vector<std::byte>>> memory;
  std::map<const std::vector<std::byte>*, std::uint64_t> ids;
  std::map<std::uint64_t, std::weak_ptr<std::atomic<int>>> events;
  int mappings = 0;
};

// An object, not a leaked pointer: the core unloads the plugin, and LeakSanitizer reports a
// heap table whose only pointer went with the plugin's image.
IpcTable& ipc_table() {
  static IpcTable table;
  return table;
}

void note_mappings(int delta) {
  auto& table = ipc_table();
  table.mappings += delta;
  setenv("PLINTH_TEST_IPC_MAPPINGS", std::to_string(table.mappings).c_str(), 1);
}

std::vector<std::byte> ipc_bytes(std::uint64_t id) {
  std::vector<std::byte> bytes;
  for (const char c : ipc_magic) bytes.push_back(static_cast<std::byte>(c));
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<std::byte>((id >> (8 * i)) & 0xff));
  return bytes;
}

std::uint64_t ipc_id(std::span<const std::byte> bytes) {
  if (bytes.size() != ipc_magic.size() + 8 ||
      std::memcmp(bytes.data(), ipc_magic.data(), ipc_magic.size()) != 0) {
    throw plinth::BackendError("host test", "import", 1, "INVALID_HANDLE",
                               "not a handle of the host test backend");
  }
  std::uint64_t id = 0;
  for (int i = 7; i >= 0; --i)
    id = (id << 8) | std::to_integer<std::uint64_t>(bytes[ipc_magic.size() + i]);
  return id;
}

/// An allocation mapped by import_memory(): unmapped (its id free to map again in the
/// context) when the last buffer over it goes.
struct IpcMapping {
  IpcMapping(std::shared_ptr<std::vector<std::byte>> m,
             std::shared_ptr<std::set<std::pair<std::size_t, std::uint64_t>>> s, std::size_t d,
             std::uint64_t i)
      : memory(std::move(m)), mapped(std::move(s)), device(d), id(i) {}
  IpcMapping(const IpcMapping&) = delete;
  IpcMapping& operator=(const IpcMapping&) = delete;
  std::shared_ptr<std::vector<std::byte>> memory;
  std::shared_ptr<std::set<std::pair<std::size_t, std::uint64_t>>> mapped;  // the context's
  std::size_t device;
  std::uint64_t id;
  ~IpcMapping() {
    std::lock_guard lock(ipc_table().mutex);
    mapped->erase({device, id});
    note_mappings(-1);
  }
};

/// An interprocess event: the number of its recordings, shared with the events opened from
/// its handle.
class IpcEvent final : public EventAdapter {
 public:
  IpcEvent(Alive context, std::shared_ptr<std::atomic<int>> recordings)
      : context_(std::move(context)), recordings_(std::move(recordings)) {}
  void wait() override {}
  double elapsed_ms_since(EventAdapter&) override {
    throw plinth::LogicError("host: the core asked an interprocess event to time");
  }
  NativeHandle native_handle() const override { return static_cast<NativeHandle>(*recordings_); }
  const std::shared_ptr<std::atomic<int>>& recordings() const { return recordings_; }

 private:
  Alive context_;
  std::shared_ptr<std::atomic<int>> recordings_;
};
#endif

class Context final : public ContextAdapter {
 public:
  explicit Context(std::size_t devices) : devices_(devices) {}
  ~Context() override {
    alive_->store(false);
#if HOST_SDK_MINOR >= 2
    if (host_memory_.size() > 0)
      setenv("PLINTH_TEST_HOST_MEMORY", "page-locked memory outlived its context", 1);
    if (registered_.size() > 0)
      setenv("PLINTH_TEST_HOST_MEMORY", "registered memory outlived its context", 1);
#endif
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  std::size_t device_count() const override { return devices_; }
  std::unique_ptr<BufferAdapter> allocate(std::size_t device, std::size_t size) override {
    return std::make_unique<Buffer>(device_memory(size), 0, size, device);
  }
#if HOST_SDK_MINOR >= 6
  // 1.6: rows 256 bytes apart (the core's default here would be the width: the device's
  // address_alignment is 1).
  std::unique_ptr<BufferAdapter> allocate_pitched(std::size_t device, std::size_t width,
                                                  std::size_t rows, std::size_t& pitch) override {
    pitch = (width + 255) / 256 * 256;
    return allocate(device, pitch * rows);
  }
#endif
  std::unique_ptr<BufferAdapter> wrap_buffer(std::size_t, NativeHandle, std::size_t,
                                             bool) override {
    throw plinth::LogicError("the host test backend cannot wrap native memory");
  }
  std::unique_ptr<QueueAdapter> create_queue(std::size_t) override {
    return std::make_unique<Queue>(alive_);
  }
  std::unique_ptr<QueueAdapter> wrap_queue(std::size_t, NativeHandle, bool) override {
    return std::make_unique<Queue>(alive_);
  }
  void activate() override {}
  void deactivate() override {}
  NativeHandle native_handle(std::size_t) const override { return 0; }
#if HOST_SDK_MINOR >= 6
  // ---- SDK 1.6: managed memory ----
  // Host memory is managed memory here; device 1 of two has none, so that the core's
  // refusal is seen.
  std::unique_ptr<BufferAdapter> allocate_managed(std::size_t device, std::size_t size,
                                                  plinth::ManagedAttach attach) override {
    if (attach == plinth::ManagedAttach::single)
      throw plinth::LogicError("allocate_managed: the core passed ManagedAttach::single");
    if (device == 1) throw plinth::LogicError("host test device 1 has no managed memory");
    return std::make_unique<Buffer>(device_memory(size), 0, size, device, true);
  }
  // ---- SDK 1.6: memory info ----
  // 1 GiB per device, less what is allocated (on any device); device 1 cannot tell its free
  // memory.
  bool memory_info(std::size_t device, plinth::MemoryInfo& info) override {
    info.total = std::size_t{1} << 30;
    if (device == 0) info.free = info.total - live_device_bytes.load();
    return true;
  }
#endif

 private:
  std::size_t devices_;
  Alive alive_ = std::make_shared<std::atomic<bool>>(true);

 public:
#if PLINTH_ABI_MINOR >= 1
  // 1.1: the parts of the source, binaries back, and kept files written by the core.
  std::unique_ptr<ProgramAdapter> create_program(std::span<const std::size_t>,
                                                 const ProgramInput& input,
                                                 const BuildOptions& options) override {
    if (!options.keep_dir.empty()) throw plinth::LogicError("1.1 got a 1.0 keep directory");
    std::string source;
    if (input.kind == ProgramInputKind::source) {
      source = std::string(input.prelude) + "// declarations\n" + std::string(input.source);
    } else if (input.kind == ProgramInputKind::binary) {
      const auto& image = input.binaries[0];
      const std::string_view text(reinterpret_cast<const char*>(image.data()), image.size());
      if (!text.starts_with(binary_magic)) {
        throw plinth::CompileError("not a binary of the host test backend", {}, {}, "host");
      }
      source = text.substr(binary_magic.size());
    } else {
      throw plinth::LogicError("the core passed an input kind that program_inputs() lacks");
    }
    if (options.keep != nullptr) options.keep->write_text("program.host", source);
    return std::make_unique<Program>(source);
  }
#else
  // 1.0: the joined source, and the keep directory written by the plugin.
  std::unique_ptr<ProgramAdapter> build_program(std::span<const std::size_t>,
                                                const std::string& source,
                                                const BuildOptions& options) override {
    if (!options.keep_dir.empty()) std::ofstream(options.keep_dir / "program.host") << source;
    return std::make_unique<Program>(source);
  }
#endif

#if HOST_SDK_MINOR >= 2
  // 1.2: page-locked host memory. The core's calls are checked: memory freed or unregistered
  // that this context did not hand out or register says so in $PLINTH_TEST_HOST_MEMORY, as
  // does memory still live when the context goes.
  void* allocate_host(std::size_t size) override {
    if (size == 0) throw plinth::LogicError("allocate_host: the core passed size 0");
    auto* memory = new std::byte[size];
    host_memory_.insert(memory, size, 0);
    return memory;
  }
  void free_host(void* memory) noexcept override {
    if (!host_memory_.erase(memory)) {
      setenv("PLINTH_TEST_HOST_MEMORY", "free_host of memory allocate_host did not return", 1);
      return;
    }
    delete[] static_cast<std::byte*>(memory);
  }
  void register_host(void* memory, std::size_t size) override {
    if (size == 0) throw plinth::LogicError("register_host: the core passed size 0");
    host_memory_.insert(memory, size, 0);  // throws on an overlap, as CUDA does
    registered_.insert(memory, size, 0);
  }
  void unregister_host(void* memory) noexcept override {
    if (!registered_.erase(memory) || !host_memory_.erase(memory))
      setenv("PLINTH_TEST_HOST_MEMORY", "unregister_host of memory not registered", 1);
  }

 private:
  HostRanges<int> host_memory_;  // allocated and registered
  HostRanges<int> registered_;
#endif

#if HOST_SDK_MINOR >= 6
  // 1.6: interprocess memory and events, within the process (the table above).
 public:
  IpcAvailability ipc_availability(std::size_t device) override {
    // Device 1 shares memory but not events, so that the core's two answers are told apart.
    if (device == 1) return {true, false, "host device 1 has no interprocess events"};
    return {true, true, ""};
  }
  IpcMemoryExport export_memory(std::size_t, BufferAdapter& buffer) override {
    const auto& memory = own(buffer).memory();
    auto& table = ipc_table();
    std::lock_guard lock(table.mutex);
    auto [entry, added] = table.ids.try_emplace(memory.get(), table.next);
    if (added || table.memory[entry->second].expired()) {
      entry->second = table.next++;
      table.memory[entry->second] = memory;
    }
    return {ipc_bytes(entry->second), own(buffer).offset()};
  }
  std::unique_ptr<BufferAdapter> import_memory(std::size_t device,
                                               std::span<const std::byte> handle,
                                               std::size_t size) override {
    const auto id = ipc_id(handle);
    auto& table = ipc_table();
    std::lock_guard lock(table.mutex);
    auto found = table.memory.find(id);
    auto memory = found == table.memory.end() ? nullptr : found->second.lock();
    if (!memory) {
      throw plinth::BackendError("host test", "import_memory", 2, "INVALID_HANDLE",
                                 "the exported allocation is gone");
    }
    if (!mapped_->insert({device, id}).second) {
      throw plinth::BackendError("host test", "import_memory", 3, "ALREADY_MAPPED",
                                 "the allocation is mapped in this context already");
    }
    if (size > memory->size()) {
      mapped_->erase({device, id});
      throw plinth::BackendError("host test", "import_memory", 4, "INVALID_VALUE",
                                 "the size passes the allocation's end");
    }
    auto mapping = std::make_shared<IpcMapping>(memory, mapped_, device, id);
    note_mappings(1);
    return std::make_unique<Buffer>(
        std::shared_ptr<std::vector<std::byte>>(mapping, mapping->memory.get()), 0, size, device);
  }
  std::unique_ptr<EventAdapter> create_ipc_event(std::size_t device) override {
    if (device == 1) throw plinth::LogicError("host: the core made an event on device 1");
    return std::make_unique<IpcEvent>(alive_, std::make_shared<std::atomic<int>>(0));
  }
  std::vector<std::byte> export_event(EventAdapter& event) override {
    auto& ipc = dynamic_cast<IpcEvent&>(event);
    auto& table = ipc_table();
    std::lock_guard lock(table.mutex);
    const auto id = table.next++;
    table.events[id] = ipc.recordings();
    return ipc_bytes(id);
  }
  std::unique_ptr<EventAdapter> import_event(std::size_t,
                                             std::span<const std::byte> handle) override {
    const auto id = ipc_id(handle);
    auto& table = ipc_table();
    std::lock_guard lock(table.mutex);
    auto found = table.events.find(id);
    auto recordings = found == table.events.end() ? nullptr : found->second.lock();
    if (!recordings) {
      throw plinth::BackendError("host test", "import_event", 2, "INVALID_HANDLE",
                                 "the exported event is gone");
    }
    return std::make_unique<IpcEvent>(alive_, std::move(recordings));
  }

 private:
  std::shared_ptr<std::set<std::pair<std::size_t, std::uint64_t>>> mapped_ =
      std::make_shared<std::set<std::pair<std::size_t, std::uint64_t>>>();
#endif
};

#if HOST_SDK_MINOR >= 6
void Queue::record_ipc_event(EventAdapter& event) {
  flush();
  // A plain event here would be the core's mistake: it checks that the event is interprocess.
  ++*dynamic_cast<IpcEvent&>(event).recordings();
}
#endif

class Api final : public ApiAdapter {
 public:
  std::string name() const override { return "Host test " HOST_STRING(HOST_SHORTCUT); }
  void initialize() override {}
  std::size_t platform_count() const override { return 1; }
  std::unique_ptr<PlatformAdapter> platform(std::size_t) const override {
    return std::make_unique<Platform>();
  }
  std::unique_ptr<ContextAdapter> create_context(
      std::span<const DeviceAdapter* const> devices) override {
    return std::make_unique<Context>(devices.size());
  }
  std::unique_ptr<ContextAdapter> wrap_context(NativeHandle,
                                               std::span<const DeviceAdapter* const> devices,
                                               bool) override {
    return std::make_unique<Context>(devices.size());
  }
  std::string prelude(bool) const override { return "#define KERNEL\n"; }
#if PLINTH_ABI_MINOR >= 1
  unsigned program_inputs() const override {
    return static_cast<unsigned>(ProgramInputKind::source) |
           static_cast<unsigned>(ProgramInputKind::binary);
  }
#endif
#if HOST_SDK_MINOR >= 3
  std::vector<CompileTarget> compile_targets() const override {
    plinth::DeviceParameters a;
    a.type = plinth::DeviceType::gpu;
    a.warp_size = 7;
    plinth::DeviceParameters b = a;
    b.warp_size = 64;
    return {{"host-a", "the first test target", "hosta", a},
            {"host-b:fast+", "the second test target", "hostb", b},
            { "bad name/..",
              "a name the core must refuse",
              "x",
              a }};
  }
  TargetBinary compile_for_target(std::string_view target, const ProgramInput& input,
                                  const BuildOptions& options) const override {
    std::string source(input.prelude);
    if (!source.empty()) source += '\n';
    for (const auto& array : options.constant_arrays) {
      source += array.ctype + " " + array.name + "[" + std::to_string(array.length) + "];\n";
    }
    source += input.source;
    if (source.find("#error") != std::string::npos) {
      throw plinth::CompileError("host: #error in the source", options.compiler_options, source,
                                 std::string(target));
    }
    if (options.keep != nullptr) options.keep->write_text("program.host", source);
    const std::string text = std::string(target) + "\n" + source;
    const auto* bytes = reinterpret_cast<const std::byte*>(text.data());
    return {{bytes, bytes + text.size()}, options.fast_math ? "fast math on" : ""};
  }
#endif
#if HOST_SDK_MINOR >= 5
  void target_features(std::string_view target, plinth::DeviceFeatures& features) const override {
    features.atomics = true;
    features.native_sub_groups = target == "host-b:fast+";
    features.sub_group_sizes = {target == "host-b:fast+" ? std::size_t{64} : std::size_t { 1 }};
  }
#endif
};

std::unique_ptr<ApiAdapter> create_api() { return std::make_unique<Api>(); }

}  // namespace host

#ifdef HOST_ABI_MINOR
BOOST_DLL_ALIAS_SECTIONED(host::create_api,
                          PLINTH_DETAIL_BACKEND_SYMBOL(HOST_SHORTCUT, PLINTH_ABI_MAJOR,
                                                       HOST_ABI_MINOR),
                          plinth)
#else
PLINTH_BACKEND_PLUGIN(HOST_SHORTCUT, host::create_api)
#endif
