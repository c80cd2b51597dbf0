// plinth-bench-opencl: plinth's OpenCL backend against the raw OpenCL calls it wraps, on the
// same cl_context, cl_command_queue, cl_mem and cl_program. The device is PLINTH_DEVICE's
// (an `opencl:` term), else the first OpenCL device.

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "algorithms.hpp"
#include "common.hpp"
#include "kernels.hpp"
#include "sorting.hpp"

#include <plinth/plinth.hpp>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace plinth_bench;

void cl_check(cl_int code, const char* call) {
  require(code == CL_SUCCESS, call, "OpenCL error " + std::to_string(code));
}

struct KernelDeleter {
  void operator()(cl_kernel kernel) const noexcept { clReleaseKernel(kernel); }
};
using KernelHandle = std::unique_ptr<std::remove_pointer_t<cl_kernel>, KernelDeleter>;

/// Everything the benchmarks share: plinth's objects and the native handles under them.
struct Setup {
  plinth::Context context;
  plinth::BoundDevice device;
  plinth::Queue queue;
  plinth::Program program;
  cl_context cl_ctx;
  cl_device_id cl_device;
  cl_command_queue cl_queue;
  cl_program cl_prog;
  bool gpu;

  explicit Setup(const plinth::Context& ctx)
      : context(ctx),
        device(ctx.devices()[0]),
        queue(device),
        program(context, kernels_source),
        cl_ctx(reinterpret_cast<cl_context>(context.native_handle())),
        cl_device(reinterpret_cast<cl_device_id>(device.device().native_handle())),
        cl_queue(reinterpret_cast<cl_command_queue>(queue.native_handle())),
        cl_prog(reinterpret_cast<cl_program>(program.native_handle(device))),
        gpu(device.params().type == plinth::DeviceType::gpu) {}

  /// A new cl_kernel of plinth's program: the same binary plinth launches.
  KernelHandle raw_kernel(const char* name) const {
    cl_int code = CL_SUCCESS;
    KernelHandle kernel(clCreateKernel(cl_prog, name, &code));
    cl_check(code, "clCreateKernel");
    return kernel;
  }

  /// Device buffers by (size, slot), allocated on first use and kept.
  plinth::Buffer& buffer(std::size_t size, int slot = 0) {
    auto it = buffers.find({size, slot});
    if (it == buffers.end())
      it = buffers.emplace(std::pair{size, slot}, plinth::Buffer::allocate(device, size)).first;
    return it->second;
  }
  /// Ordinary pageable host memory of at least `size` bytes (written, so its pages exist).
  std::byte* host(std::size_t size) {
    if (host_memory.size() < size) host_memory.assign(size, std::byte{1});
    return host_memory.data();
  }

