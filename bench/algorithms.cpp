#include "algorithms.hpp"

#include "common.hpp"
#include "kernels.hpp"

#include <plinth/array.hpp>
#include <plinth/array_expression.hpp>
#include <plinth/array_reductions.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/histogram.hpp>
#include <plinth/program.hpp>
#include <plinth/random.hpp>
#include <plinth/scan.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <utility>

namespace plinth_bench {

namespace {

/// The elements of the small-call benchmark's arrays.
constexpr unsigned small_call_elements = 4096;

/// Issue 27's targets: the sum and the largest element at least as fast as CUB's; a transpose
/// and an expression over a strided view at 0.8 of the device copy's rate (bytes read and
/// written); sums along one axis of a matrix at 0.9 of the whole matrix's sum.
constexpr double cub_target = 1.0;
constexpr double layout_copy_target = 0.8;
constexpr double axis_sum_target = 0.9;
/// Issue 29's: the exclusive scan of int32 at 0.95 of CUB's DeviceScan::ExclusiveSum (or of
/// the copy's rate on OpenCL); cumsum int32 -> int64 at 0.9 of the copy's rate, counting the
/// 12 bytes an element it moves.
constexpr double scan_target = 0.95;
constexpr double cumsum_target = 0.9;
/// Issue 30's: mean and var of float32 at 0.9 of the whole-array sum's rate (bytes read).
constexpr double statistics_target = 0.9;

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

/// "<a>x<b>".
std::string extents(std::size_t a, std::size_t b) {
  return std::to_string(a) + "x" + std::to_string(b);
}

/// The layouts of issue 27, on x's buffer as a square float32 matrix m of side `side`: sums
/// along axis 0 and axis 1 of m against plinth's own sum of all of m (the same bytes read),
/// and a transpose of the leading `side/2` x `side/2` part and an expression over every
/// second column of it against the device copy of as many bytes (read + written).
void register_layouts(const std::shared_ptr<Arrays>& arrays,
                      const std::shared_ptr<AlgorithmReferences>& refs, std::size_t side) {
  const auto f32 = plinth::DType::float32();
  auto matrix = [arrays, f32](std::size_t rows, std::size_t columns) {
    arrays->prepare();
    return plinth::Array::from_buffer(*arrays->x, plinth::ArrayMetadata({rows, columns}, f32));
  };
  const std::size_t bytes = side * side * sizeof(float);
  {
    auto sums = std::make_shared<std::pair<plinth::Array, plinth::Array>>(
        plinth::Array::empty(arrays->queue.device(), {side}, f32),
        plinth::Array::empty(arrays->queue.device(), {}, f32));
    auto whole = [arrays, matrix, sums, side] {
      plinth::sum(arrays->queue, matrix(side, side), {.out = sums->second});
      arrays->queue.synchronize();
    };
    for (const std::size_t axis : {std::size_t{0}, std::size_t{1}}) {
      register_throughput(
          "algorithms/sum_axis" + std::to_string(axis) + "_float32_" + extents(side, side) +
              "-vs-sum",
          axis_sum_target, bytes, bytes,
          [arrays, matrix, sums, side, axis] {
            plinth::sum(arrays->queue, matrix(side, side),
                        plinth::ReductionTarget{.axes = {{axis}}, .out = sums->first});
            arrays->queue.synchronize();
          },
          whole);
    }
  }
  const std::size_t half = side / 2;  // 8192 for a 1 GiB buffer
  const std::size_t tile_bytes = half * half * sizeof(float);
  // transpose(m) of half x half: a new C-order array (from the memory pool), 2 x tile_bytes.
  register_throughput(
      "algorithms/transpose_float32_" + extents(half, half), layout_copy_target, 2 * tile_bytes,
      2 * tile_bytes,
      [arrays, matrix, half] {
        {
          const auto t = plinth::transpose(arrays->queue, matrix(half, half));
          benchmark::DoNotOptimize(t);
        }
        arrays->queue.synchronize();
      },
      [arrays, refs, tile_bytes] {
        arrays->prepare();
        refs->copy(*arrays->y, *arrays->x, tile_bytes);
      });
  // 2*v + 1, v = m[:, ::2] of half x half: a new half x ceil(half/2) array, as many elements
  // read, against the copy of as many bytes.
  const std::size_t strided_bytes = half * ((half + 1) / 2) * sizeof(float);
  register_throughput(
      "algorithms/strided_expr_float32_" + extents(half, (half + 1) / 2), layout_copy_target,
      2 * strided_bytes, 2 * strided_bytes,
      [arrays, matrix, half] {
        {
          const auto v = matrix(half, half).view({plinth::Slice::all(), plinth::Slice({}, {}, 2)});
          const auto r = plinth::evaluate(arrays->queue, 2 * v + 1);
          benchmark::DoNotOptimize(r);
        }
        arrays->queue.synchronize();
      },
      [arrays, refs, strided_bytes] {
        arrays->prepare();
        refs->copy(*arrays->y, *arrays->x, strided_bytes);
      });
}

/// Issue 29's counting rows: histogram (256 bins over [0, 1) of 2^26 uniform float32, its own
/// array, filled once) against CUB's DeviceHistogram::HistogramEven (target 1.0), and argmax
/// of x (the float32 ones of `bytes`) against CUB's DeviceReduce::ArgMax (target 0.95, as
/// against cupy.argmax); against the device copy's rate where CUB is not there.
void register_counting(const std::shared_ptr<Arrays>& arrays,
                       const std::shared_ptr<AlgorithmReferences>& refs) {
  const auto f32 = plinth::DType::float32();
  constexpr std::size_t histogram_elements = std::size_t{1} << 26;
  constexpr std::size_t bins = 256;
  struct HistogramData {
    std::optional<plinth::Array> samples, counts;
  };
  auto data = std::make_shared<HistogramData>();
  auto samples = [arrays, data, f32]() -> const plinth::Array& {
    if (!data->samples) {
      data->samples = plinth::Array::empty(arrays->queue, {histogram_elements}, f32);
      plinth::RandomGenerator(29).uniform(arrays->queue, *data->samples);
      data->counts = plinth::Array::empty(arrays->queue, {bins}, plinth::DType::int32());
      arrays->queue.synchronize();
    }
    return *data->samples;
  };
  const std::size_t histogram_bytes = histogram_elements * sizeof(float);
  auto run_histogram = [arrays, samples] {
    {
      const auto result = plinth::histogram(arrays->queue, samples(), bins, {{0.0, 1.0}});
      benchmark::DoNotOptimize(result);
    }
    arrays->queue.synchronize();
  };
  const std::string histogram_name =
      "algorithms/histogram_256_float32_" + size_name(histogram_bytes);
  if (refs->histogram_even_float32) {
    register_throughput(histogram_name, cub_target, histogram_bytes, histogram_bytes, run_histogram,
                        [refs, data, samples] {
                          const auto& x = samples();
                          refs->histogram_even_float32(x.base_buffer(), data->counts->base_buffer(),
                                                       bins, 0.0f, 1.0f, histogram_elements);
                        });
  } else {
    register_throughput(histogram_name, refs->copy_target, histogram_bytes, 2 * histogram_bytes,
                        run_histogram, [arrays, refs, histogram_bytes] {
                          arrays->prepare();
                          refs->copy(*arrays->y, *arrays->x, histogram_bytes);
                        });
  }

  const std::size_t bytes = arrays->bytes;
  auto run_argmax = [arrays, f32] {
    {
      const auto [x, y] = arrays->arrays(f32);
      const auto index = plinth::argmax(arrays->queue, x);
      benchmark::DoNotOptimize(index);
    }
    arrays->queue.synchronize();
  };
  const std::string argmax_name = "algorithms/argmax_float32_" + size_name(bytes);
  if (refs->argmax_float32) {
    auto out =
        std::make_shared<plinth::Buffer>(plinth::Buffer::allocate(arrays->queue.device(), 16));
    register_throughput(argmax_name, 0.95, bytes, bytes, run_argmax, [arrays, refs, out] {
      arrays->prepare();
      refs->argmax_float32(*arrays->x, *out, arrays->count(4));
    });
  } else {
    register_throughput(argmax_name, refs->copy_target, bytes, 2 * bytes, run_argmax,
                        [arrays, refs] {
                          arrays->prepare();
                          refs->copy(*arrays->y, *arrays->x, arrays->bytes);
                        });
  }
}

/// Issue 30: random integers (Lemire's method) in [0, 10^6 + 3), int32, against the uniform
/// float32 generator filling the same bytes (target 0.9 of its rate); both write z (x and y
/// keep their ones).
void register_random_integers(const std::shared_ptr<Arrays>& arrays, const std::string& size) {
  const std::size_t bytes = arrays->bytes;
  const auto f32 = plinth::DType::float32();
  auto rng = std::make_shared<plinth::RandomGenerator>(30);
  auto z_as = [arrays](const plinth::DType& dtype) {
    arrays->prepare();
    return plinth::Array::from_buffer(*arrays->z, plinth::ArrayMetadata({arrays->count(4)}, dtype));
  };
  register_throughput(
      "algorithms/random_integers_int32_" + size, 0.9, bytes, bytes,
      [arrays, rng, z_as] {
        rng->integers(arrays->queue, z_as(plinth::DType::int32()), 0, 1000003);
        arrays->queue.synchronize();
      },
      [arrays, rng, z_as, f32] {
        rng->uniform(arrays->queue, z_as(f32));
        arrays->queue.synchronize();
      });
}

/// Issue 30: mean(x) and var(x) of float32 x (one pass each, bytes read once) against
/// plinth's own sum(x) (the same bytes), each into a shape-() array then synchronize().
void register_statistics(const std::shared_ptr<Arrays>& arrays, const std::string& size) {
  const auto f32 = plinth::DType::float32();
  const std::size_t bytes = arrays->bytes;
  auto out = std::make_shared<plinth::Array>(plinth::Array::empty(arrays->queue.device(), {}, f32));
  auto whole_sum = [arrays, out, f32] {
    const auto [x, y] = arrays->arrays(f32);
    plinth::sum(arrays->queue, x, plinth::ReductionTarget{.out = *out});
    arrays->queue.synchronize();
  };
  for (const bool is_var : {false, true}) {
    register_throughput(
        std::string("algorithms/") + (is_var ? "var" : "mean") + "_float32_" + size + "-vs-sum",
        statistics_target, bytes, bytes,
        [arrays, out, f32, is_var] {
          const auto [x, y] = arrays->arrays(f32);
          const plinth::ReductionAxes into{.out = *out};
          if (is_var)
            plinth::var(arrays->queue, x, into);
          else
            plinth::mean(arrays->queue, x, into);
          arrays->queue.synchronize();
        },
        whole_sum);
  }
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

  // The sum and the largest of float32 x (bytes read once), against CUB's, or the device
  // copy's rate.
  {
    auto out = std::make_shared<plinth::Array>(plinth::Array::empty(queue.device(), {}, f32));
    using Reference = decltype(refs->sum_float32);
    const std::pair<const char*, Reference AlgorithmReferences::*> reductions[] = {
        {"sum", &AlgorithmReferences::sum_float32}, {"max", &AlgorithmReferences::max_float32}};
    for (const auto& [what, member] : reductions) {
      const bool is_sum = std::string(what) == "sum";
      auto run = [arrays, out, f32, is_sum] {
        const auto [x, y] = arrays->arrays(f32);
        const plinth::ReductionTarget target{.out = *out};
        if (is_sum)
          plinth::sum(arrays->queue, x, target);
        else
          plinth::max(arrays->queue, x, target);
        arrays->queue.synchronize();
      };
      const std::string name = std::string("algorithms/") + what + "_float32_" + size;
      if ((*refs).*member) {
        register_throughput(name, cub_target, bytes, bytes, run, [arrays, refs, out, member] {
          arrays->prepare();
          ((*refs).*member)(*arrays->x, out->base_buffer(), arrays->count(4));
        });
      } else {
        register_throughput(name, refs->copy_target, bytes, 2 * bytes, run, raw_copy);
      }
    }
  }

  // The exclusive prefix sum of int32 x into z (read and written: 2 x bytes), against CUB's,
  // or the device copy: the automatic algorithm (the row the target is for), then each
  // algorithm forced, where the device can run it, so that both are always reported.
  const bool single_pass_runs =
      queue.device().features().atomics && queue.device().features().device_scope_acquire_release;
  for (const auto& [suffix, algorithm] :
       {std::pair{"", plinth::ScanAlgorithm::automatic},
        std::pair{"/single_pass", plinth::ScanAlgorithm::single_pass},
        std::pair{"/three_pass", plinth::ScanAlgorithm::three_pass}}) {
    if (algorithm == plinth::ScanAlgorithm::single_pass && !single_pass_runs) continue;
    const auto i32 = plinth::DType::int32();
    const plinth::ScanKernel scan(i32, "a + b", "0", plinth::ScanKind::exclusive,
                                  {.name = "exclusive_sum", .algorithm = algorithm});
    auto run = [arrays, scan, i32] {
      const auto [x, y] = arrays->arrays(i32);
      const auto z = plinth::Array::from_buffer(*arrays->z, x.metadata());
      scan(arrays->queue, x, z);
      arrays->queue.synchronize();
    };
    const std::string name = "algorithms/exclusive_scan_int32_" + size + suffix;
    const double target = algorithm == plinth::ScanAlgorithm::automatic ? scan_target : 0.0;
    if (refs->exclusive_sum_int32) {
      register_throughput(name, target, 2 * bytes, 2 * bytes, run, [arrays, refs] {
        arrays->prepare();
        refs->exclusive_sum_int32(*arrays->x, *arrays->z, arrays->count(4));
      });
    } else {
      register_throughput(name,
                          algorithm == plinth::ScanAlgorithm::automatic ? refs->copy_target : 0.0,
                          2 * bytes, 2 * bytes, run, raw_copy);
    }
  }

  // numpy's cumsum of int32 (int64 results) over the first half of x into a new array (4 bytes
  // read and 8 written an element: 12 x count), against the device copy's rate.
  {
    const auto i32 = plinth::DType::int32();
    auto run = [arrays, i32] {
      arrays->prepare();
      const auto half = plinth::Array::from_buffer(
          *arrays->x, plinth::ArrayMetadata({arrays->count(4) / 2}, i32));
      const auto sums = plinth::cumsum(arrays->queue, half);
      arrays->queue.synchronize();
    };
    register_throughput("algorithms/cumsum_int32_int64_" + size, cumsum_target,
                        12 * (arrays->count(4) / 2), 2 * bytes, run, raw_copy);
  }

  // Sums along an axis, a transpose, an expression over a strided view (issue 27) on x as
  // the largest square matrix it holds (16384 x 16384 in 1 GiB).
  register_layouts(arrays, refs,
                   static_cast<std::size_t>(std::sqrt(static_cast<double>(arrays->count(4)))));

  // Histogram and argmax (issue 29).
  register_counting(arrays, refs);

  // Random integers against uniform floats (issue 30).
  register_random_integers(arrays, size);

  // mean and var against sum (issue 30).
  register_statistics(arrays, size);

  // The host cost of a small elementwise call against a prepared launch of a hand-written
  // kernel doing the same (kernels.hpp's saxpy), both on 4096 elements.
  {
    const plinth::Program program(queue.device().context(), kernels_source);
    auto prepared = std::make_shared<plinth::PreparedKernel>(
        program.kernel("saxpy").prepare({small_call_elements}, {saxpy_local_size}));
    auto small_arrays = std::make_shared<std::pair<plinth::Array, plinth::Array>>(
        plinth::Array::empty(queue.device(), {small_call_elements}, f32),
        plinth::Array::empty(queue.device(), {small_call_elements}, f32));
    // Issue 27's target: at most 1.2 x the prepared launch, with no heap allocation a call.
    auto pair = register_pair(
        {"algorithms/small_call",
         Measure::latency,
         1.2,
         {"allocs/iter", "launches"},
         0,
         {"allocs/iter"}},
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
