#include "algorithms.hpp"

#include "common.hpp"
#include "kernels.hpp"

#include <plinth/array.hpp>
#include <plinth/array_reductions.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/program.hpp>
#include <plinth/scan.hpp>

#include <memory>
#include <optional>
#include <utility>

namespace plinth_bench {

namespace {

/// The elements of the small-call benchmark's arrays.
constexpr unsigned small_call_elements = 4096;

/// What the algorithm benchmarks share: three buffers of `bytes` bytes, allocated on first
/// use. x and y hold float32 ones (no denormal numbers, no NaN) and keep them: the copy
/// writes x's ones into y, saxpy adds 0 * x to y, the sum reads x; the scan reads x (as int32)
/// and writes z.
struct Arrays {
  plinth::Queue queue;
  std::size_t bytes;
  std::optional<plinth::Buffer> x, y, z;
  bool ready = false;

  Arrays(plinth::Queue queue_, std::size_t bytes_) : queue(std::move(queue_)), bytes(bytes_) {}

  std::size_t count(std::size_t itemsize) const { return bytes / itemsize; }

  /// x and y as 1-D arrays of `dtype`.
  std::pair<plinth::Array, plinth::Array> arrays(const plinth::DType& dtype) {
    prepare();
    const plinth::ArrayMetadata metadata({count(dtype.itemsize())}, dtype);
    return {plinth::Array::from_buffer(*x, metadata), plinth::Array::from_buffer(*y, metadata)};
  }