  /// Page-locked memory of at least `size` bytes for the raw calls: a CL_MEM_ALLOC_HOST_PTR
  /// buffer, mapped and kept mapped (NVIDIA's OpenCL pins it).
  std::byte* pinned(std::size_t size) {
    if (pinned_size < size) {
      release_pinned();
      cl_int code = CL_SUCCESS;
      pinned_buffer =
          clCreateBuffer(cl_ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, size, nullptr, &code);
      cl_check(code, "clCreateBuffer");
      pinned_memory =
          clEnqueueMapBuffer(cl_queue, pinned_buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size,
                             0, nullptr, nullptr, &code);
      cl_check(code, "clEnqueueMapBuffer");
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
  void release_pinned() noexcept {
    if (pinned_memory) {
      clEnqueueUnmapMemObject(cl_queue, pinned_buffer, pinned_memory, 0, nullptr, nullptr);
      clFinish(cl_queue);
    }
    if (pinned_buffer) clReleaseMemObject(pinned_buffer);
    pinned_buffer = nullptr;
    pinned_memory = nullptr;
    pinned_size = 0;
  }

  Setup(const Setup&) = delete;
  Setup& operator=(const Setup&) = delete;
  ~Setup() { release_pinned(); }

  std::map<std::pair<std::size_t, int>, plinth::Buffer> buffers;
  std::vector<std::byte> host_memory;
  cl_mem pinned_buffer = nullptr;
  void* pinned_memory = nullptr;
  std::size_t pinned_size = 0;
  plinth::HostArray user_pinned = plinth::HostArray::empty({0}, plinth::DType::uint8());
  bool saxpy_ready = false;
};

void set_arg(cl_kernel kernel, cl_uint index, std::size_t size, const void* value) {
  cl_check(clSetKernelArg(kernel, index, size, value), "clSetKernelArg");
}

void register_launches(Setup& s) {
  const std::size_t one = 1;
  {
    auto prepared = s.program.kernel("empty").prepare({1}, {1});
    auto raw = std::make_shared<KernelHandle>(s.raw_kernel("empty"));
    auto pair = register_pair(
        {"launch/empty", Measure::latency, 1.10, {"allocs/iter", "launches"}},
        [&s, prepared](benchmark::State& state) {
          time_launches(
              state, [&] { prepared(s.queue); }, [&] { s.queue.synchronize(); });
        },
        [&s, raw, one](benchmark::State& state) {
          cl_kernel kernel = raw->get();
          time_launches(
              state,
              [&] {
                cl_check(clEnqueueNDRangeKernel(s.cl_queue, kernel, 1, nullptr, &one, &one, 0,
                                                nullptr, nullptr),
                         "clEnqueueNDRangeKernel");
              },
              [&] { cl_check(clFinish(s.cl_queue), "clFinish"); });
        });
    configure(pair, configure_launch);
  }
  {
    // A StaticKernel launch, against the raw launch of a cl_kernel of the program it runs.
    const plinth::StaticKernel kernel(s.context.devices()[{s.device.index()}], static_kernel_source,
                                      "empty_static", {1});
    cl_int code = CL_SUCCESS;
    auto raw = std::make_shared<KernelHandle>(
        clCreateKernel(reinterpret_cast<cl_program>(kernel.program().native_handle(s.device)),
                       "empty_static", &code));
    cl_check(code, "clCreateKernel");
    const auto global = kernel.real_global_size(s.device);
    const auto local = kernel.real_local_size(s.device);
    auto pair = register_pair(
        {"launch/static", Measure::latency, 1.10, {"allocs/iter", "launches"}},
        [&s, kernel](benchmark::State& state) {
          time_launches(
              state, [&] { kernel(s.queue); }, [&] { s.queue.synchronize(); });
        },
        [&s, raw, global, local](benchmark::State& state) {
          cl_kernel handle = raw->get();
          time_launches(
              state,
              [&] {
                cl_check(clEnqueueNDRangeKernel(s.cl_queue, handle,
                                                static_cast<cl_uint>(global.size()), nullptr,
                                                global.data(), local.data(), 0, nullptr, nullptr),
                         "clEnqueueNDRangeKernel");
              },
              [&] { cl_check(clFinish(s.cl_queue), "clFinish"); });
        });
    configure(pair, configure_launch);
  }
  {
    // Kernel::operator(): prepare and launch in one call, the convenient form. The Kernel
    // remembers the shape after the first call, so later calls cost about a prepared one.
    auto unprepared = s.program.kernel("empty");
    auto raw = std::make_shared<KernelHandle>(s.raw_kernel("empty"));
    auto pair = register_pair(
        {"launch/unprepared", Measure::latency, 1.10, {"allocs/iter", "launches"}},
        [&s, unprepared](benchmark::State& state) {
          time_launches(
              state, [&] { unprepared(s.queue, {1}, {1}); }, [&] { s.queue.synchronize(); });
        },
        [&s, raw, one](benchmark::State& state) {
          cl_kernel kernel = raw->get();
          time_launches(
              state,
              [&] {
                cl_check(clEnqueueNDRangeKernel(s.cl_queue, kernel, 1, nullptr, &one, &one, 0,
                                                nullptr, nullptr),
                         "clEnqueueNDRangeKernel");
              },
              [&] { cl_check(clFinish(s.cl_queue), "clFinish"); });
        });
    configure(pair, configure_launch);
  }
  {
    // Four arguments set on every launch, as a caller whose arguments change does.
    auto prepared = s.program.kernel("empty_args").prepare({1}, {1});
    auto raw = std::make_shared<KernelHandle>(s.raw_kernel("empty_args"));
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
        [&s, raw, one](benchmark::State& state) {
          cl_kernel kernel = raw->get();
          const auto y = reinterpret_cast<cl_mem>(s.buffer(4096, 0).native_handle());
          const auto x = reinterpret_cast<cl_mem>(s.buffer(4096, 1).native_handle());
          const float a = 2.0f;
          const unsigned n = 1024;
          time_launches(
              state,
              [&] {
                set_arg(kernel, 0, sizeof(cl_mem), &y);
                set_arg(kernel, 1, sizeof(cl_mem), &x);
                set_arg(kernel, 2, sizeof(a), &a);
                set_arg(kernel, 3, sizeof(n), &n);
                cl_check(clEnqueueNDRangeKernel(s.cl_queue, kernel, 1, nullptr, &one, &one, 0,
                                                nullptr, nullptr),
                         "clEnqueueNDRangeKernel");
              },
              [&] { cl_check(clFinish(s.cl_queue), "clFinish"); });
        });
    configure(pair, configure_launch);
  }
}

// Queue::record_event (the Event dropped at once, so the queue reuses its slot) against
// clEnqueueMarkerWithWaitList + clReleaseEvent, what a raw user pays for a marker.
void register_events(Setup& s) {
  auto pair = register_pair(
      {"event/record", Measure::latency, 1.10, {"allocs/iter", "launches"}},
      [&s](benchmark::State& state) {
        time_launches(
            state, [&] { (void)s.queue.record_event(); }, [&] { s.queue.synchronize(); });
      },
      [&s](benchmark::State& state) {
        time_launches(
            state,
            [&] {
              cl_event marker = nullptr;
              cl_check(clEnqueueMarkerWithWaitList(s.cl_queue, 0, nullptr, &marker),
                       "clEnqueueMarkerWithWaitList");
              cl_check(clReleaseEvent(marker), "clReleaseEvent");
            },
            [&] { cl_check(clFinish(s.cl_queue), "clFinish"); });
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
            [&s, size, to_device, async](benchmark::State& state) {
              const auto mem = reinterpret_cast<cl_mem>(s.buffer(size).native_handle());
              std::byte* host = s.host(size);
              const cl_bool blocking = async ? CL_FALSE : CL_TRUE;
              time_transfers(state, size, [&] {
                if (to_device) {
                  cl_check(clEnqueueWriteBuffer(s.cl_queue, mem, blocking, 0, size, host, 0,
                                                nullptr, nullptr),
                           "clEnqueueWriteBuffer");
                } else {
                  cl_check(clEnqueueReadBuffer(s.cl_queue, mem, blocking, 0, size, host, 0, nullptr,
                                               nullptr),
                           "clEnqueueReadBuffer");
                }
                if (async) cl_check(clFinish(s.cl_queue), "clFinish");
              });
            });
        const double min_time = size >= (std::size_t{256} << 20) ? long_min_time : short_min_time;
        configure(pair, [&](auto* b) { b->MinTime(min_time)->UseRealTime(); });
      }
    }
  }
}

