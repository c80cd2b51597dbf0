// <plinth/blas.hpp> on a CUDA device against cuBLAS on the same buffers and stream, in one
// process: SGEMM 4096^3 and 8192^3, DGEMM 4096^3, SGEMV 16384^2 and a batched SGEMM of 512
// products of 128^3 (issue 33's anchors). cuBLAS is opened at run time (dlopen
// libcublas.so.13, then .12), as plinth opens vendor libraries, and runs in its default math
// mode: strict FP32, no TF32 tensor cores (numpy's precision). Each product runs twice on
// the plinth side: through plinth's cuBLAS path (PLINTH_BLAS=library: plinth's checks, views
// and handle around the same cuBLAS call; target 0.98) and through plinth's generated kernels
// (PLINTH_BLAS=plinth, rows ending in /kernels; target 0.5 for SGEMM, none for the others).
// The ratio is plinth's rate over cuBLAS's (higher is better).

#include "blas_rows.hpp"
#include "common.hpp"

#include <plinth/array_creation.hpp>
#include <plinth/blas.hpp>
#include <plinth/plinth.hpp>

#include <cublas_v2.h>
#include <cuda.h>
#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace {

using namespace plinth_bench;

/// The cuBLAS calls the benchmarks make, from the library opened at run time.
struct Cublas {
  void* library = nullptr;
  cublasHandle_t handle = nullptr;
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  decltype(&cublasDgemm_v2) dgemm = nullptr;
  decltype(&cublasSgemv_v2) sgemv = nullptr;
  decltype(&cublasSgemmStridedBatched) sgemm_batched = nullptr;

  explicit Cublas(CUstream stream) {
    for (const char* name : {"libcublas.so.13", "libcublas.so.12"}) {
      library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (library != nullptr) break;
    }
    require(library != nullptr, "dlopen(libcublas.so.13)", dlerror() ? dlerror() : "not found");
    load_symbol(library, create, "cublasCreate_v2");
    load_symbol(library, destroy, "cublasDestroy_v2");
    load_symbol(library, set_stream, "cublasSetStream_v2");
    load_symbol(library, sgemm, "cublasSgemm_v2");
    load_symbol(library, dgemm, "cublasDgemm_v2");
    load_symbol(library, sgemv, "cublasSgemv_v2");
    load_symbol(library, sgemm_batched, "cublasSgemmStridedBatched");
    check(create(&handle), "cublasCreate");
    check(set_stream(handle, stream), "cublasSetStream");
  }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  ~Cublas() {
    if (handle != nullptr) destroy(handle);
    // The library stays loaded: cuBLAS registers exit handlers.
  }

  static void check(cublasStatus_t status, const char* call) {
    require(status == CUBLAS_STATUS_SUCCESS, call, "status " + std::to_string(status));
  }
};

CUdeviceptr pointer(const plinth::Array& array) {
  return static_cast<CUdeviceptr>(array.base_buffer().native_handle()) +
         array.first_element_offset();
}

struct Setup {
  plinth::Context context;
  plinth::Queue queue;
  CUstream stream;
  Cublas cublas;

  explicit Setup(const plinth::Context& ctx)
      : context(ctx),
        queue(ctx.devices()[0]),
        stream(reinterpret_cast<CUstream>(queue.native_handle())),
        cublas(stream) {}
};

void register_gemm(Setup& s, const plinth::DType& dtype, std::size_t n, BlasEngine engine,
                   double target) {
  const auto a = plinth::full(s.queue, {n, n}, 0.5, dtype);
  const auto b = plinth::full(s.queue, {n, n}, 0.25, dtype);
  const auto c = plinth::zeros(s.queue, {n, n}, dtype);
  const double flops =
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  const bool single = dtype == plinth::DType::float32();
  const auto name = std::string(single ? "sgemm/" : "dgemm/") + std::to_string(n) + engine.suffix;
  auto pair = register_pair(
      {name, Measure::throughput, target, {"TFLOP/s"}},
      [&s, a, b, c, flops, engine](benchmark::State& state) {
        ::setenv("PLINTH_BLAS", engine.value, 1);
        time_flops(state, flops, s.queue, [&] { plinth::gemm(s.queue, a, b, c); });
      },
      [&s, a, b, c, flops, n, single](benchmark::State& state) {
        const int dim = static_cast<int>(n);
        // Row-major C = A B is column-major C^T = B^T A^T: the operands swapped.
        time_flops(state, flops, s.queue, [&] {
          if (single) {
            const float one = 1, zero = 0;
            Cublas::check(s.cublas.sgemm(s.cublas.handle, CUBLAS_OP_N, CUBLAS_OP_N, dim, dim, dim,
                                         &one, reinterpret_cast<const float*>(pointer(b)), dim,
                                         reinterpret_cast<const float*>(pointer(a)), dim, &zero,
                                         reinterpret_cast<float*>(pointer(c)), dim),
                          "cublasSgemm");
          } else {
            const double one = 1, zero = 0;
            Cublas::check(s.cublas.dgemm(s.cublas.handle, CUBLAS_OP_N, CUBLAS_OP_N, dim, dim, dim,
                                         &one, reinterpret_cast<const double*>(pointer(b)), dim,
                                         reinterpret_cast<const double*>(pointer(a)), dim, &zero,
                                         reinterpret_cast<double*>(pointer(c)), dim),
                          "cublasDgemm");
          }
        });
      });
  configure(pair, [](auto* bench) { bench->MinTime(0.5)->UseRealTime(); });
}

