// plinth-bench-multi-gpu: what plinth does with N CUDA devices (every device of the CUDA
// platform, or those PLINTH_DEVICE names: 'cuda:0,1' for two) against the raw calls it stands
// in for, in the same process, on the same primary contexts, streams and buffers:
//
//   peer_copy          Buffer::set from device 0 to device 1   vs cuMemcpyPeerAsync
//   all_reduce/N_gpus  Communicator::all_reduce (sum) over     vs ncclAllReduce on every rank,
//                      all N, at 1 MiB, 16 MiB, 256 MiB, 1 GiB    grouped (NCCL, dlopen)
//   multi_array/N_gpus an ElementwiseKernel on a MultiArray    vs the same kernel on one device
//                      split over the N devices               with 1/N of the elements
//
// peer_copy reports bytes/s and must reach 0.95 of the raw call; all_reduce reports bus
// bandwidth as nccl-tests defines it (algorithm bandwidth times 2(N-1)/N) and must reach 0.98
// of the raw call at every size; multi_array reports elements/s and must reach 0.95 x N times
// the one-device rate. Needs two CUDA devices or more and, for all_reduce, libnccl.so.2.
//
// NVLink multicast (NVLS) stays off: the shared GPU hosts must never create multicast
// objects, so main() sets NCCL_NVLS_ENABLE=0 before anything can start NCCL.

#include "common.hpp"

#include <cuda.h>
#include <dlfcn.h>
#include <nccl.h>

#include <plinth/plinth.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace plinth_bench;

constexpr std::size_t gib = std::size_t{1} << 30;

void cu_check(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) name = "unknown error";
  require(false, call, std::string(name) + " (" + std::to_string(static_cast<int>(result)) + ")");
}

/// NCCL, opened as plinth's CUDA backend opens it (the process then has one copy of it), with
/// nccl.h's own declarations: the raw side of the all_reduce pair.
struct RawNccl {
  void* library = nullptr;
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  std::vector<ncclComm_t> comms;

  /// Opens the library and makes a communicator over `devices`; throws if either fails.
  explicit RawNccl(const std::vector<int>& devices) {
    library = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* error = dlerror();
      require(false, "dlopen", error != nullptr ? error : "libnccl.so.2");
    }
    load_symbol(library, comm_init_all, "ncclCommInitAll");
    load_symbol(library, comm_destroy, "ncclCommDestroy");
    load_symbol(library, all_reduce, "ncclAllReduce");
    load_symbol(library, group_start, "ncclGroupStart");
    load_symbol(library, group_end, "ncclGroupEnd");
    load_symbol(library, error_string, "ncclGetErrorString");
    comms.resize(devices.size());
    check(comm_init_all(comms.data(), static_cast<int>(devices.size()), devices.data()),
          "ncclCommInitAll");
  }
  RawNccl(const RawNccl&) = delete;
  RawNccl& operator=(const RawNccl&) = delete;
  ~RawNccl() {
    for (auto* comm : comms) {
      if (comm != nullptr) comm_destroy(comm);
    }
    // The library stays loaded: NCCL's threads may outlive the communicators briefly.
  }

  void check(ncclResult_t result, const char* call) const {
    if (result != ncclSuccess) require(false, call, error_string(result));
  }
};

/// The devices, their queues and native handles.
struct Setup {
  plinth::Context context;
  plinth::MultiQueue queues;
  std::vector<CUcontext> cu_contexts;
  std::vector<CUstream> streams;
  std::vector<int> ordinals;

  explicit Setup(const plinth::Context& ctx)
      : context(ctx), queues(plinth::MultiQueue::on_devices(ctx.devices())) {
    for (std::size_t d = 0; d < ctx.devices().size(); ++d) {
      cu_contexts.push_back(reinterpret_cast<CUcontext>(context.native_handle(d)));
      streams.push_back(reinterpret_cast<CUstream>(queues.queues()[d].native_handle()));
      ordinals.push_back(static_cast<int>(context.devices()[d].device().native_handle()));
    }
    cu_check(cuCtxSetCurrent(cu_contexts[0]), "cuCtxSetCurrent");
  }
  const plinth::Queue& queue(std::size_t d) const { return queues.queues()[d]; }
  std::size_t size() const { return streams.size(); }
  /// "4_gpus": the part of a benchmark's name that says over how many devices it ran.
  std::string gpus() const { return std::to_string(size()) + "_gpus"; }
  void synchronize() const { queues.synchronize(); }
};