// Pageable transfers against the link's rate (the raw call from page-locked memory: a mapped
// CL_MEM_ALLOC_HOST_PTR buffer), and transfers from a user's page-locked HostArray against the
// same raw call: 256 MiB on a GPU (on a CPU device every kind of memory is the same).
void register_pinned_transfers(Setup& s) {
  const std::size_t size = s.gpu ? std::size_t{256} << 20 : std::size_t{64} << 20;
  for (const bool to_device : {true, false}) {
    const std::string way = std::string(to_device ? "h2d/" : "d2h/") + size_name(size) + "/";
    auto raw = [&s, size, to_device](benchmark::State& state) {
      const auto mem = reinterpret_cast<cl_mem>(s.buffer(size).native_handle());
      std::byte* host = s.pinned(size);
      time_transfers(state, size, [&] {
        if (to_device)
          cl_check(
              clEnqueueWriteBuffer(s.cl_queue, mem, CL_FALSE, 0, size, host, 0, nullptr, nullptr),
              "clEnqueueWriteBuffer");
        else
          cl_check(
              clEnqueueReadBuffer(s.cl_queue, mem, CL_FALSE, 0, size, host, 0, nullptr, nullptr),
              "clEnqueueReadBuffer");
        cl_check(clFinish(s.cl_queue), "clFinish");
      });
    };
    for (const bool async : {false, true}) {
      auto pair = register_pair(
          {way + (async ? "async" : "sync") + "-vs-pinned",
           Measure::throughput,
           s.gpu ? 0.9 : 0,
           {"allocs/iter"}},
          [&s, size, to_device, async](benchmark::State& state) {
            plinth_transfers(state, s.queue, s.buffer(size), s.host(size), size, to_device, async);
          },
          raw);
      configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
    }
    auto pair = register_pair(
        {way + "pinned", Measure::throughput, 0.95, {"allocs/iter"}},
        [&s, size, to_device](benchmark::State& state) {
          plinth_transfers(state, s.queue, s.buffer(size), s.page_locked(size), size, to_device,
                           true);
        },
        raw);
    configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
  }
}

