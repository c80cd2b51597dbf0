// <plinth/blas.hpp> on an OpenCL device against CLBlast on the same buffers and queue, in one
// process (issue 33: plinth's own SGEMM at least CLBlast's rate on NVIDIA's OpenCL). CLBlast is
// opened at run time (dlopen libclblast.so.1, Debian's libclblast1), as plinth opens it; the
// declarations are clblast_c.h's. Each product runs twice on the plinth side: through plinth's
// CLBlast path (PLINTH_BLAS=library: plinth's checks and views around the same CLBlast call;
// target 0.98) and through plinth's generated kernels (PLINTH_BLAS=plinth, rows ending in
// /kernels; target 1.0 for SGEMM, none for DGEMM). The ratio is plinth's rate over CLBlast's
// (higher is better). The device: PLINTH_DEVICE (e.g. 'opencl:gpu'), else the first.

#define CL_TARGET_OPENCL_VERSION 120

#include "blas_rows.hpp"
#include "common.hpp"

#include <plinth/array_creation.hpp>
#include <plinth/blas.hpp>
#include <plinth/plinth.hpp>

#include <CL/cl.h>
#include <clblast_c.h>
#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace {

using namespace plinth_bench;

/// The CLBlast calls the benchmarks make, from the library opened at run time.
struct Clblast {
  void* library = nullptr;
  decltype(&CLBlastSgemm) sgemm = nullptr;
  decltype(&CLBlastDgemm) dgemm = nullptr;

  Clblast() {
    library = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    require(library != nullptr, "dlopen(libclblast.so.1)", dlerror() ? dlerror() : "not found");
    load_symbol(library, sgemm, "CLBlastSgemm");
    load_symbol(library, dgemm, "CLBlastDgemm");
  }
  Clblast(const Clblast&) = delete;
  Clblast& operator=(const Clblast&) = delete;
  // The library stays loaded: CLBlast keeps compiled programs in caches freed at exit.

  static void check(CLBlastStatusCode status, const char* call) {
    require(status == CLBlastSuccess, call, "status " + std::to_string(status));
  }
};

cl_mem memory(const plinth::Array& array) {
  return reinterpret_cast<cl_mem>(array.base_buffer().native_handle());
}

/// The first element's offset in elements, as CLBlast takes it.
std::size_t offset(const plinth::Array& array) {
  return array.first_element_offset() / array.dtype().itemsize();
}

struct Setup {
  plinth::Context context;
  plinth::Queue queue;
  cl_command_queue cl_queue;
  Clblast clblast;

  explicit Setup(const plinth::Context& ctx)
      : context(ctx),
        queue(ctx.devices()[0]),
        cl_queue(reinterpret_cast<cl_command_queue>(queue.native_handle())) {}
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
        time_flops(state, flops, s.queue, [&] {
          if (single) {
            Clblast::check(
                s.clblast.sgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n,
                                n, 1.0f, memory(a), offset(a), n, memory(b), offset(b), n, 0.0f,
                                memory(c), offset(c), n, &s.cl_queue, nullptr),
                "CLBlastSgemm");
          } else {
            Clblast::check(
                s.clblast.dgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n,
                                n, 1.0, memory(a), offset(a), n, memory(b), offset(b), n, 0.0,
                                memory(c), offset(c), n, &s.cl_queue, nullptr),
                "CLBlastDgemm");
          }
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
    const auto api = plinth::API::from_api_id(plinth::APIID{"opencl"});
    setup = std::make_unique<Setup>(plinth::Context::from_criteria(api));
    const auto& device = setup->queue.device().device();
    const std::string description = device.full_name() + " (" + device.platform().name() + ", " +
                                    device.platform().version() + ")";
    std::cout << "plinth-bench-blas-opencl on " << description << " against CLBlast" << std::endl;
    benchmark::AddCustomContext("plinth_device", description);
    std::cout << "CLBlast for plinth: " << plinth::blas_support(api).description << std::endl;
    // PLINTH_BENCH_BLAS_SIZE: a smaller product for CPU devices (PoCL), 4096 by default.
    const char* size = std::getenv("PLINTH_BENCH_BLAS_SIZE");
    const std::size_t n = size != nullptr ? std::stoul(size) : 4096;
    for (const auto engine : {library_engine, kernels_engine}) {
      const bool library = engine.value == library_engine.value;
      register_gemm(*setup, plinth::DType::float32(), n, engine, library ? 0.98 : 1.0);
      register_gemm(*setup, plinth::DType::float64(), n, engine, library ? 0.98 : 0);
    }
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-blas-opencl: " << error.what() << std::endl;
    return 1;
  }
  const int status = run_benchmarks();
  benchmark::ClearRegisteredBenchmarks();
  setup.reset();
  return status;
}