void register_peer_copy(const std::shared_ptr<Setup>& s) {
  const std::size_t bytes = gib;
  auto src =
      std::make_shared<plinth::Buffer>(plinth::Buffer::allocate(s->context.devices()[0], bytes));
  auto dst =
      std::make_shared<plinth::Buffer>(plinth::Buffer::allocate(s->context.devices()[1], bytes));
  // One copy through plinth before either side is timed: plinth enables peer access between
  // the two primary contexts on its first copy, and the raw call then uses it too.
  dst->set(s->queue(1), *src, true);
  auto pair = register_pair(
      {"peer_copy/" + size_name(bytes), Measure::throughput, 0.95, {}},
      [s, src, dst, bytes](benchmark::State& state) {
        time_transfers(state, bytes, [&] {
          dst->set(s->queue(1), *src);
          s->queue(1).synchronize();
        });
      },
      [s, src, dst, bytes](benchmark::State& state) {
        const auto to = static_cast<CUdeviceptr>(dst->native_handle());
        const auto from = static_cast<CUdeviceptr>(src->native_handle());
        time_transfers(state, bytes, [&] {
          cu_check(cuMemcpyPeerAsync(to, s->cu_contexts[1], from, s->cu_contexts[0], bytes,
                                     s->streams[1]),
                   "cuMemcpyPeerAsync");
          cu_check(cuStreamSynchronize(s->streams[1]), "cuStreamSynchronize");
        });
      });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

void register_all_reduce(const std::shared_ptr<Setup>& s,
                         const std::shared_ptr<plinth::Communicator>& comm,
                         const std::shared_ptr<RawNccl>& raw, std::size_t bytes) {
  const std::size_t count = bytes / sizeof(float);
  auto array = std::make_shared<plinth::MultiArray>(
      plinth::MultiArray::empty(s->context.devices(), {count}, plinth::DType::float32(), {},
                                std::make_shared<plinth::CloneSplay>()));
  const plinth::ElementwiseKernel fill(
      {plinth::ElementwiseArg::output("x", plinth::DType::float32())}, "x[i] = 0.0f;",
      {.name = "zero"});
  fill(s->queues, *array);
  s->synchronize();
  // nccl-tests' bus bandwidth: an all_reduce of `bytes` on n ranks moves 2(n-1)/n of them over
  // the slowest link; both sides count the same.
  const std::size_t ranks = s->size();
  const auto bus_bytes = static_cast<std::size_t>(
      static_cast<double>(bytes) * 2 * static_cast<double>(ranks - 1) / static_cast<double>(ranks));
  auto pair = register_pair(
      {"all_reduce/" + s->gpus() + "/float32_" + size_name(bytes), Measure::throughput, 0.98, {}},
      [s, comm, array, bus_bytes](benchmark::State& state) {
        time_transfers(state, bus_bytes, [&] {
          comm->all_reduce(*array, plinth::ReduceOp::sum);
          s->synchronize();
        });
      },
      [s, raw, array, count, bus_bytes](benchmark::State& state) {
        // Each rank's part, in the order of the devices (and of raw's communicators).
        std::vector<void*> pointers;
        for (const auto& device : s->context.devices()) {
          pointers.push_back(
              reinterpret_cast<void*>((*array)[device].base_buffer().native_handle()));
        }
        time_transfers(state, bus_bytes, [&] {
          raw->check(raw->group_start(), "ncclGroupStart");
          for (std::size_t d = 0; d < pointers.size(); ++d) {
            raw->check(
                raw->all_reduce(pointers[d], pointers[d], count, ncclFloat32, ncclSum,
                                raw->comms[d], reinterpret_cast<cudaStream_t>(s->streams[d])),
                "ncclAllReduce");
          }
          raw->check(raw->group_end(), "ncclGroupEnd");
          s->synchronize();
        });
      });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

/// all_reduce over every device, from latency-bound sizes to bandwidth-bound ones, 1 GiB the
/// largest (PyTorch with NCCL was measured at 355 GB/s bus bandwidth there on 4 H100s, 361 on
/// 8). One communicator of each kind serves every size.
void register_all_reduces(const std::shared_ptr<Setup>& s) {
  const auto support = plinth::collectives_support(s->context.api());
  if (!support.library) {
    std::cout << "all_reduce: not benchmarked: " << support.description << std::endl;
    return;
  }
  auto comm = std::make_shared<plinth::Communicator>(s->queues);
  std::cout << "all_reduce: plinth's communicator runs on " << comm->engine() << " over "
            << s->size() << " devices" << std::endl;
  auto raw = std::make_shared<RawNccl>(s->ordinals);
  for (const std::size_t bytes :
       {std::size_t{1} << 20, std::size_t{16} << 20, std::size_t{256} << 20, gib}) {
    register_all_reduce(s, comm, raw, bytes);
  }
}

void register_multi_array(const std::shared_ptr<Setup>& s) {
  // y = a * x + y over N x 1 GiB of float32 (1 GiB per array per device), against the same
  // kernel over 1 GiB on the first device alone: elements per second.
  const std::size_t n = s->size();
  const std::size_t per_device = gib / sizeof(float);
  const auto f32 = plinth::DType::float32();
  const plinth::ElementwiseKernel saxpy(
      {plinth::ElementwiseArg::output("y", f32), plinth::ElementwiseArg::scalar("a", f32),
       plinth::ElementwiseArg::input("x", f32)},
      "y[i] = a * x[i] + y[i];", {.name = "saxpy"});
  const plinth::ElementwiseKernel ones(
      {plinth::ElementwiseArg::output("x", f32), plinth::ElementwiseArg::output("y", f32)},
      "x[i] = 1.0f; y[i] = 1.0f;", {.name = "ones"});
  auto x = std::make_shared<plinth::MultiArray>(
      plinth::MultiArray::empty(s->context.devices(), {n * per_device}, f32));
  auto y = std::make_shared<plinth::MultiArray>(
      plinth::MultiArray::empty(s->context.devices(), {n * per_device}, f32));
  ones(s->queues, *x, *y);
  const auto& device0 = s->context.devices()[0];
  auto x0 = std::make_shared<plinth::Array>(plinth::Array::empty(device0, {per_device}, f32));
  auto y0 = std::make_shared<plinth::Array>(plinth::Array::empty(device0, {per_device}, f32));
  ones(s->queue(0), *x0, *y0);
  s->synchronize();
  // Counted as bytes of float32 elements processed (4 per element), so that the GB/s-style
  // rate column compares elements per second; the target is 0.95 of perfect scaling.
  auto pair = register_pair(
      {"multi_array/" + s->gpus() + "/saxpy_float32_" + std::to_string(n) + "x" + size_name(gib) +
           "_vs_1",
       Measure::throughput,
       0.95 * static_cast<double>(n),
       {}},
      [s, saxpy, x, y, n, per_device](benchmark::State& state) {
        time_transfers(state, n * per_device * sizeof(float), [&] {
          saxpy(s->queues, *y, 0.0f, *x);
          s->synchronize();
        });
      },
      [s, saxpy, x0, y0, per_device](benchmark::State& state) {
        time_transfers(state, per_device * sizeof(float), [&] {
          saxpy(s->queue(0), *y0, 0.0f, *x0);
          s->queue(0).synchronize();
        });
      });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything can load NCCL (see the top of this file). Not optional.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  auto args = with_default_options(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  const TemporaryProgramCache program_cache;
  std::shared_ptr<Setup> setup;
  try {
    const auto api = plinth::API::from_api_id(plinth::APIID{"cuda"});
    // Every device of the first platform, or those PLINTH_DEVICE names.
    auto context = plinth::Context::from_criteria(api, false, std::nullopt);
    if (context.devices().size() < 2) {
      std::cerr << "plinth-bench-multi-gpu: needs two CUDA devices or more, has "
                << context.devices().size() << std::endl;
      return 1;
    }
    setup = std::make_shared<Setup>(context);
    std::string description;
    for (const auto& device : context.devices()) {
      description += (description.empty() ? "" : " + ") + device.device().full_name();
    }
    std::cout << "plinth-bench-multi-gpu on " << description
              << "; collectives: " << plinth::collectives_support(api).description << std::endl;
    benchmark::AddCustomContext("plinth_devices", description);
    benchmark::AddCustomContext("plinth_gpus", std::to_string(setup->size()));
    register_peer_copy(setup);
    register_all_reduces(setup);
    register_multi_array(setup);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-multi-gpu: " << error.what() << std::endl;
    return 1;
  }
  const int status = run_benchmarks();
  benchmark::ClearRegisteredBenchmarks();  // their lambdas hold plinth objects
  setup.reset();
  return status;
}
