// plinth-bench-dialect: kernels written in plinth's dialect (docs/kernel-dialect.md) against the
// same kernels written by hand in CUDA C, compiled with NVRTC and launched with the driver API
// on plinth's own context and stream (issue 28's targets: device time at most 1.05x raw):
// - histogram/*: 2^26 inputs into 256 bins with atomic adds, uint32 counts and float32 sums,
//   straight into global memory (global_*) and through a local-memory histogram per group
//   merged with global atomics (local_*);
// - warp_sum: the sum of 2^26 floats, each sub-group (warp) reducing with
//   sub_group_reduce_add_float and adding its sum with one atomic, against a hand-written
//   __shfl_down_sync tree.
// Both sides are timed the same way: plinth events recorded on the queue around the launch
// (the raw launch goes to the queue's CUstream). Without a CUDA device the raw side is left
// out and the plinth side runs on the default device with 2^20 inputs (a smoke test, e.g. on
// PoCL); the driver library is opened at run time, so the program starts anywhere.

#include <cuda.h>
#include <nvrtc.h>

#include "common.hpp"
#include "raw_cuda.hpp"

#include <plinth/plinth.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace plinth_bench;

const char* const dialect_source = R"(
KERNEL void fill_inputs(GLOBAL_MEM unsigned int *u, GLOBAL_MEM float *f, unsigned int n)
{
    for (unsigned int i = get_global_id(0); i < n; i += get_global_size(0)) {
        unsigned int h = i * 2654435761u;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        u[i] = h;
        f[i] = (float)(h >> 8) * (1.0f / 16777216.0f);
    }
}

KERNEL void histogram_global_uint(GLOBAL_MEM const unsigned int *x, unsigned int n,
                                  GLOBAL_MEM unsigned int *bins)
{
    for (unsigned int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_add_global_uint(bins + (x[i] & 255u), 1u);
}

KERNEL void histogram_global_float(GLOBAL_MEM const float *x, unsigned int n,
                                   GLOBAL_MEM float *bins)
{
    for (unsigned int i = get_global_id(0); i < n; i += get_global_size(0)) {
        const float v = x[i];
        atomic_add_global_float(bins + ((unsigned int)(v * 256.0f) & 255u), v);
    }
}

KERNEL void histogram_local_uint(GLOBAL_MEM const unsigned int *x, unsigned int n,
                                 GLOBAL_MEM unsigned int *bins)
{
    LOCAL_MEM unsigned int local_bins[256];
    const unsigned int l = get_local_id(0);
    local_bins[l] = 0;
    LOCAL_BARRIER;
    for (unsigned int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_add_local_uint(local_bins + (x[i] & 255u), 1u);
    LOCAL_BARRIER;
    if (local_bins[l] != 0) atomic_add_global_uint(bins + l, local_bins[l]);
}

KERNEL void histogram_local_float(GLOBAL_MEM const float *x, unsigned int n,
                                  GLOBAL_MEM float *bins)
{
    LOCAL_MEM float local_bins[256];
    const unsigned int l = get_local_id(0);
    local_bins[l] = 0.0f;
    LOCAL_BARRIER;
    for (unsigned int i = get_global_id(0); i < n; i += get_global_size(0)) {
        const float v = x[i];
        atomic_add_local_float(local_bins + ((unsigned int)(v * 256.0f) & 255u), v);
    }
    LOCAL_BARRIER;
    if (local_bins[l] != 0.0f) atomic_add_global_float(bins + l, local_bins[l]);
}

KERNEL void warp_sum(GLOBAL_MEM const float *x, unsigned int n, GLOBAL_MEM float *out)
{
    float sum = 0.0f;
    for (unsigned int i = get_global_id(0); i < n; i += get_global_size(0)) sum += x[i];
    sum = sub_group_reduce_add_float(sum);
    if (get_sub_group_local_id() == 0) atomic_add_global_float(out, sum);
}
)";

// The same kernels by hand, for NVRTC.
const char* const cuda_source = R"(
extern "C" __global__ void histogram_global_uint(const unsigned int *x, unsigned int n,
                                                 unsigned int *bins)
{
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(bins + (x[i] & 255u), 1u);
}

extern "C" __global__ void histogram_global_float(const float *x, unsigned int n, float *bins)
{
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float v = x[i];
        atomicAdd(bins + ((unsigned int)(v * 256.0f) & 255u), v);
    }
}