void register_gemv(Setup& s, std::size_t n, BlasEngine engine, double target) {
  const auto f32 = plinth::DType::float32();
  const auto a = plinth::full(s.queue, {n, n}, 0.5, f32);
  const auto x = plinth::full(s.queue, {n}, 0.25, f32);
  const auto y = plinth::zeros(s.queue, {n}, f32);
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n);
  auto pair = register_pair(
      {"sgemv/" + std::to_string(n) + engine.suffix, Measure::throughput, target, {"TFLOP/s"}},
      [&s, a, x, y, flops, engine](benchmark::State& state) {
        ::setenv("PLINTH_BLAS", engine.value, 1);
        time_flops(state, flops, s.queue, [&] { plinth::gemv(s.queue, a, x, y); });
      },
      [&s, a, x, y, flops, n](benchmark::State& state) {
        const int dim = static_cast<int>(n);
        const float one = 1, zero = 0;
        // Row-major A x is the column-major A^T x.
        time_flops(state, flops, s.queue, [&] {
          Cublas::check(s.cublas.sgemv(s.cublas.handle, CUBLAS_OP_T, dim, dim, &one,
                                       reinterpret_cast<const float*>(pointer(a)), dim,
                                       reinterpret_cast<const float*>(pointer(x)), 1, &zero,
                                       reinterpret_cast<float*>(pointer(y)), 1),
                        "cublasSgemv");
        });
      });
  configure(pair, [](auto* bench) { bench->MinTime(0.5)->UseRealTime(); });
}

void register_batched(Setup& s, std::size_t batch, std::size_t n, BlasEngine engine,
                      double target) {
  const auto f32 = plinth::DType::float32();
  const auto a = plinth::full(s.queue, {batch, n, n}, 0.5, f32);
  const auto b = plinth::full(s.queue, {batch, n, n}, 0.25, f32);
  const auto c = plinth::zeros(s.queue, {batch, n, n}, f32);
  const double flops = 2.0 * static_cast<double>(batch * n * n * n);
  auto pair = register_pair(
      {"sgemm_batched/" + std::to_string(batch) + "x" + std::to_string(n) + engine.suffix,
       Measure::throughput,
       target,
       {"TFLOP/s"}},
      [&s, a, b, c, flops, engine](benchmark::State& state) {
        ::setenv("PLINTH_BLAS", engine.value, 1);
        time_flops(state, flops, s.queue, [&] { plinth::gemm_batched(s.queue, a, b, c); });
      },
      [&s, a, b, c, flops, batch, n](benchmark::State& state) {
        const int dim = static_cast<int>(n);
        const long long stride = static_cast<long long>(n * n);
        const float one = 1, zero = 0;
        time_flops(state, flops, s.queue, [&] {
          Cublas::check(
              s.cublas.sgemm_batched(s.cublas.handle, CUBLAS_OP_N, CUBLAS_OP_N, dim, dim, dim, &one,
                                     reinterpret_cast<const float*>(pointer(b)), dim, stride,
                                     reinterpret_cast<const float*>(pointer(a)), dim, stride, &zero,
                                     reinterpret_cast<float*>(pointer(c)), dim, stride,
                                     static_cast<int>(batch)),
              "cublasSgemmStridedBatched");
        });
      });
  configure(pair, [](auto* bench) { bench->MinTime(0.5)->UseRealTime(); });
}

}  // namespace

int main(int argc, char** argv) {
  auto args = with_default_options(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  const TemporaryProgramCache program_cache;
  std::unique_ptr<Setup> setup;
  try {
    const auto api = plinth::API::from_api_id(plinth::APIID{"cuda"});
    setup = std::make_unique<Setup>(plinth::Context::from_criteria(api));
    const auto& device = setup->queue.device().device();
    std::cout << "plinth-bench-blas on " << device.full_name() << " against cuBLAS (strict FP32)"
              << std::endl;
    benchmark::AddCustomContext("plinth_device", device.full_name());
    std::cout << "cuBLAS for plinth: " << plinth::blas_support(api).description << std::endl;
    for (const auto engine : {library_engine, kernels_engine}) {
      const bool library = engine.value == library_engine.value;
      register_gemm(*setup, plinth::DType::float32(), 4096, engine, library ? 0.98 : 0.5);
      register_gemm(*setup, plinth::DType::float32(), 8192, engine, library ? 0.98 : 0.5);
      register_gemm(*setup, plinth::DType::float64(), 4096, engine, library ? 0.98 : 0);
      register_gemv(*setup, 16384, engine, library ? 0.98 : 0);
      register_batched(*setup, 512, 128, engine, library ? 0.98 : 0);
    }
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-blas: " << error.what() << std::endl;
    return 1;
  }
  const int status = run_benchmarks();
  benchmark::ClearRegisteredBenchmarks();
  setup.reset();
  return status;
}