void register_copy(Setup& s) {
  // 1 GiB on a GPU; the CPU device of PoCL moves a few GB/s, so less there.
  const std::size_t size = s.gpu ? std::size_t{1} << 30 : std::size_t{64} << 20;
  // Bytes processed = 2 x size: every byte is read once and written once.
  auto pair = register_pair(
      {"d2d/" + size_name(size), Measure::throughput, 0, {}},
      [&s, size](benchmark::State& state) {
        const auto& dst = s.buffer(size, 0);
        const auto& src = s.buffer(size, 1);
        time_transfers(state, 2 * size, [&] {
          dst.set(s.queue, src);
          s.queue.synchronize();
        });
      },
      [&s, size](benchmark::State& state) {
        const auto dst = reinterpret_cast<cl_mem>(s.buffer(size, 0).native_handle());
        const auto src = reinterpret_cast<cl_mem>(s.buffer(size, 1).native_handle());
        time_transfers(state, 2 * size, [&] {
          cl_check(clEnqueueCopyBuffer(s.cl_queue, src, dst, 0, 0, size, 0, nullptr, nullptr),
                   "clEnqueueCopyBuffer");
          cl_check(clFinish(s.cl_queue), "clFinish");
        });
      });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

void register_build(Setup& s) {
  const std::string prelude = prelude_of(s.program.source(), kernels_source);
  require(!prelude.empty(), "Program::source", "does not end with the program's source");
  auto pair = register_pair(
      {"build/program", Measure::latency, 0, {}},
      [&s](benchmark::State& state) {
        for (auto _ : state) {
          plinth::Program program(s.context, build_source(unique_token()));
          benchmark::DoNotOptimize(program);
        }
      },
      [&s, prelude](benchmark::State& state) {
        for (auto _ : state) {
          const std::string source = prelude + build_source(unique_token());
          const char* text = source.c_str();
          const std::size_t length = source.size();
          cl_int code = CL_SUCCESS;
          cl_program program = clCreateProgramWithSource(s.cl_ctx, 1, &text, &length, &code);
          cl_check(code, "clCreateProgramWithSource");
          // What plinth's OpenCL backend does: argument info, and without it where the
          // compiler fails on that (NVIDIA, on a parameterless kernel).
          code = clBuildProgram(program, 1, &s.cl_device, "-cl-kernel-arg-info", nullptr, nullptr);
          if (code == CL_BUILD_PROGRAM_FAILURE) {
            code = clBuildProgram(program, 1, &s.cl_device, "", nullptr, nullptr);
          }
          clReleaseProgram(program);
          cl_check(code, "clBuildProgram");
        }
      });
  configure(pair, [](auto* b) {
    b->Iterations(build_iterations)->UseRealTime()->Unit(benchmark::kMillisecond);
  });
}

double end_time_ns(cl_event event) {
  cl_ulong time = 0;
  cl_check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(time), &time, nullptr),
           "clGetEventProfilingInfo");
  return static_cast<double>(time);
}

void register_kernel(Setup& s) {
  // 64M floats on a GPU (512 MiB in two arrays); a quarter of that on a CPU device.
  const unsigned n = s.gpu ? 64u << 20 : 16u << 20;
  const std::size_t bytes = std::size_t{n} * sizeof(float);
  const std::size_t moved = 3 * bytes;  // read x, read y, write y
  auto prepared = s.program.kernel("saxpy").prepare({n}, {saxpy_local_size});
  auto raw = std::make_shared<KernelHandle>(s.raw_kernel("saxpy"));
  // x and y have buffers of their own (slots 2 and 3), filled once: other benchmarks' data
  // could make denormal numbers, slow on some CPUs.
  auto init = [&s, n, bytes] {
    if (s.saxpy_ready) return;
    std::vector<float> values(n, 1.0f);
    s.buffer(bytes, 2).set(s.queue, std::as_bytes(std::span(values)), true);
    s.buffer(bytes, 3).set(s.queue, std::as_bytes(std::span(values)), true);
    s.saxpy_ready = true;
  };
  // Both time the kernel the same way: between two markers, from their end times (what
  // plinth's Queue::record_event and elapsed_ms do on OpenCL).
  auto pair = register_pair(
      {"kernel/saxpy_" + std::to_string(n >> 20) + "M", Measure::latency, 1.05, {"GB/s"}},
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
      [&s, raw, init, n, bytes, moved](benchmark::State& state) {
        init();
        cl_kernel kernel = raw->get();
        const auto x = reinterpret_cast<cl_mem>(s.buffer(bytes, 2).native_handle());
        const auto y = reinterpret_cast<cl_mem>(s.buffer(bytes, 3).native_handle());
        const float a = 1e-6f;
        set_arg(kernel, 0, sizeof(cl_mem), &y);
        set_arg(kernel, 1, sizeof(cl_mem), &x);
        set_arg(kernel, 2, sizeof(a), &a);
        set_arg(kernel, 3, sizeof(n), &n);
        const std::size_t global = n;
        const std::size_t local = saxpy_local_size;
        time_on_device(state, moved, [&] {
          cl_event events[2] = {nullptr, nullptr};
          cl_check(clEnqueueMarkerWithWaitList(s.cl_queue, 0, nullptr, &events[0]),
                   "clEnqueueMarkerWithWaitList");
          cl_check(clEnqueueNDRangeKernel(s.cl_queue, kernel, 1, nullptr, &global, &local, 0,
                                          nullptr, nullptr),
                   "clEnqueueNDRangeKernel");
          cl_check(clEnqueueMarkerWithWaitList(s.cl_queue, 0, nullptr, &events[1]),
                   "clEnqueueMarkerWithWaitList");
          cl_check(clWaitForEvents(2, events), "clWaitForEvents");
          const double seconds = (end_time_ns(events[1]) - end_time_ns(events[0])) / 1e9;
          clReleaseEvent(events[0]);
          clReleaseEvent(events[1]);
          return seconds;
        });
      });
  configure(pair, [](auto* b) {
    b->MinTime(long_min_time)->UseManualTime()->Unit(benchmark::kMillisecond);
  });
}