extern "C" __global__ void histogram_local_uint(const unsigned int *x, unsigned int n,
                                                unsigned int *bins)
{
    __shared__ unsigned int local_bins[256];
    const unsigned int l = threadIdx.x;
    local_bins[l] = 0;
    __syncthreads();
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(local_bins + (x[i] & 255u), 1u);
    __syncthreads();
    if (local_bins[l] != 0) atomicAdd(bins + l, local_bins[l]);
}

extern "C" __global__ void histogram_local_float(const float *x, unsigned int n, float *bins)
{
    __shared__ float local_bins[256];
    const unsigned int l = threadIdx.x;
    local_bins[l] = 0.0f;
    __syncthreads();
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float v = x[i];
        atomicAdd(local_bins + ((unsigned int)(v * 256.0f) & 255u), v);
    }
    __syncthreads();
    if (local_bins[l] != 0.0f) atomicAdd(bins + l, local_bins[l]);
}

extern "C" __global__ void warp_sum(const float *x, unsigned int n, float *out)
{
    float sum = 0.0f;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i];
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if ((threadIdx.x & 31u) == 0) atomicAdd(out, sum);
}
)";

/// What the benchmarks share: plinth's objects, the inputs, and (with a CUDA device) the raw
/// module on plinth's context.
struct Setup {
  plinth::Context context;
  plinth::BoundDevice device;
  plinth::Queue queue;
  plinth::Program program;
  unsigned n;
  plinth::Buffer u, f, bins, sum;
  std::unique_ptr<CudaDriver> driver;  // null without CUDA
  CUmodule module = nullptr;

  Setup(const plinth::Context& ctx, bool cuda, unsigned n_)
      : context(ctx),
        device(ctx.devices()[0]),
        queue(device),
        program(context, dialect_source),
        n(n_),
        u(plinth::Buffer::allocate(device, std::size_t{n} * 4)),
        f(plinth::Buffer::allocate(device, std::size_t{n} * 4)),
        bins(plinth::Buffer::allocate(device, 256 * 4)),
        sum(plinth::Buffer::allocate(device, 4)) {
    program.kernel("fill_inputs")(queue, {groups() * local_size}, {local_size}, u, f, n);
    queue.synchronize();
    if (!cuda) return;
    driver = std::make_unique<CudaDriver>();
    driver->check(
        driver->ctx_set_current(reinterpret_cast<CUcontext>(context.native_handle(device.index()))),
        "cuCtxSetCurrent");
    module = load_raw_module(*driver, static_cast<CUdevice>(device.device().native_handle()),
                             cuda_source);
  }
  Setup(const Setup&) = delete;
  Setup& operator=(const Setup&) = delete;
  ~Setup() {
    if (module) driver->module_unload(module);
  }

  static constexpr std::size_t local_size = 256;
  /// Groups of every launch: 16 inputs per work item.
  std::size_t groups() const { return std::max<std::size_t>(1, n / 16 / local_size); }

  CUfunction function(const std::string& name) const {
    CUfunction result = nullptr;
    driver->check(driver->module_get_function(&result, module, name.c_str()),
                  "cuModuleGetFunction");
    return result;
  }
  static CUdeviceptr pointer(const plinth::Buffer& buffer) {
    return static_cast<CUdeviceptr>(buffer.native_handle());
  }

  /// The output of `kernel`: the bins, or the one-float sum.
  const plinth::Buffer& output(const std::string& kernel) const {
    return kernel == "warp_sum" ? sum : bins;
  }
  const plinth::Buffer& input(const std::string& kernel) const {
    return kernel.ends_with("uint") ? u : f;
  }
};

/// Device seconds of `launch` between two events recorded on plinth's queue.
template <class Launch>
double device_seconds(Setup& s, Launch&& launch) {
  const auto start = s.queue.record_event();
  launch();
  const auto end = s.queue.record_event();
  return plinth::elapsed_ms(start, end) / 1e3;
}

/// Zeroes `kernel`'s output, runs it through plinth, and returns the output's bytes.
std::vector<std::byte> plinth_result(Setup& s, const std::string& kernel) {
  const auto& out = s.output(kernel);
  out.set(s.queue, std::vector<std::byte>(out.size()), true);
  s.program.kernel(kernel)(s.queue, {s.groups() * Setup::local_size}, {Setup::local_size},
                           s.input(kernel), s.n, out);
  std::vector<std::byte> bytes(out.size());
  out.get(s.queue, bytes);
  return bytes;
}