  void prepare() {
    if (ready) return;
    x = plinth::Buffer::allocate(queue.device(), bytes);
    y = plinth::Buffer::allocate(queue.device(), bytes);
    z = plinth::Buffer::allocate(queue.device(), bytes);
    const plinth::ElementwiseKernel ones(
        {plinth::ElementwiseArg::output("x", plinth::DType::float32()),
         plinth::ElementwiseArg::output("y", plinth::DType::float32())},
        "x[i] = 1.0f; y[i] = 1.0f;", {.name = "ones"});
    const plinth::ArrayMetadata metadata({count(4)}, plinth::DType::float32());
    ones(queue, plinth::Array::from_buffer(*x, metadata), plinth::Array::from_buffer(*y, metadata));
    queue.synchronize();
    ready = true;
  }
};

/// Registers "<name>/plinth" against "<name>/raw", both as bytes per second of complete
/// operations (real time of the call and the wait for it).
template <class PlinthOp, class RawOp>
void register_throughput(const std::string& name, double target, std::size_t plinth_bytes,
                         std::size_t raw_bytes, PlinthOp plinth_op, RawOp raw_op) {
  auto pair = register_pair(
      {name, Measure::throughput, target, {}},
      [=](benchmark::State& state) mutable { time_transfers(state, plinth_bytes, plinth_op); },
      [=](benchmark::State& state) mutable { time_transfers(state, raw_bytes, raw_op); });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

}  // namespace

void register_algorithms(const plinth::Queue& queue, std::size_t bytes,
                         AlgorithmReferences references) {
  auto arrays = std::make_shared<Arrays>(queue, bytes);
  auto refs = std::make_shared<AlgorithmReferences>(std::move(references));
  const auto size = size_name(bytes);
  const auto f32 = plinth::DType::float32();

  // The raw device copy of `bytes`, read and written: 2 x bytes moved.
  auto raw_copy = [arrays, refs] {
    arrays->prepare();
    refs->copy(*arrays->y, *arrays->x, arrays->bytes);
  };

  // y[i] = x[i], against the device copy.
  const plinth::ElementwiseKernel copy(
      {plinth::ElementwiseArg::output("y", f32), plinth::ElementwiseArg::input("x", f32)},
      "y[i] = x[i];", {.name = "copy"});
  register_throughput(
      "algorithms/copy_float32_" + size, refs->copy_target, 2 * bytes, 2 * bytes,
      [arrays, copy, f32] {
        const auto [x, y] = arrays->arrays(f32);
        copy(arrays->queue, y, x);
        arrays->queue.synchronize();
      },
      raw_copy);

  // y[i] = a * x[i] + y[i] (3 x bytes moved), against the device copy's rate.
  const plinth::ElementwiseKernel saxpy(
      {plinth::ElementwiseArg::output("y", f32), plinth::ElementwiseArg::scalar("a", f32),
       plinth::ElementwiseArg::input("x", f32)},
      "y[i] = a * x[i] + y[i];", {.name = "saxpy"});
  register_throughput(
      "algorithms/saxpy_float32_" + size, refs->copy_target, 3 * bytes, 2 * bytes,
      [arrays, saxpy, f32] {
        const auto [x, y] = arrays->arrays(f32);
        saxpy(arrays->queue, y, 0.0f, x);  // keeps y at 1
        arrays->queue.synchronize();
      },
      raw_copy);

  // The sum of float32 x (bytes read once), against CUB's, or the device copy's rate.
  {
    auto out = std::make_shared<plinth::Array>(plinth::Array::empty(queue.device(), {}, f32));
    auto run = [arrays, out, f32] {
      const auto [x, y] = arrays->arrays(f32);
      plinth::sum(arrays->queue, x, plinth::ReductionTarget{.out = *out});
      arrays->queue.synchronize();
    };
    if (refs->sum_float32) {
      register_throughput("algorithms/sum_float32_" + size, 0.95, bytes, bytes, run,
                          [arrays, refs, out] {
                            arrays->prepare();
                            refs->sum_float32(*arrays->x, out->base_buffer(), arrays->count(4));
                          });
    } else {
      register_throughput("algorithms/sum_float32_" + size, refs->copy_target, bytes, 2 * bytes,
                          run, raw_copy);
    }
  }

  // The exclusive prefix sum of int32 x into y (read and written: 2 x bytes), against CUB's,
  // or the device copy.
  {
    const auto i32 = plinth::DType::int32();
    const plinth::ScanKernel scan(i32, "a + b", "0", plinth::ScanKind::exclusive,
                                  {.name = "exclusive_sum"});
    auto run = [arrays, scan, i32] {
      const auto [x, y] = arrays->arrays(i32);
      const auto z = plinth::Array::from_buffer(*arrays->z, x.metadata());
      scan(arrays->queue, x, z);
      arrays->queue.synchronize();
    };
    if (refs->exclusive_sum_int32) {
      register_throughput("algorithms/exclusive_scan_int32_" + size, 0.90, 2 * bytes, 2 * bytes,
                          run, [arrays, refs] {
                            arrays->prepare();
                            refs->exclusive_sum_int32(*arrays->x, *arrays->z, arrays->count(4));
                          });
    } else {
      register_throughput("algorithms/exclusive_scan_int32_" + size, refs->copy_target, 2 * bytes,
                          2 * bytes, run, raw_copy);
    }
  }

  // The host cost of a small elementwise call against a prepared launch of a hand-written
  // kernel doing the same (kernels.hpp's saxpy), both on 4096 elements.
  {
    const plinth::Program program(queue.device().context(), kernels_source);
    auto prepared = std::make_shared<plinth::PreparedKernel>(
        program.kernel("saxpy").prepare({small_call_elements}, {saxpy_local_size}));
    auto small_arrays = std::make_shared<std::pair<plinth::Array, plinth::Array>>(
        plinth::Array::empty(queue.device(), {small_call_elements}, f32),
        plinth::Array::empty(queue.device(), {small_call_elements}, f32));
    auto pair = register_pair(
        {"algorithms/small_call", Measure::latency, 1.2, {"allocs/iter", "launches"}},
        [arrays, saxpy, small_arrays](benchmark::State& state) {
          const auto& [x, y] = *small_arrays;
          time_launches(
              state, [&] { saxpy(arrays->queue, y, 0.0f, x); },
              [&] { arrays->queue.synchronize(); });
        },
        [arrays, prepared, small_arrays](benchmark::State& state) {
          const auto& [x, y] = *small_arrays;
          const auto& xb = x.base_buffer();
          const auto& yb = y.base_buffer();
          time_launches(
              state, [&] { (*prepared)(arrays->queue, yb, xb, 0.0f, small_call_elements); },
              [&] { arrays->queue.synchronize(); });
        });
    configure(pair, [](auto* b) { b->MinTime(short_min_time)->UseRealTime(); });
  }
}

}  // namespace plinth_bench