/// The algorithm benchmarks (algorithms.hpp), every one against clEnqueueCopyBuffer's rate on
/// the same queue and buffers (OpenCL has no vendor sum or scan to compare with).
void register_algorithm_references(Setup& s) {
  AlgorithmReferences refs;
  refs.copy_name = "clEnqueueCopyBuffer";
  refs.copy_target = s.gpu ? 0.90 : 0;
  refs.copy = [&s](const plinth::Buffer& dst, const plinth::Buffer& src, std::size_t bytes) {
    cl_check(clEnqueueCopyBuffer(s.cl_queue, reinterpret_cast<cl_mem>(src.native_handle()),
                                 reinterpret_cast<cl_mem>(dst.native_handle()), 0, 0, bytes, 0,
                                 nullptr, nullptr),
             "clEnqueueCopyBuffer");
    cl_check(clFinish(s.cl_queue), "clFinish");
  };
  // 1 GiB on a GPU; the CPU device of PoCL moves a few GB/s, so less there.
  register_algorithms(s.queue, s.gpu ? std::size_t{1} << 30 : std::size_t{64} << 20,
                      std::move(refs));
  // The sorting benchmarks (sorting.hpp): against clEnqueueCopyBuffer of the keys (no target).
  SortReferences sort_refs;
  sort_refs.copy = [&s](const plinth::Buffer& dst, const plinth::Buffer& src, std::size_t bytes) {
    cl_check(clEnqueueCopyBuffer(s.cl_queue, reinterpret_cast<cl_mem>(src.native_handle()),
                                 reinterpret_cast<cl_mem>(dst.native_handle()), 0, 0, bytes, 0,
                                 nullptr, nullptr),
             "clEnqueueCopyBuffer");
    cl_check(clFinish(s.cl_queue), "clFinish");
  };
  register_sorting(s.queue, s.gpu ? std::size_t{1} << 26 : std::size_t{1} << 20,
                   std::move(sort_refs));
}

}  // namespace

int main(int argc, char** argv) {
  auto args = with_default_options(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  const TemporaryProgramCache program_cache;  // before the first Program; outlives `setup`
  std::unique_ptr<Setup> setup;
  try {
    const auto api = plinth::API::from_api_id(plinth::APIID{"opencl"});
    auto context = plinth::Context::from_criteria(api);
    setup = std::make_unique<Setup>(context);
    const auto& device = setup->device.device();
    const std::string description = device.full_name() + " (" + device.platform().name() + ", " +
                                    device.platform().version() + ", driver " +
                                    device.params().driver_version + ")";
    std::cout << "plinth-bench-opencl on " << description << std::endl;
    benchmark::AddCustomContext("plinth_device", description);

    const auto before = allocations();
    auto probe = setup->program.kernel("empty").prepare({1}, {1});
    allocation_counting_works(before, allocations());

    register_launches(*setup);
    register_events(*setup);
    register_transfers(*setup);
    register_pinned_transfers(*setup);
    register_copy(*setup);
    register_build(*setup);
    register_warm_build([context = setup->context](const std::string& source) {
      const plinth::Program program(context, source);
      benchmark::DoNotOptimize(program);
    });
    register_kernel(*setup);
    register_algorithm_references(*setup);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-opencl: " << error.what() << std::endl;
    return 1;
  }
  const int status = run_benchmarks();
  benchmark::ClearRegisteredBenchmarks();  // their lambdas hold plinth objects
  setup.reset();
  return status;
}