void raw_launch(Setup& s, CUfunction function, const std::string& kernel) {
  CUdeviceptr in = Setup::pointer(s.input(kernel));
  CUdeviceptr out = Setup::pointer(s.output(kernel));
  unsigned count = s.n;
  void* params[] = {&in, &count, &out};
  s.driver->check(
      s.driver->launch_kernel(function, static_cast<unsigned>(s.groups()), 1, 1,
                              static_cast<unsigned>(Setup::local_size), 1, 1, 0,
                              reinterpret_cast<CUstream>(s.queue.native_handle()), params, nullptr),
      "cuLaunchKernel");
}

/// Checks that plinth's and the raw kernel's outputs agree: exactly for counts, to 1e-4 of the
/// total for float sums (their order of additions differs).
void compare_results(Setup& s, const std::string& kernel) {
  const auto mine = plinth_result(s, kernel);
  const auto& out = s.output(kernel);
  out.set(s.queue, std::vector<std::byte>(out.size()), true);
  raw_launch(s, s.function(kernel), kernel);
  std::vector<std::byte> theirs(out.size());
  out.get(s.queue, theirs);
  if (kernel.ends_with("uint")) {
    require(mine == theirs, kernel.c_str(), "plinth's histogram differs from the raw kernel's");
    return;
  }
  std::vector<float> a(out.size() / 4), b(out.size() / 4);
  std::memcpy(a.data(), mine.data(), mine.size());
  std::memcpy(b.data(), theirs.data(), theirs.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    require(std::fabs(a[k] - b[k]) <= 1e-4f * std::max(1.0f, std::fabs(b[k])), kernel.c_str(),
            "plinth's result " + std::to_string(a[k]) + " differs from the raw kernel's " +
                std::to_string(b[k]));
  }
}

void register_kernels(Setup& s) {
  const double moved = static_cast<double>(s.n) * 4;
  for (const std::string kernel : {"histogram/global_uint", "histogram/global_float",
                                   "histogram/local_uint", "histogram/local_float", "warp_sum"}) {
    std::string name = kernel;
    std::replace(name.begin(), name.end(), '/', '_');
    const std::string op_name = "dialect/" + kernel + "_" + std::to_string(s.n >> 20) + "M";
    auto prepared =
        s.program.kernel(name).prepare({s.groups() * Setup::local_size}, {Setup::local_size});
    auto plinth_side = [&s, prepared, name, moved](benchmark::State& state) {
      const auto& in = s.input(name);
      const auto& out = s.output(name);
      time_on_device(state, static_cast<std::size_t>(moved),
                     [&] { return device_seconds(s, [&] { prepared(s.queue, in, s.n, out); }); });
    };
    const Operation op{op_name, Measure::latency, 1.05, {"GB/s"}};
    std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*> pair;
    if (s.driver) {
      compare_results(s, name);
      const CUfunction function = s.function(name);
      pair = register_pair(op, plinth_side, [&s, function, name, moved](benchmark::State& state) {
        time_on_device(state, static_cast<std::size_t>(moved),
                       [&] { return device_seconds(s, [&] { raw_launch(s, function, name); }); });
      });
    } else {
      detail::declare(op);
      auto* only =
          benchmark::RegisterBenchmark((op_name + "/plinth").c_str(), detail::guarded(plinth_side));
      pair = {only, only};
    }
    configure(pair, [](auto* b) {
      b->MinTime(long_min_time)->UseManualTime()->Unit(benchmark::kMillisecond);
    });
  }
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
    std::optional<plinth::Context> context;
    bool cuda = false;
    try {
      context = plinth::Context::from_criteria(plinth::API::from_api_id(plinth::APIID{"cuda"}));
      cuda = true;
    } catch (const plinth::Error& error) {
      std::cout << "plinth-bench-dialect: no CUDA device (" << error.what()
                << "); the raw CUDA kernels are left out and plinth's run on the default "
                   "device with 2^20 inputs"
                << std::endl;
      context = plinth::Context::from_criteria(plinth::API::from_env());
    }
    const auto& device = context->devices()[0];
    if (!device.features().atomics) {
      std::cout << "plinth-bench-dialect: " << device.name()
                << " has no dialect atomics (a backend older than SDK 1.5): nothing to measure"
                << std::endl;
      return 0;
    }
    setup = std::make_unique<Setup>(*context, cuda, cuda ? 1u << 26 : 1u << 20);
    std::cout << "plinth-bench-dialect on " << device.device().full_name() << std::endl;
    benchmark::AddCustomContext("plinth_device", device.device().full_name());
    register_kernels(*setup);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-dialect: " << error.what() << std::endl;
    return 1;
  }
  const int status = run_benchmarks();
  benchmark::ClearRegisteredBenchmarks();  // their lambdas hold plinth objects
  setup.reset();
  return status;
}
