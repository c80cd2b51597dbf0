// plinth-bench-cuda: plinth's CUDA backend against the raw driver API and NVRTC calls it
// wraps, on the same (primary) CUcontext, CUstream, device memory and CUmodule. The device is
// PLINTH_DEVICE's (a `cuda:` term), else CUDA device 0.

#include <cuda.h>
#include <nvrtc.h>
#include <signal.h>
#include <unistd.h>

#include "algorithms.hpp"
#include "common.hpp"
#include "kernels.hpp"
#include "sorting.hpp"

#if PLINTH_BENCH_CUB
#include "cub_reference.h"
#endif

#include <plinth/plinth.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using namespace plinth_bench;

void cu_check(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) name = "unknown error";
  require(false, call, std::string(name) + " (" + std::to_string(static_cast<int>(result)) + ")");
}

void nvrtc_check(nvrtcResult result, const char* call) {
  if (result != NVRTC_SUCCESS) require(false, call, nvrtcGetErrorString(result));
}

int attribute(CUdevice device, CUdevice_attribute which) {
  int value = 0;
  cu_check(cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
  return value;
}

/// Everything the benchmarks share: plinth's objects and the native handles under them.
struct Setup {
  plinth::Context context;
  plinth::BoundDevice device;
  plinth::Queue queue;
  plinth::Program program;
  CUcontext cu_context;
  CUdevice cu_device;
  CUstream stream;
  CUmodule module;

  explicit Setup(const plinth::Context& ctx)
      : context(ctx),
        device(ctx.devices()[0]),
        queue(device),
        program(context, kernels_source),
        cu_context(reinterpret_cast<CUcontext>(context.native_handle(device.index()))),
        cu_device(static_cast<CUdevice>(device.device().native_handle())),
        stream(reinterpret_cast<CUstream>(queue.native_handle())),
        module(reinterpret_cast<CUmodule>(program.native_handle(device))) {
    // plinth's context (the primary one) current on this thread, where the benchmarks run:
    // the raw calls need it, and plinth's calls then find it current (their common case).
    cu_check(cuCtxSetCurrent(cu_context), "cuCtxSetCurrent");
  }

  /// The function of plinth's module: the very CUfunction plinth launches.
  CUfunction function(const char* name) const {
    CUfunction result = nullptr;
    cu_check(cuModuleGetFunction(&result, module, name), "cuModuleGetFunction");
    return result;
  }

  /// Device buffers by (size, slot), allocated on first use and kept.
  plinth::Buffer& buffer(std::size_t size, int slot = 0) {
    auto it = buffers.find({size, slot});
    if (it == buffers.end())
      it = buffers.emplace(std::pair{size, slot}, plinth::Buffer::allocate(device, size)).first;
    return it->second;
  }
  static CUdeviceptr pointer(const plinth::Buffer& buffer) {
    return static_cast<CUdeviceptr>(buffer.native_handle());
  }
  /// Ordinary pageable host memory of at least `size` bytes (written, so its pages exist).
  std::byte* host(std::size_t size) {
    if (host_memory.size() < size) host_memory.assign(size, std::byte{1});
    return host_memory.data();
  }

  /// The device's peak memory bandwidth in bytes/s, from the memory clock and bus width
  /// (double data rate); 0 if the driver does not say.
  double peak_bandwidth() const {
    const double clock_khz = attribute(cu_device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    const double bus_bits = attribute(cu_device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    return clock_khz * 1e3 * 2 * bus_bits / 8;
  }

  /// Page-locked memory of at least `size` bytes from cuMemHostAlloc, for the raw calls.
  std::byte* pinned(std::size_t size) {
    if (pinned_size < size) {
      if (pinned_memory) cu_check(cuMemFreeHost(pinned_memory), "cuMemFreeHost");
      pinned_memory = nullptr;
      pinned_size = 0;
      cu_check(cuMemHostAlloc(&pinned_memory, size, 0), "cuMemHostAlloc");
      pinned_size = size;
      std::memset(pinned_memory, 1, size);
    }
    return static_cast<std::byte*>(pinned_memory);
  }
  /// plinth's page-locked memory (HostArray::page_locked) of at least `size` bytes.
  std::byte* page_locked(std::size_t size) {
    if (user_pinned.nbytes() < size) {
      user_pinned = plinth::HostArray::page_locked(context, {size}, plinth::DType::uint8());
      std::memset(user_pinned.data(), 1, size);
    }
    return user_pinned.data();
  }

  Setup(const Setup&) = delete;
  Setup& operator=(const Setup&) = delete;
  ~Setup() {
    if (pinned_memory) cuMemFreeHost(pinned_memory);
  }

  std::map<std::pair<std::size_t, int>, plinth::Buffer> buffers;
  std::vector<std::byte> host_memory;
  void* pinned_memory = nullptr;
  std::size_t pinned_size = 0;
  plinth::HostArray user_pinned = plinth::HostArray::empty({0}, plinth::DType::uint8());
  bool saxpy_ready = false;
};

void stream_sync(CUstream stream) { cu_check(cuStreamSynchronize(stream), "cuStreamSynchronize"); }

void register_launches(Setup& s) {
  {
    auto prepared = s.program.kernel("empty").prepare({1}, {1});
    CUfunction function = s.function("empty");
    auto pair = register_pair(
        {"launch/empty", Measure::latency, 1.10, {"allocs/iter", "launches"}},
        [&s, prepared](benchmark::State& state) {
          time_launches(
              state, [&] { prepared(s.queue); }, [&] { s.queue.synchronize(); });
        },
        [&s, function](benchmark::State& state) {
          time_launches(
              state,
              [&] {
                cu_check(cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, s.stream, nullptr, nullptr),
                         "cuLaunchKernel");
              },
              [&] { stream_sync(s.stream); });
        });
    configure(pair, configure_launch);
  }
  {
    // A StaticKernel launch, against the raw launch of the very CUfunction it runs.
    const plinth::StaticKernel kernel(s.context.devices()[{s.device.index()}], static_kernel_source,
                                      "empty_static", {1});
    CUfunction function = nullptr;
    cu_check(cuModuleGetFunction(
                 &function, reinterpret_cast<CUmodule>(kernel.program().native_handle(s.device)),
                 "empty_static"),
             "cuModuleGetFunction");
    const auto global = kernel.real_global_size(s.device);
    const auto local = kernel.real_local_size(s.device);
    std::array<unsigned, 3> grid{1, 1, 1}, block{1, 1, 1};
    for (std::size_t d = 0; d < global.size(); ++d) {
      grid[d] = static_cast<unsigned>(global[d] / local[d]);
      block[d] = static_cast<unsigned>(local[d]);
    }
    auto pair = register_pair(
        {"launch/static", Measure::latency, 1.10, {"allocs/iter", "launches"}},
        [&s, kernel](benchmark::State& state) {
          time_launches(
              state, [&] { kernel(s.queue); }, [&] { s.queue.synchronize(); });
        },
        [&s, function, grid, block](benchmark::State& state) {
          time_launches(
              state,
              [&] {
                cu_check(cuLaunchKernel(function, grid[0], grid[1], grid[2], block[0], block[1],
                                        block[2], 0, s.stream, nullptr, nullptr),
                         "cuLaunchKernel");
              },
              [&] { stream_sync(s.stream); });
        });
    configure(pair, configure_launch);
  }
  {
    // Kernel::operator(): prepare and launch in one call, the convenient form. The Kernel
    // remembers the shape after the first call, so later calls cost about a prepared one.
    auto unprepared = s.program.kernel("empty");
    CUfunction function = s.function("empty");
    auto pair = register_pair(
        {"launch/unprepared", Measure::latency, 1.10, {"allocs/iter", "launches"}},
        [&s, unprepared](benchmark::State& state) {
          time_launches(
              state, [&] { unprepared(s.queue, {1}, {1}); }, [&] { s.queue.synchronize(); });
        },
        [&s, function](benchmark::State& state) {
          time_launches(
              state,
              [&] {
                cu_check(cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, s.stream, nullptr, nullptr),
                         "cuLaunchKernel");
              },
              [&] { stream_sync(s.stream); });
        });
    configure(pair, configure_launch);
  }
  {
    // Four arguments passed on every launch, as a caller whose arguments change does.
    auto prepared = s.program.kernel("empty_args").prepare({1}, {1});
    CUfunction function = s.function("empty_args");
    auto pair = register_pair(
        {"launch/4_args", Measure::latency, 1.10, {"allocs/iter", "launches"}},
        [&s, prepared](benchmark::State& state) {
          const auto& y = s.buffer(4096, 0);
          const auto& x = s.buffer(4096, 1);
          const float a = 2.0f;
          const unsigned n = 1024;
          time_launches(
              state, [&] { prepared(s.queue, y, x, a, n); }, [&] { s.queue.synchronize(); });
        },
        [&s, function](benchmark::State& state) {
          const CUdeviceptr y = Setup::pointer(s.buffer(4096, 0));
          const CUdeviceptr x = Setup::pointer(s.buffer(4096, 1));
          const float a = 2.0f;
          const unsigned n = 1024;
          time_launches(
              state,
              [&] {
                void* params[] = {const_cast<CUdeviceptr*>(&y), const_cast<CUdeviceptr*>(&x),
                                  const_cast<float*>(&a), const_cast<unsigned*>(&n)};
                cu_check(cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, s.stream, params, nullptr),
                         "cuLaunchKernel");
              },
              [&] { stream_sync(s.stream); });
        });
    configure(pair, configure_launch);
  }
}

// Queue::record_event (the Event dropped at once, so the queue reuses it) against
// cuEventRecord of one event created beforehand: the least a raw user pays.
void register_events(Setup& s) {
  auto pair = register_pair(
      {"event/record", Measure::latency, 1.10, {"allocs/iter", "launches"}},
      [&s](benchmark::State& state) {
        time_launches(
            state, [&] { (void)s.queue.record_event(); }, [&] { s.queue.synchronize(); });
      },
      [&s](benchmark::State& state) {
        CUevent event = nullptr;
        cu_check(cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
        time_launches(
            state, [&] { cu_check(cuEventRecord(event, s.stream), "cuEventRecord"); },
            [&] { stream_sync(s.stream); });
        cu_check(cuEventDestroy(event), "cuEventDestroy");
      });
  configure(pair, [](auto* b) { b->MinTime(short_min_time)->UseRealTime(); });
}

void register_transfers(Setup& s) {
  for (const bool to_device : {true, false}) {
    for (const std::size_t size : transfer_sizes) {
      for (const bool async : {false, true}) {
        const std::string name = std::string(to_device ? "h2d/" : "d2h/") + size_name(size) +
                                 (async ? "/async" : "/sync");
        // Small asynchronous transfers too: they must cost no more than the raw call.
        const double target = size >= (std::size_t{1} << 20) || async ? 0.95 : 0;
        auto pair = register_pair(
            {name, Measure::throughput, target, {"allocs/iter"}},
            [&s, size, to_device, async](benchmark::State& state) {
              plinth_transfers(state, s.queue, s.buffer(size), s.host(size), size, to_device,
                               async);
            },
            // The raw calls a CUDA user makes on pageable memory: cuMemcpyHtoD/DtoH, or their
            // Async forms on plinth's stream followed by cuStreamSynchronize.
            [&s, size, to_device, async](benchmark::State& state) {
              const CUdeviceptr device = Setup::pointer(s.buffer(size));
              std::byte* host = s.host(size);
              time_transfers(state, size, [&] {
                if (to_device && !async) {
                  cu_check(cuMemcpyHtoD(device, host, size), "cuMemcpyHtoD");
                } else if (to_device) {
                  cu_check(cuMemcpyHtoDAsync(device, host, size, s.stream), "cuMemcpyHtoDAsync");
                  stream_sync(s.stream);
                } else if (!async) {
                  cu_check(cuMemcpyDtoH(host, device, size), "cuMemcpyDtoH");
                } else {
                  cu_check(cuMemcpyDtoHAsync(host, device, size, s.stream), "cuMemcpyDtoHAsync");
                  stream_sync(s.stream);
                }
              });
            });
        const double min_time = size >= (std::size_t{256} << 20) ? long_min_time : short_min_time;
        configure(pair, [&](auto* b) { b->MinTime(min_time)->UseRealTime(); });
      }
    }
  }
}

// Pageable transfers against the link's rate (the raw call from page-locked memory), and
// transfers from a user's page-locked HostArray against the same raw call: 256 MiB.
void register_pinned_transfers(Setup& s) {
  const std::size_t size = std::size_t{256} << 20;
  for (const bool to_device : {true, false}) {
    const std::string way = to_device ? "h2d/" : "d2h/";
    // The raw page-locked call: cuMemHostAlloc'd memory, cuMemcpy*Async + cuStreamSynchronize.
    auto raw = [&s, size, to_device](benchmark::State& state) {
      const CUdeviceptr device = Setup::pointer(s.buffer(size));
      std::byte* host = s.pinned(size);
      time_transfers(state, size, [&] {
        if (to_device)
          cu_check(cuMemcpyHtoDAsync(device, host, size, s.stream), "cuMemcpyHtoDAsync");
        else
          cu_check(cuMemcpyDtoHAsync(host, device, size, s.stream), "cuMemcpyDtoHAsync");
        stream_sync(s.stream);
      });
    };
    for (const bool async : {false, true}) {
      auto pair = register_pair(
          {way + "256MiB/" + (async ? "async" : "sync") + "-vs-pinned",
           Measure::throughput,
           0.9,
           {"allocs/iter"}},
          [&s, size, to_device, async](benchmark::State& state) {
            plinth_transfers(state, s.queue, s.buffer(size), s.host(size), size, to_device, async);
          },
          raw);
      configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
    }
    auto pair = register_pair(
        {way + "256MiB/pinned", Measure::throughput, 0.95, {"allocs/iter"}},
        [&s, size, to_device](benchmark::State& state) {
          plinth_transfers(state, s.queue, s.buffer(size), s.page_locked(size), size, to_device,
                           true);
        },
        raw);
    configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
  }
}

void register_copy(Setup& s) {
  const std::size_t size = std::size_t{1} << 30;
  const double peak = s.peak_bandwidth();
  // Bytes processed = 2 x size: every byte is read once and written once. "% of peak" is that
  // rate against the device's peak memory bandwidth.
  auto percent_of_peak = [peak, size](benchmark::State& state) {
    if (peak > 0)
      state.counters["% of peak"] = benchmark::Counter(
          static_cast<double>(state.iterations()) * 2.0 * static_cast<double>(size) / peak * 100,
          benchmark::Counter::kIsRate);
  };
  auto pair = register_pair(
      {"d2d/" + size_name(size), Measure::throughput, 0, {"% of peak"}},
      [&s, size, percent_of_peak](benchmark::State& state) {
        const auto& dst = s.buffer(size, 0);
        const auto& src = s.buffer(size, 1);
        time_transfers(state, 2 * size, [&] {
          dst.set(s.queue, src);
          s.queue.synchronize();
        });
        percent_of_peak(state);
      },
      [&s, size, percent_of_peak](benchmark::State& state) {
        const CUdeviceptr dst = Setup::pointer(s.buffer(size, 0));
        const CUdeviceptr src = Setup::pointer(s.buffer(size, 1));
        time_transfers(state, 2 * size, [&] {
          cu_check(cuMemcpyDtoDAsync(dst, src, size, s.stream), "cuMemcpyDtoDAsync");
          stream_sync(s.stream);
        });
        percent_of_peak(state);
      });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

/// Rectangular copies (rect_copy.hpp) of an 8192 x 8192 float32 sub-matrix at (1000, 1000) of
/// a 16384 x 16384 one (issue 31's workload; CuPy's `a[1000:9192, 1000:9192]`), against the
/// raw cuMemcpy2DAsync of the same region: device to device (into a packed buffer), device to
/// page-locked host (plinth's page-locked memory against cuMemHostAlloc'd memory), and
/// Array::get of the view into a page-locked HostArray.
void register_rect(Setup& s) {
  constexpr std::size_t n = 16384, box = 8192, at = 1000, item = sizeof(float);
  constexpr std::size_t pitch = n * item, width = box * item, bytes = width * box;
  const plinth::RectRegion region{at * item, at, 0, pitch, 0};
  const plinth::RectExtent extent{width, box, 1};
  // The raw call: the same region into `dst` (device or host) packed, on plinth's stream.
  auto raw_2d = [&s](CUmemorytype dst_type, CUdeviceptr dst_device, void* dst_host) {
    CUDA_MEMCPY2D copy{};
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = Setup::pointer(s.buffer(pitch * n, 0)) + at * pitch + at * item;
    copy.srcPitch = pitch;
    copy.dstMemoryType = dst_type;
    copy.dstDevice = dst_device;
    copy.dstHost = dst_host;
    copy.dstPitch = width;
    copy.WidthInBytes = width;
    copy.Height = box;
    cu_check(cuMemcpy2DAsync(&copy, s.stream), "cuMemcpy2DAsync");
    stream_sync(s.stream);
  };
  auto long_run = [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); };
  configure(
      register_pair(
          {"rect/d2d/8192x8192_of_16384", Measure::throughput, 0.95, {}},
          [&s, region, extent](benchmark::State& state) {
            const auto& src = s.buffer(pitch * n, 0);
            const auto& dst = s.buffer(bytes, 1);
            time_transfers(state, 2 * bytes,
                           [&] { plinth::copy_rect(s.queue, dst, {}, src, region, extent, true); });
          },
          [&s, raw_2d](benchmark::State& state) {
            const CUdeviceptr dst = Setup::pointer(s.buffer(bytes, 1));
            time_transfers(state, 2 * bytes, [&] { raw_2d(CU_MEMORYTYPE_DEVICE, dst, nullptr); });
          }),
      long_run);
  configure(register_pair(
                {"rect/d2h_pinned/8192x8192_of_16384", Measure::throughput, 0.95, {}},
                [&s, region, extent](benchmark::State& state) {
                  const auto& src = s.buffer(pitch * n, 0);
                  const std::span<std::byte> host(s.page_locked(bytes), bytes);
                  time_transfers(state, bytes, [&] {
                    plinth::read_rect(s.queue, host, {}, src, region, extent);
                  });
                },
                [&s, raw_2d](benchmark::State& state) {
                  void* host = s.pinned(bytes);
                  time_transfers(state, bytes, [&] { raw_2d(CU_MEMORYTYPE_HOST, 0, host); });
                }),
            long_run);
  configure(
      register_pair(
          {"rect/array_get_pinned/8192x8192_of_16384", Measure::throughput, 0.90, {}},
          [&s](benchmark::State& state) {
            const auto whole = plinth::Array::from_buffer(
                s.buffer(pitch * n, 0), plinth::ArrayMetadata({n, n}, plinth::DType::float32()));
            const auto lo = static_cast<std::ptrdiff_t>(at);
            const auto hi = static_cast<std::ptrdiff_t>(at + box);
            const auto view = whole.view({plinth::Slice(lo, hi), plinth::Slice(lo, hi)});
            const auto host =
                plinth::HostArray::page_locked(s.context, {box, box}, plinth::DType::float32());
            time_transfers(state, bytes, [&] { view.get(s.queue, host); });
          },
          [&s, raw_2d](benchmark::State& state) {
            void* host = s.pinned(bytes);
            time_transfers(state, bytes, [&] { raw_2d(CU_MEMORYTYPE_HOST, 0, host); });
          }),
      long_run);
}

/// The other process of the IPC benchmark: this program again, run as
/// `plinth-bench-cuda --plinth-ipc-exporter <bytes> <parent pid>`. It allocates the buffer,
/// prints its pid and the buffer's IpcMemoryHandle on one line, and stays until the parent
/// kills it (or is gone). CUDA maps only other processes' memory, hence the second process.
int ipc_exporter(std::size_t size, pid_t parent) {
  try {
    const auto api = plinth::API::from_api_id(plinth::APIID{"cuda"});
    const auto context = plinth::Context::from_criteria(api);
    const auto buffer = plinth::Buffer::allocate(context.devices()[0], size);
    const plinth::Queue queue(context.devices()[0]);
    buffer.set(queue, std::vector<std::byte>(size, std::byte{3}), true);
    std::cout << ::getpid() << " " << buffer.ipc_handle().to_string() << std::endl;
    while (::kill(parent, 0) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return 0;
  } catch (const std::exception& error) {
    std::cout << "error " << error.what() << std::endl;
    return 1;
  }
}

/// The exporting child of register_ipc() and the buffer imported from it; the child is killed
/// (after the import is dropped) when this goes.
struct IpcExporter {
  FILE* pipe = nullptr;
  pid_t pid = -1;
  std::optional<plinth::Buffer> imported;

  IpcExporter() = default;
  IpcExporter(const IpcExporter&) = delete;
  IpcExporter& operator=(const IpcExporter&) = delete;
  ~IpcExporter() {
    imported.reset();  // unmapped before the exporter frees the memory
    if (pid > 0) ::kill(pid, SIGTERM);
    if (pipe != nullptr) ::pclose(pipe);
  }
};

/// ipc-d2d: a device-to-device copy from a buffer another process exported
/// (Buffer::from_ipc_handle) into a local one, against cuMemcpyDtoDAsync between two local
/// buffers: the imported buffer's copy rate as a fraction of the local one (target 0.98).
/// Skipped, saying why, where the device has no IPC or the exporter cannot start.
void register_ipc(Setup& s, IpcExporter& exporter) {
  const std::size_t size = std::size_t{1} << 30;
  const auto support = plinth::ipc_support(s.device);
  if (!support.memory) {
    std::cout << "ipc-d2d skipped: " << support.reason << std::endl;
    return;
  }
  const auto self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string command = "'" + self + "' --plinth-ipc-exporter " + std::to_string(size) + " " +
                              std::to_string(::getpid());
  exporter.pipe = ::popen(command.c_str(), "r");
  std::array<char, 8192> line{};
  if (exporter.pipe == nullptr || std::fgets(line.data(), line.size(), exporter.pipe) == nullptr) {
    std::cout << "ipc-d2d skipped: the exporting process did not start" << std::endl;
    return;
  }
  std::istringstream words(line.data());
  std::string pid_text, handle_text;
  words >> pid_text >> handle_text;
  if (pid_text == "error") {
    std::cout << "ipc-d2d skipped: the exporting process failed: " << line.data() << std::flush;
    return;
  }
  exporter.pid = static_cast<pid_t>(std::stol(pid_text));
  exporter.imported.emplace(
      plinth::Buffer::from_ipc_handle(s.device, plinth::IpcMemoryHandle::from_string(handle_text)));
  std::vector<std::byte> first(16);
  exporter.imported->get_sub_region(0, 16).get(s.queue, first);
  require(first == std::vector<std::byte>(16, std::byte{3}), "ipc-d2d",
          "the imported buffer does not hold what the exporter wrote");
  auto pair = register_pair(
      {"ipc-d2d/" + size_name(size), Measure::throughput, 0.98, {}},
      [&s, &exporter, size](benchmark::State& state) {
        const auto& dst = s.buffer(size, 0);
        time_transfers(state, 2 * size, [&] {
          dst.set(s.queue, *exporter.imported);
          s.queue.synchronize();
        });
      },
      [&s, size](benchmark::State& state) {
        const CUdeviceptr dst = Setup::pointer(s.buffer(size, 0));
        const CUdeviceptr src = Setup::pointer(s.buffer(size, 1));
        time_transfers(state, 2 * size, [&] {
          cu_check(cuMemcpyDtoDAsync(dst, src, size, s.stream), "cuMemcpyDtoDAsync");
          stream_sync(s.stream);
        });
      });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

/// Fills of 1 GiB against cuMemsetD32Async of the same bytes: Buffer::fill with a 4-byte
/// pattern that repeats no shorter one (so it is the D32 call), and full() of a float32 array
/// (the array's creation from the pool and the fill), both targeted at 0.95. Bytes processed:
/// the bytes written.
void register_fill(Setup& s) {
  const std::size_t size = std::size_t{1} << 30;
  const std::uint32_t word = 0x3f800001;  // bytes 01 00 80 3f
  const auto raw = [&s, size, word](benchmark::State& state) {
    const CUdeviceptr dst = Setup::pointer(s.buffer(size, 0));
    time_transfers(state, size, [&] {
      cu_check(cuMemsetD32Async(dst, word, size / 4, s.stream), "cuMemsetD32Async");
      stream_sync(s.stream);
    });
  };
  auto pair = register_pair(
      {"fill/" + size_name(size) + "/pattern4", Measure::throughput, 0.95, {}},
      [&s, size, word](benchmark::State& state) {
        const auto& dst = s.buffer(size, 0);
        time_transfers(state, size, [&] {
          dst.fill(s.queue, word);
          s.queue.synchronize();
        });
      },
      raw);
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
  pair = register_pair(
      {"full/float32/" + size_name(size), Measure::throughput, 0.95, {}},
      [&s, size](benchmark::State& state) {
        time_transfers(state, size, [&] {
          const auto array = plinth::full(s.queue, {size / 4}, 1.0f, plinth::DType::float32());
          s.queue.synchronize();
        });
      },
      [&s, size](benchmark::State& state) {
        const CUdeviceptr dst = Setup::pointer(s.buffer(size, 0));
        time_transfers(state, size, [&] {
          cu_check(cuMemsetD32Async(dst, 0x3f800000u, size / 4, s.stream), "cuMemsetD32Async");
          stream_sync(s.stream);
        });
      });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

/// NVRTC's options as plinth's CUDA backend chooses them: a CUBIN for the device's exact
/// architecture when NVRTC knows it, else PTX for the newest older one it knows.
struct NvrtcTarget {
  std::vector<std::string> options;
  bool ptx = false;
};

NvrtcTarget nvrtc_target(CUdevice device) {
  const int arch = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
                   attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  int count = 0;
  nvrtc_check(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
  std::vector<int> archs(static_cast<std::size_t>(count));
  nvrtc_check(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
  NvrtcTarget target;
  target.options.emplace_back("--std=c++17");
  if (std::find(archs.begin(), archs.end(), arch) != archs.end()) {
    target.options.push_back("--gpu-architecture=sm_" + std::to_string(arch));
  } else {
    int best = 0;
    for (int known : archs)
      if (known <= arch) best = std::max(best, known);
    require(best > 0, "nvrtcGetSupportedArchs", "no architecture for sm_" + std::to_string(arch));
    target.options.push_back("--gpu-architecture=compute_" + std::to_string(best));
    target.ptx = true;
  }
  return target;
}

void register_build(Setup& s) {
  const std::string prelude = prelude_of(s.program.source(), kernels_source);
  require(!prelude.empty(), "Program::source", "does not end with the program's source");
  const NvrtcTarget target = nvrtc_target(s.cu_device);
  auto pair = register_pair(
      {"build/program", Measure::latency, 0, {}},
      [&s](benchmark::State& state) {
        for (auto _ : state) {
          plinth::Program program(s.context, build_source(unique_token()));
          benchmark::DoNotOptimize(program);
        }
      },
      // NVRTC to a CUBIN (as plinth does, with its options), then cuModuleLoadData; the module
      // is unloaded, as plinth's program is destroyed, within the iteration.
      [prelude, target](benchmark::State& state) {
        std::vector<const char*> options;
        for (const auto& option : target.options) options.push_back(option.c_str());
        for (auto _ : state) {
          const std::string source = prelude + build_source(unique_token());
          nvrtcProgram program = nullptr;
          nvrtc_check(
              nvrtcCreateProgram(&program, source.c_str(), "program.cu", 0, nullptr, nullptr),
              "nvrtcCreateProgram");
          std::vector<char> image;
          const nvrtcResult compiled =
              nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
          std::size_t size = 0;
          if (compiled == NVRTC_SUCCESS) {
            if (target.ptx) {
              nvrtc_check(nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
              image.resize(size);
              nvrtc_check(nvrtcGetPTX(program, image.data()), "nvrtcGetPTX");
            } else {
              nvrtc_check(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
              image.resize(size);
              nvrtc_check(nvrtcGetCUBIN(program, image.data()), "nvrtcGetCUBIN");
            }
          }
          nvrtcDestroyProgram(&program);
          nvrtc_check(compiled, "nvrtcCompileProgram");
          CUmodule module = nullptr;
          cu_check(cuModuleLoadData(&module, image.data()), "cuModuleLoadData");
          cu_check(cuModuleUnload(module), "cuModuleUnload");
        }
      });
  configure(pair, [](auto* b) {
    b->Iterations(build_iterations)->UseRealTime()->Unit(benchmark::kMillisecond);
  });
}

void register_kernel(Setup& s) {
  const unsigned n = 64u << 20;  // 64M floats: 256 MiB per array
  const std::size_t bytes = std::size_t{n} * sizeof(float);
  const std::size_t moved = 3 * bytes;  // read x, read y, write y
  auto prepared = s.program.kernel("saxpy").prepare({n}, {saxpy_local_size});
  CUfunction function = s.function("saxpy");
  // x and y have buffers of their own (slots 2 and 3), filled once: other benchmarks' data
  // could make denormal numbers, slow on some CPUs.
  auto init = [&s, n, bytes] {
    if (s.saxpy_ready) return;
    std::vector<float> values(n, 1.0f);
    s.buffer(bytes, 2).set(s.queue, std::as_bytes(std::span(values)), true);
    s.buffer(bytes, 3).set(s.queue, std::as_bytes(std::span(values)), true);
    s.saxpy_ready = true;
  };
  // Both time the kernel between two events recorded on the stream around the launch;
  // the same CUfunction, the same grid (n / 256 blocks of 256 threads).
  auto pair = register_pair(
      {"kernel/saxpy_64M", Measure::latency, 1.05, {"GB/s"}},
      [&s, prepared, init, n, bytes, moved](benchmark::State& state) {
        init();
        const auto& x = s.buffer(bytes, 2);
        const auto& y = s.buffer(bytes, 3);
        const float a = 1e-6f;
        time_on_device(state, moved, [&] {
          const auto start = s.queue.record_event();
          prepared(s.queue, y, x, a, n);
          const auto end = s.queue.record_event();
          return plinth::elapsed_ms(start, end) / 1e3;
        });
      },
      [&s, function, init, n, bytes, moved](benchmark::State& state) {
        init();
        CUdeviceptr x = Setup::pointer(s.buffer(bytes, 2));
        CUdeviceptr y = Setup::pointer(s.buffer(bytes, 3));
        float a = 1e-6f;
        unsigned count = n;
        void* params[] = {&y, &x, &a, &count};
        CUevent events[2] = {nullptr, nullptr};
        for (auto& event : events)
          cu_check(cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
        const auto blocks = static_cast<unsigned>(n / saxpy_local_size);
        const auto threads = static_cast<unsigned>(saxpy_local_size);
        try {
          time_on_device(state, moved, [&] {
            cu_check(cuEventRecord(events[0], s.stream), "cuEventRecord");
            cu_check(
                cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, s.stream, params, nullptr),
                "cuLaunchKernel");
            cu_check(cuEventRecord(events[1], s.stream), "cuEventRecord");
            cu_check(cuEventSynchronize(events[1]), "cuEventSynchronize");
            float ms = 0;
            cu_check(cuEventElapsedTime(&ms, events[0], events[1]), "cuEventElapsedTime");
            return static_cast<double>(ms) / 1e3;
          });
        } catch (...) {
          for (auto event : events) cuEventDestroy(event);
          throw;
        }
        for (auto event : events) cuEventDestroy(event);
      });
  configure(pair, [](auto* b) {
    b->MinTime(long_min_time)->UseManualTime()->Unit(benchmark::kMillisecond);
  });
}

/// Managed memory (issue 31): saxpy over 64M floats of cuMemAllocManaged memory, prefetched to
/// the device once, through plinth (Buffer::allocate_managed, Buffer::prefetch, the prepared
/// kernel) and through the raw calls (cuMemAllocManaged, cuMemPrefetchAsync, cuLaunchKernel).
/// Both time the kernel alone between events, as kernel/saxpy_64M does over device memory, so
/// the two rows also show what managed memory costs a kernel once it is resident.
void register_managed(Setup& s) {
  if (attribute(s.cu_device, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS) == 0) {
    std::cout << "managed/ rows left out: the device has no concurrent managed access" << std::endl;
    return;
  }
  const unsigned n = 64u << 20;
  const std::size_t bytes = std::size_t{n} * sizeof(float);
  const std::size_t moved = 3 * bytes;
  auto prepared = s.program.kernel("saxpy").prepare({n}, {saxpy_local_size});
  CUfunction function = s.function("saxpy");
  // Filled on the host through the managed pointers, then prefetched: the kernels find the
  // pages on the device.
  auto fill = [n](float* values) { std::fill(values, values + n, 1.0f); };
  auto ours = std::make_shared<std::optional<std::pair<plinth::Buffer, plinth::Buffer>>>();
  auto plinth_side = [&s, prepared, ours, fill, n, bytes, moved](benchmark::State& state) {
    if (!*ours) {
      ours->emplace(plinth::Buffer::allocate_managed(s.device, bytes),
                    plinth::Buffer::allocate_managed(s.device, bytes));
      for (const auto* buffer : {&(*ours)->first, &(*ours)->second}) {
        fill(reinterpret_cast<float*>(buffer->host_pointer()));
        require(buffer->prefetch(s.queue), "Buffer::prefetch", "no prefetch on this device");
      }
      s.queue.synchronize();
    }
    const auto& [x, y] = **ours;
    const float a = 1e-6f;
    time_on_device(state, moved, [&] {
      const auto start = s.queue.record_event();
      prepared(s.queue, y, x, a, n);
      const auto end = s.queue.record_event();
      return plinth::elapsed_ms(start, end) / 1e3;
    });
  };
  auto raw_side = [&s, function, fill, n, bytes, moved](benchmark::State& state) {
    std::array<CUdeviceptr, 2> memory{0, 0};
    CUevent events[2] = {nullptr, nullptr};
    auto release = [&] {
      for (auto event : events)
        if (event) cuEventDestroy(event);
      for (auto pointer : memory)
        if (pointer) cuMemFree(pointer);
    };
    try {
      CUmemLocation device{};
      device.type = CU_MEM_LOCATION_TYPE_DEVICE;
      device.id = s.cu_device;
      for (auto& pointer : memory) {
        cu_check(cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged");
        fill(reinterpret_cast<float*>(pointer));
        cu_check(cuMemPrefetchAsync(pointer, bytes, device, 0, s.stream), "cuMemPrefetchAsync");
      }
      stream_sync(s.stream);
      CUdeviceptr y = memory[1];
      CUdeviceptr x = memory[0];
      float a = 1e-6f;
      unsigned count = n;
      void* params[] = {&y, &x, &a, &count};
      for (auto& event : events) cu_check(cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
      const auto blocks = static_cast<unsigned>(n / saxpy_local_size);
      const auto threads = static_cast<unsigned>(saxpy_local_size);
      time_on_device(state, moved, [&] {
        cu_check(cuEventRecord(events[0], s.stream), "cuEventRecord");
        cu_check(
            cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, s.stream, params, nullptr),
            "cuLaunchKernel");
        cu_check(cuEventRecord(events[1], s.stream), "cuEventRecord");
        cu_check(cuEventSynchronize(events[1]), "cuEventSynchronize");
        float ms = 0;
        cu_check(cuEventElapsedTime(&ms, events[0], events[1]), "cuEventElapsedTime");
        return static_cast<double>(ms) / 1e3;
      });
    } catch (...) {
      release();
      throw;
    }
    release();
  };
  auto pair = register_pair({"managed/saxpy_64M_prefetched", Measure::latency, 1.05, {"GB/s"}},
                            plinth_side, raw_side);
  configure(pair, [](auto* b) {
    b->MinTime(long_min_time)->UseManualTime()->Unit(benchmark::kMillisecond);
  });
}

/// The device memory pool (issue 26, docs/performance.md): a cached block's allocation and
/// release against the driver's pairs, an expression into a new result against the same into
/// an existing array, and a small new result's heap and driver allocations per call.
void register_pool(Setup& s) {
  const plinth::MemoryPool pool = plinth::MemoryPool::of(s.context);
  const std::size_t block = std::size_t{1} << 20;

  // MemoryPool::allocate(queue, 1 MiB) and the Buffer's release, against the driver's pair
  // (cuMemAlloc + cuMemFree, which synchronises the device) and CUDA's own stream-ordered
  // pool (cuMemAllocAsync + cuMemFreeAsync on plinth's stream). Host time per pair.
  auto pooled = [&s, pool, block](benchmark::State& state) {
    warm_up([&] {
      plinth::Buffer buffer = pool.allocate(s.queue, block);
      benchmark::DoNotOptimize(buffer);
    });
    const PoolMissCounter misses(pool, s.device);
    AllocationCounter allocs;
    for (auto _ : state) {
      plinth::Buffer buffer = pool.allocate(s.queue, block);
      benchmark::DoNotOptimize(buffer);
    }
    allocs.report(state);
    misses.report(state);
  };
  for (const bool async : {false, true}) {
    auto raw = [&s, block, async](benchmark::State& state) {
      auto alloc_free = [&] {
        CUdeviceptr pointer = 0;
        if (async) {
          cu_check(cuMemAllocAsync(&pointer, block, s.stream), "cuMemAllocAsync");
          cu_check(cuMemFreeAsync(pointer, s.stream), "cuMemFreeAsync");
        } else {
          cu_check(cuMemAlloc(&pointer, block), "cuMemAlloc");
          cu_check(cuMemFree(pointer), "cuMemFree");
        }
      };
      warm_up(alloc_free);
      AllocationCounter allocs;
      for (auto _ : state) alloc_free();
      allocs.report(state);
      stream_sync(s.stream);
      // cuMemAlloc is a driver allocation every time; the stream-ordered pool's are not
      // counted (the driver does not say).
      if (!async) state.counters["misses/iter"] = 1;
    };
    auto pair = register_pair({async ? "pool/alloc_free_1MiB_vs_async" : "pool/alloc_free_1MiB",
                               Measure::latency,
                               0,
                               {"misses/iter", "allocs/iter"},
                               0.5e-6,
                               {"misses/iter"}},
                              pooled, raw);
    configure(pair, [](auto* b) { b->MinTime(short_min_time)->UseRealTime(); });
  }

  // HostArray::page_locked(context, 1 MiB) and its release, the block cached by the warm-up
  // (PageLockedMemoryPool; a reused block is zero-filled again, as every page_locked() array
  // is), against the driver's pair cuMemHostAlloc + cuMemFreeHost. Host time per pair.
  {
    const plinth::PageLockedMemoryPool host_pool = plinth::PageLockedMemoryPool::of(s.context);
    auto pooled_host = [&s, host_pool, block](benchmark::State& state) {
      const auto make = [&] {
        const auto array =
            plinth::HostArray::page_locked(s.context, {block}, plinth::DType::uint8());
        benchmark::DoNotOptimize(array.data());
      };
      warm_up(make);
      const auto misses_before = host_pool.stats().misses;
      AllocationCounter allocs;
      for (auto _ : state) make();
      allocs.report(state);
      if (host_pool.enabled() && state.iterations() > 0)
        state.counters["misses/iter"] =
            static_cast<double>(host_pool.stats().misses - misses_before) /
            static_cast<double>(state.iterations());
    };
    auto raw_host = [block](benchmark::State& state) {
      const auto alloc_free = [&] {
        void* memory = nullptr;
        cu_check(cuMemHostAlloc(&memory, block, CU_MEMHOSTALLOC_PORTABLE), "cuMemHostAlloc");
        std::memset(memory, 0, block);  // as page_locked() zero-fills
        benchmark::DoNotOptimize(memory);
        cu_check(cuMemFreeHost(memory), "cuMemFreeHost");
      };
      warm_up(alloc_free);
      AllocationCounter allocs;
      for (auto _ : state) alloc_free();
      allocs.report(state);
      state.counters["misses/iter"] = 1;
    };
    auto pair = register_pair({"pool/page_locked_1MiB",
                               Measure::latency,
                               0,
                               {"misses/iter", "allocs/iter"},
                               0,
                               {"misses/iter"}},
                              pooled_host, raw_host);
    configure(pair, [](auto* b) { b->MinTime(short_min_time)->UseRealTime(); });
  }

  // z = 2.5*x + y on 2^28 float32 (1 GiB per array; 3 x 1 GiB moved per call) into a new
  // result (evaluate(), dropped at once: its block goes back to the pool) against the same
  // expression into an existing array (assign()). Both are complete calls (real time of the
  // call and a synchronize()), so every allocation cost counts. "raw" is plinth's own
  // assign() here: no vendor call makes a new array.
  {
    const std::size_t n = std::size_t{1} << 28;
    const std::size_t moved = 3 * n * sizeof(float);
    struct Arrays {
      plinth::Array x, y, z;
    };
    auto arrays = std::make_shared<std::optional<Arrays>>();
    auto init = [&s, arrays, n]() -> const Arrays& {
      if (!*arrays) {
        const auto f32 = plinth::DType::float32();
        Arrays made{plinth::Array::empty(s.queue, {n}, f32),
                    plinth::Array::empty(s.queue, {n}, f32),
                    plinth::Array::empty(s.queue, {n}, f32)};
        plinth::fill(s.queue, made.x, 1.0f);
        plinth::fill(s.queue, made.y, 1.0f);
        plinth::fill(s.queue, made.z, 0.0f);
        s.queue.synchronize();
        *arrays = std::move(made);
      }
      return **arrays;
    };
    // Real time per complete call, as bytes/s of `moved` per call and as the counter "GB/s"
    // (10^9 bytes), and "allocs/iter"; the warm-up first.
    auto time_calls = [moved](benchmark::State& state, const std::function<void()>& call) {
      warm_up(call);
      AllocationCounter allocs;
      const auto start = std::chrono::steady_clock::now();
      for (auto _ : state) call();
      const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
      allocs.report(state);
      state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(moved));
      state.counters["GB/s"] = static_cast<double>(state.iterations()) *
                               static_cast<double>(moved) / seconds.count() / 1e9;
    };
    auto pair = register_pair(
        {"pool/axpy_float32_1GiB_new-vs-existing",
         Measure::throughput,
         0.95,
         {"GB/s", "misses/iter", "allocs/iter"},
         0,
         {"misses/iter"}},
        [&s, pool, init, time_calls](benchmark::State& state) {
          const auto& a = init();
          auto call = [&] {
            {
              plinth::Array z = plinth::evaluate(s.queue, 2.5 * a.x + a.y);
              benchmark::DoNotOptimize(z);
            }
            s.queue.synchronize();
          };
          warm_up(call);  // fills the pool before its misses are counted
          const PoolMissCounter misses(pool, s.device);
          time_calls(state, call);
          misses.report(state);
        },
        [&s, init, time_calls](benchmark::State& state) {
          const auto& a = init();
          time_calls(state, [&] {
            plinth::assign(s.queue, a.z, 2.5 * a.x + a.y);
            s.queue.synchronize();
          });
        });
    configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
  }

  // x*2 + 1 on 4096 float32 into a new result, the expression built on every call as a user
  // writes it: host time per call (the queue synchronized, untimed, every 256 calls), heap
  // allocations per call, and driver allocations per call on a warm pool (0: every result
  // reuses a cached block). Against the raw way to a new result with CUDA's stream-ordered
  // pool: cuMemAllocAsync, the launch of a hand-written kernel of the same work, cuMemFreeAsync.
  {
    const unsigned n = 4096;
    auto x = std::make_shared<plinth::Array>(
        plinth::Array::empty(s.queue, {n}, plinth::DType::float32()));
    plinth::fill(s.queue, *x, 1.0f);
    s.queue.synchronize();
    const plinth::Program program(s.context, scale_shift_source);
    CUfunction function = nullptr;
    cu_check(
        cuModuleGetFunction(&function, reinterpret_cast<CUmodule>(program.native_handle(s.device)),
                            "scale_shift"),
        "cuModuleGetFunction");
    auto pair = register_pair(
        {"pool/small_new_result_4096",
         Measure::latency,
         0,
         {"misses/iter", "allocs/iter", "launches"},
         0,
         {"misses/iter"}},
        [&s, pool, x](benchmark::State& state) {
          auto call = [&] {
            plinth::Array z = plinth::evaluate(s.queue, *x * 2 + 1);
            benchmark::DoNotOptimize(z);
          };
          warm_up([&] {
            call();
            s.queue.synchronize();
          });
          const PoolMissCounter misses(pool, s.device);
          time_launches(state, call, [&] { s.queue.synchronize(); });
          misses.report(state);
        },
        [&s, program, function, x, n](benchmark::State& state) {
          CUdeviceptr in = Setup::pointer(x->base_buffer());
          const std::size_t bytes = std::size_t{n} * sizeof(float);
          const unsigned blocks =
              static_cast<unsigned>((n + saxpy_local_size - 1) / saxpy_local_size);
          const unsigned threads = static_cast<unsigned>(saxpy_local_size);
          time_launches(
              state,
              [&] {
                CUdeviceptr out = 0;
                cu_check(cuMemAllocAsync(&out, bytes, s.stream), "cuMemAllocAsync");
                float a = 2.0f, b = 1.0f;
                unsigned count = n;
                void* params[] = {&out, &in, &a, &b, &count};
                cu_check(cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, s.stream, params,
                                        nullptr),
                         "cuLaunchKernel");
                cu_check(cuMemFreeAsync(out, s.stream), "cuMemFreeAsync");
              },
              [&] { stream_sync(s.stream); });
        });
    configure(pair, [](auto* b) { b->MinTime(short_min_time)->UseRealTime(); });
  }
}

/// The sorting benchmarks (sorting.hpp): against CUB's DeviceRadixSort where nvcc built the
/// CUB references, else against cuMemcpyDtoDAsync of the keys.
void register_sorting_references(Setup& s) {
  SortReferences refs;
  refs.copy = [&s](const plinth::Buffer& dst, const plinth::Buffer& src, std::size_t bytes) {
    cu_check(cuMemcpyDtoDAsync(Setup::pointer(dst), Setup::pointer(src), bytes, s.stream),
             "cuMemcpyDtoDAsync");
    stream_sync(s.stream);
  };
#if PLINTH_BENCH_CUB
  auto temp = std::make_shared<std::optional<plinth::Buffer>>();
  auto storage = [&s, temp](std::size_t bytes) -> void* {
    if (!*temp || (*temp)->size() < bytes)
      *temp = plinth::Buffer::allocate(s.device, std::max<std::size_t>(bytes, 1));
    return reinterpret_cast<void*>(Setup::pointer(**temp));
  };
  auto cuda_check = [](int code, const char* call) {
    require(code == 0, call, "cudaError_t " + std::to_string(code));
  };
  refs.sort_keys_float32 = [&s, storage, cuda_check](const plinth::Buffer& in,
                                                     const plinth::Buffer& out, std::size_t n) {
    const auto* x = reinterpret_cast<const float*>(Setup::pointer(in));
    auto* y = reinterpret_cast<float*>(Setup::pointer(out));
    std::size_t bytes = 0;
    cuda_check(plinth_bench_cub_sort_keys_float32(x, y, n, nullptr, &bytes, s.stream),
               "cub::DeviceRadixSort::SortKeys");
    cuda_check(plinth_bench_cub_sort_keys_float32(x, y, n, storage(bytes), &bytes, s.stream),
               "cub::DeviceRadixSort::SortKeys");
    stream_sync(s.stream);
  };
  refs.sort_keys_int32 = [&s, storage, cuda_check](const plinth::Buffer& in,
                                                   const plinth::Buffer& out, std::size_t n) {
    const auto* x = reinterpret_cast<const int*>(Setup::pointer(in));
    auto* y = reinterpret_cast<int*>(Setup::pointer(out));
    std::size_t bytes = 0;
    cuda_check(plinth_bench_cub_sort_keys_int32(x, y, n, nullptr, &bytes, s.stream),
               "cub::DeviceRadixSort::SortKeys");
    cuda_check(plinth_bench_cub_sort_keys_int32(x, y, n, storage(bytes), &bytes, s.stream),
               "cub::DeviceRadixSort::SortKeys");
    stream_sync(s.stream);
  };
  refs.sort_pairs_float32_int64 = [&s, storage, cuda_check](
                                      const plinth::Buffer& keys_in, const plinth::Buffer& keys_out,
                                      const plinth::Buffer& values_in,
                                      const plinth::Buffer& values_out, std::size_t n) {
    const auto* k = reinterpret_cast<const float*>(Setup::pointer(keys_in));
    auto* ko = reinterpret_cast<float*>(Setup::pointer(keys_out));
    const auto* v = reinterpret_cast<const long long*>(Setup::pointer(values_in));
    auto* vo = reinterpret_cast<long long*>(Setup::pointer(values_out));
    std::size_t bytes = 0;
    cuda_check(
        plinth_bench_cub_sort_pairs_float32_int64(k, ko, v, vo, n, nullptr, &bytes, s.stream),
        "cub::DeviceRadixSort::SortPairs");
    cuda_check(plinth_bench_cub_sort_pairs_float32_int64(k, ko, v, vo, n, storage(bytes), &bytes,
                                                         s.stream),
               "cub::DeviceRadixSort::SortPairs");
    stream_sync(s.stream);
  };
#endif
  register_sorting(s.queue, std::size_t{1} << 26, std::move(refs));
}

/// The algorithm benchmarks (algorithms.hpp) against cuMemcpyDtoDAsync and, where nvcc built
/// them, CUB's DeviceReduce::Sum and ::Max and DeviceScan::ExclusiveSum on the same stream and
/// buffers.
void register_algorithm_references(Setup& s) {
  AlgorithmReferences refs;
  refs.copy_name = "cuMemcpyDtoDAsync";
  refs.copy_target = 0.95;
  refs.copy = [&s](const plinth::Buffer& dst, const plinth::Buffer& src, std::size_t bytes) {
    cu_check(cuMemcpyDtoDAsync(Setup::pointer(dst), Setup::pointer(src), bytes, s.stream),
             "cuMemcpyDtoDAsync");
    stream_sync(s.stream);
  };
#if PLINTH_BENCH_CUB
  // CUB's temporary storage, allocated by its first call's request and kept.
  auto temp = std::make_shared<std::optional<plinth::Buffer>>();
  auto storage = [&s, temp](std::size_t bytes) -> void* {
    if (!*temp || (*temp)->size() < bytes)
      *temp = plinth::Buffer::allocate(s.device, std::max<std::size_t>(bytes, 1));
    return reinterpret_cast<void*>(Setup::pointer(**temp));
  };
  auto cuda_check = [](int code, const char* call) {
    require(code == 0, call, "cudaError_t " + std::to_string(code));
  };
  refs.sum_float32 = [&s, storage, cuda_check](const plinth::Buffer& in, const plinth::Buffer& out,
                                               std::size_t n) {
    const auto* x = reinterpret_cast<const float*>(Setup::pointer(in));
    auto* y = reinterpret_cast<float*>(Setup::pointer(out));
    std::size_t bytes = 0;
    cuda_check(plinth_bench_cub_sum_float32(x, y, n, nullptr, &bytes, s.stream),
               "cub::DeviceReduce::Sum");
    cuda_check(plinth_bench_cub_sum_float32(x, y, n, storage(bytes), &bytes, s.stream),
               "cub::DeviceReduce::Sum");
    stream_sync(s.stream);
  };
  refs.max_float32 = [&s, storage, cuda_check](const plinth::Buffer& in, const plinth::Buffer& out,
                                               std::size_t n) {
    const auto* x = reinterpret_cast<const float*>(Setup::pointer(in));
    auto* y = reinterpret_cast<float*>(Setup::pointer(out));
    std::size_t bytes = 0;
    cuda_check(plinth_bench_cub_max_float32(x, y, n, nullptr, &bytes, s.stream),
               "cub::DeviceReduce::Max");
    cuda_check(plinth_bench_cub_max_float32(x, y, n, storage(bytes), &bytes, s.stream),
               "cub::DeviceReduce::Max");
    stream_sync(s.stream);
  };
  refs.exclusive_sum_int32 = [&s, storage, cuda_check](const plinth::Buffer& in,
                                                       const plinth::Buffer& out, std::size_t n) {
    const auto* x = reinterpret_cast<const int*>(Setup::pointer(in));
    auto* y = reinterpret_cast<int*>(Setup::pointer(out));
    std::size_t bytes = 0;
    cuda_check(plinth_bench_cub_exclusive_sum_int32(x, y, n, nullptr, &bytes, s.stream),
               "cub::DeviceScan::ExclusiveSum");
    cuda_check(plinth_bench_cub_exclusive_sum_int32(x, y, n, storage(bytes), &bytes, s.stream),
               "cub::DeviceScan::ExclusiveSum");
    stream_sync(s.stream);
  };
  // Issue 29: histogram and argmax.
  refs.histogram_even_float32 = [&s, storage, cuda_check](
                                    const plinth::Buffer& in, const plinth::Buffer& counts,
                                    std::size_t bins, float lower, float upper, std::size_t n) {
    const auto* x = reinterpret_cast<const float*>(Setup::pointer(in));
    auto* c = reinterpret_cast<int*>(Setup::pointer(counts));
    const int levels = static_cast<int>(bins);
    std::size_t bytes = 0;
    cuda_check(plinth_bench_cub_histogram_even_float32(x, c, levels, lower, upper, n, nullptr,
                                                       &bytes, s.stream),
               "cub::DeviceHistogram::HistogramEven");
    cuda_check(plinth_bench_cub_histogram_even_float32(x, c, levels, lower, upper, n,
                                                       storage(bytes), &bytes, s.stream),
               "cub::DeviceHistogram::HistogramEven");
    stream_sync(s.stream);
  };
  refs.argmax_float32 = [&s, storage, cuda_check](const plinth::Buffer& in,
                                                  const plinth::Buffer& out, std::size_t n) {
    const auto* x = reinterpret_cast<const float*>(Setup::pointer(in));
    auto* value = reinterpret_cast<float*>(Setup::pointer(out));
    auto* index = reinterpret_cast<long long*>(Setup::pointer(out) + 8);
    std::size_t bytes = 0;
    cuda_check(plinth_bench_cub_argmax_float32(x, value, index, n, nullptr, &bytes, s.stream),
               "cub::DeviceReduce::ArgMax");
    cuda_check(
        plinth_bench_cub_argmax_float32(x, value, index, n, storage(bytes), &bytes, s.stream),
        "cub::DeviceReduce::ArgMax");
    stream_sync(s.stream);
  };
#endif
  register_algorithms(s.queue, std::size_t{1} << 30, std::move(refs));
  register_sorting_references(s);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string_view(argv[1]) == "--plinth-ipc-exporter") {
    return ipc_exporter(std::stoull(argv[2]), static_cast<pid_t>(std::stol(argv[3])));
  }
  auto args = with_default_options(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  const TemporaryProgramCache program_cache;  // before the first Program; outlives `setup`
  std::unique_ptr<Setup> setup;
  IpcExporter ipc_exporter_process;
  try {
    const auto api = plinth::API::from_api_id(plinth::APIID{"cuda"});
    auto context = plinth::Context::from_criteria(api);
    setup = std::make_unique<Setup>(context);
    const auto& device = setup->device.device();
    const std::string description = device.full_name() + " (compute capability " +
                                    device.params().compute_capability + ", driver " +
                                    device.params().driver_version + ")";
    std::cout << "plinth-bench-cuda on " << description << "; peak memory bandwidth "
              << setup->peak_bandwidth() / 1e9 << " GB/s" << std::endl;
    benchmark::AddCustomContext("plinth_device", description);
    if (!plinth::MemoryPool::of(context).enabled())
      std::cout << "plinth's memory pool is off (PLINTH_MEMORY_POOL): the pool/ rows measure "
                   "fresh allocations, and their misses/iter are left out"
                << std::endl;

    const auto before = allocations();
    auto probe = setup->program.kernel("empty").prepare({1}, {1});
    allocation_counting_works(before, allocations());

    register_launches(*setup);
    register_events(*setup);
    register_transfers(*setup);
    register_pinned_transfers(*setup);
    register_copy(*setup);
    register_rect(*setup);
    register_ipc(*setup, ipc_exporter_process);
    register_fill(*setup);
    register_build(*setup);
    register_warm_build([context = setup->context](const std::string& source) {
      const plinth::Program program(context, source);
      benchmark::DoNotOptimize(program);
    });
    register_kernel(*setup);
    register_managed(*setup);
    register_pool(*setup);
    register_algorithm_references(*setup);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-cuda: " << error.what() << std::endl;
    return 1;
  }
  const int status = run_benchmarks();
  benchmark::ClearRegisteredBenchmarks();  // their lambdas hold plinth objects
  setup.reset();
  return status;
}
