// plinth-bench-peer: plinth's side of bench/peer, the comparison with CuPy (bench/peer/run
// runs this program, then the same workloads through CuPy, and prints the ratios; see
// docs/performance.md, "bench/peer"). Each workload runs `--warmup` batches, then `--reps`
// timed batches of `batch` calls between two events recorded on the queue; per call, the
// median and the best of the device times (events) and the median of the host times (the
// batch's wall time up to its last result) are printed as one JSON line.
//
//     plinth-bench-peer [--api cuda] [--large 268435456] [--small 4096] [--matrix 16384]
//                       [--cube 256x256x4096] [--reps 20] [--warmup 3] [--batch-large 10]
//                       [--batch-small 1000] [--sort 67108864]
//                       [--workloads axpy_new,axpy_into,...]
//
// The device is PLINTH_DEVICE's, else the API's first. CUDA is what CuPy runs on; `--api
// opencl` runs the same workloads elsewhere (NVIDIA's OpenCL on the same GPU, for bench/peer/
// run's --also-api; PoCL, to try the program without a GPU).
//
// The data, the same on CuPy's side (bench/peer/run), chosen so that every result is checked
// exactly (small integers, whose float32 sums are exact in any order) and a wrong layout
// shows: x and y are `large` float32 ones, except x[peak] = 3 (peak = 3/4 of the way);
// m[i, j] = i%7 + 8*(j%5) is `matrix` x `matrix`; c[a, b, k] = b%5 + k%3 is the cube;
// f16_fma's x, y, w are `large` float16 (see make_float16_data).

#include "../allocation_count.hpp"

#include <plinth/blas.hpp>
#include <plinth/plinth.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Every workload, in the order they run by default (docs/performance.md, "bench/peer").
const std::vector<std::string> all_workloads = {
    "axpy_new", "axpy_into", "expr_into", "small_new", "sum", "dot", "max", "sum_axis1",
    "sum_axis0", "transpose", "strided_expr", "sum_3d_two_axes", "broadcast_add", "astype_view",
    "device_copy",
    // Issue 29: sorting (`sort` keys), counting and selecting; cumsum.
    "sort_f32", "sort_i32", "argsort_f32", "histogram", "argmax", "mask_select", "cumsum",
    // Issue 30: numpy's functions, creation and reshape; float16 arithmetic; take;
    // reductions.
    "clip", "maximum", "arange", "reshape_sum", "f16_fma", "take", "prod", "any", "mean", "var",
    // Issue 33: a matrix product.
    "matmul"};

/// The command line's settings.
struct Options {
  std::string api = "cuda";
  std::size_t large = std::size_t{1} << 28;  // elements of the 1-D bandwidth-bound workloads
  std::size_t small = 4096;                  // elements of the host-bound workload
  std::size_t matrix = 16384;                // side of the square matrix
  std::array<std::size_t, 3> cube{};         // the 3-D array; 0s: (matrix/64)^2 x 4096
  std::size_t sort = std::size_t{1} << 26;   // keys of the sorting workloads
  std::size_t gemm = 4096;                   // side of matmul's square float32 matrices
  int reps = 20;
  int warmup = 3;
  int batch_large = 10;
  int batch_small = 1000;
  std::vector<std::string> workloads = all_workloads;
};

constexpr const char* usage =
    "usage: plinth-bench-peer [--api cuda] [--large N] [--small N] [--matrix N] [--cube AxBxC]\n"
    "                         [--sort N] [--gemm N]\n"
    "                         [--reps N] [--warmup N] [--batch-large N] [--batch-small N]\n"
    "                         [--workloads a,b,...]\n"
    "workloads: axpy_new, axpy_into, expr_into, small_new, sum, dot, max, sum_axis1,\n"
    "           sum_axis0, transpose, strided_expr, sum_3d_two_axes, broadcast_add,\n"
    "           astype_view, device_copy, sort_f32, sort_i32, argsort_f32,\n"
    "           histogram, argmax, mask_select, cumsum, clip, maximum, arange,\n"
    "           reshape_sum, f16_fma, take, prod, any, mean, var, matmul\n";

std::size_t positive(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value == 0 || text.front() == '-')
    throw std::invalid_argument(option + " takes a positive integer, not '" + text + "'");
  return static_cast<std::size_t>(value);
}

std::array<std::size_t, 3> cube_of(const std::string& text) {
  std::array<std::size_t, 3> cube{};
  std::stringstream parts(text);
  std::size_t count = 0;
  for (std::string part; std::getline(parts, part, 'x'); ++count) {
    if (count == 3) break;
    cube[count] = positive("--cube", part);
  }
  if (count != 3 || !parts.eof() || text.back() == 'x')
    throw std::invalid_argument("--cube takes three extents AxBxC, not '" + text + "'");
  return cube;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "--help" || option == "-h") {
      std::cout << usage;
      std::exit(0);
    }
    if (i + 1 >= argc) throw std::invalid_argument(option + ": a value is missing");
    const std::string value = argv[++i];
    auto count = [&] {
      return static_cast<int>(std::min<std::size_t>(positive(option, value), 1u << 30));
    };
    if (option == "--api") {
      options.api = value;
    } else if (option == "--large") {
      options.large = positive(option, value);
    } else if (option == "--small") {
      options.small = positive(option, value);
    } else if (option == "--matrix") {
      options.matrix = positive(option, value);
    } else if (option == "--cube") {
      options.cube = cube_of(value);
    } else if (option == "--sort") {
      options.sort = positive(option, value);
    } else if (option == "--gemm") {
      options.gemm = positive(option, value);
    } else if (option == "--reps") {
      options.reps = count();
    } else if (option == "--warmup") {
      options.warmup = count();
    } else if (option == "--batch-large") {
      options.batch_large = count();
    } else if (option == "--batch-small") {
      options.batch_small = count();
    } else if (option == "--workloads") {
      options.workloads.clear();
      std::stringstream list(value);
      for (std::string name; std::getline(list, name, ',');) {
        if (std::find(all_workloads.begin(), all_workloads.end(), name) == all_workloads.end())
          throw std::invalid_argument("unknown workload '" + name + "'");
        options.workloads.push_back(name);
      }
    } else {
      throw std::invalid_argument("unknown option '" + option + "'");
    }
  }
  if (options.cube[0] == 0) {
    const std::size_t side = std::max<std::size_t>(options.matrix / 64, 1);
    options.cube = {side, side, 4096};
  }
  return options;
}

/// `text` as a JSON string.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// One workload: what it runs and what it moves.
struct Workload {
  std::string name;
  std::string how;      // the plinth call, for the table's notes
  std::string measure;  // "bandwidth" (GB/s of `bytes`) or "latency" (host time per call)
  std::size_t elements = 0;
  std::size_t bytes = 0;  // bytes moved per call (docs/performance.md, "bench/peer")
  int batch = 1;
  std::function<void()> call;
  std::function<std::string()> check;  // after the warm-up: "" if the result is right
  std::string dtype = "float32";       // the input's
};

/// Row `row` of a 2-D C-order array, as T, on the host.
template <class T>
std::vector<T> row_of(const plinth::Queue& queue, const plinth::Array& array, std::size_t row) {
  const auto r = static_cast<std::ptrdiff_t>(row);
  return array.view({plinth::Slice(r, r + 1)}).get(queue).to_vector<T>();
}

/// The elements [first, first + count) of a 1-D array (float32) on the host.
std::vector<float> part_of(const plinth::Queue& queue, const plinth::Array& array,
                           std::size_t first, std::size_t count) {
  const auto from = static_cast<std::ptrdiff_t>(first);
  const auto part = array.view({plinth::Slice(from, from + static_cast<std::ptrdiff_t>(count))});
  return part.get(queue).to_vector<float>();
}

/// "" if every value is within `tolerance` (relative) of expected(k) for its position k,
/// else the first that is not.
template <class T, class Expected>
std::string expect(const std::vector<T>& values, Expected expected, const std::string& what,
                   double tolerance = 0) {
  for (std::size_t k = 0; k < values.size(); ++k) {
    const double want = expected(k);
    const double got = static_cast<double>(values[k]);
    if (!(std::fabs(got - want) <= tolerance * std::fabs(want)))
      return what + "[" + std::to_string(k) + "] gave " + number(got) + ", expected " +
             number(want);
  }
  return {};
}

/// The shape of `array` as "(a, b)".
std::string shape_text(const plinth::Array& array) {
  std::string text = "(";
  for (const auto extent : array.shape())
    text += (text.size() > 1 ? ", " : "") + std::to_string(extent);
  return text + ")";
}

/// "" if `array` has `shape` and `dtype`, else what it has.
std::string expect_shape(const plinth::Array& array, const std::vector<std::size_t>& shape,
                         const plinth::DType& dtype, const std::string& what) {
  if (array.shape() == shape && array.dtype() == dtype) return {};
  return what + " has shape " + shape_text(array) + " and dtype " + array.dtype().name();
}

/// The arrays the workloads read and write, made for the workloads asked for.
struct Data {
  std::optional<plinth::Array> x, y, z, small, m, rows, cols, cube;
  std::optional<plinth::Array> sort_f32, sort_i32;  // random keys (issue 29)
  std::optional<plinth::Array> ints;                // `large` int32 ones (cumsum)
  std::optional<plinth::Array> flags;               // x > 2: true at x[peak] only (any)
  std::optional<plinth::Buffer> copy_src, copy_dst;
  std::size_t peak = 0;                       // x[peak] = 3
  std::optional<plinth::Array> uniform;       // issue 29: `large` float32 uniform in [0, 1)
  std::optional<plinth::Array> take_indices;  // issue 30: `large`/4 int64 in [0, large)
  std::optional<plinth::Array> hx, hy, hw;    // issue 30: `large` float16 (f16_fma)
  std::optional<plinth::Array> ga, gb;        // issue 33: `gemm`^2 float32, 0.5 and 0.25
};

/// A (1, ..., n, ..., 1) float32 array, the n values f(k) on axis `axis` of `ndim`.
template <class F>
plinth::Array axis_values(const plinth::Queue& queue, std::size_t n, std::size_t axis,
                          std::size_t ndim, F f) {
  std::vector<float> values(n);
  for (std::size_t k = 0; k < n; ++k) values[k] = static_cast<float>(f(k));
  std::vector<std::size_t> shape(ndim, 1);
  shape[axis] = n;
  return plinth::Array::from_host(queue, plinth::HostArray::from_values(values, shape));
}

/// f16_fma's float16 arrays: hx = hy = 1 + 2^-10 and hw = 2^-11, so that hx*hy + hw is
/// 1 + 2^-9 (0x3c02) only if hx*hy (1 + 2^-9 + 2^-20) is rounded to float16 before the sum
/// (a tie then, to even); one rounding of the float32 x*y + w gives 1 + 3 * 2^-10 (0x3c03).
void make_float16_data(const plinth::Queue& queue, const Options& options, Data& data) {
  const auto f16 = plinth::DType::float16();
  data.hx = plinth::Array::empty(queue, {options.large}, f16);
  data.hy = plinth::Array::empty(queue, {options.large}, f16);
  data.hw = plinth::Array::empty(queue, {options.large}, f16);
  plinth::fill(queue, *data.hx, 1.0 + 0x1p-10);
  plinth::fill(queue, *data.hy, 1.0 + 0x1p-10);
  plinth::fill(queue, *data.hw, 0x1p-11);
}

Data make_data(const plinth::Queue& queue, const Options& options) {
  const auto f32 = plinth::DType::float32();
  auto wanted = [&](std::initializer_list<const char*> names) {
    for (const char* name : names)
      if (std::find(options.workloads.begin(), options.workloads.end(), name) !=
          options.workloads.end())
        return true;
    return false;
  };
  Data data;
  if (wanted({"axpy_new", "axpy_into", "expr_into", "sum", "dot", "max", "clip", "maximum",
              "reshape_sum", "prod", "any", "mean", "var"})) {
    data.x = plinth::Array::empty(queue, {options.large}, f32);
    data.y = plinth::Array::empty(queue, {options.large}, f32);
    data.z = plinth::Array::empty(queue, {options.large}, f32);
    plinth::fill(queue, *data.x, 1.0f);
    plinth::fill(queue, *data.y, 1.0f);
    plinth::fill(queue, *data.z, 0.0f);
    data.peak = options.large / 2 + options.large / 4;
    const auto peak = static_cast<std::ptrdiff_t>(data.peak);
    plinth::fill(queue, data.x->view({plinth::Slice(peak, peak + 1)}), 3.0f);
  }
  if (wanted({"any"})) data.flags = plinth::evaluate(queue, *data.x > 2.0f);
  if (wanted({"cumsum"})) {
    data.ints = plinth::Array::empty(queue, {options.large}, plinth::DType::int32());
    plinth::fill(queue, *data.ints, 1);
  }
  if (wanted({"small_new"})) {
    data.small = plinth::Array::empty(queue, {options.small}, f32);
    plinth::fill(queue, *data.small, 1.0f);
  }
  const std::size_t side = options.matrix;
  if (wanted({"sum_axis1", "sum_axis0", "transpose", "strided_expr", "broadcast_add",
              "astype_view"})) {
    data.rows = axis_values(queue, side, 0, 2, [](std::size_t i) { return i % 7; });
    data.cols = axis_values(queue, side, 1, 2, [](std::size_t j) { return 8 * (j % 5); });
    data.m = plinth::Array::empty(queue, {side, side}, f32);
    plinth::assign(queue, *data.m, *data.rows + *data.cols);
  }
  if (wanted({"sum_3d_two_axes"})) {
    const auto& c = options.cube;
    const auto middle = axis_values(queue, c[1], 1, 3, [](std::size_t b) { return b % 5; });
    const auto last = axis_values(queue, c[2], 2, 3, [](std::size_t k) { return k % 3; });
    data.cube = plinth::Array::empty(queue, {c[0], c[1], c[2]}, f32);
    plinth::assign(queue, *data.cube, middle + last);
  }
  if (wanted({"histogram", "argmax", "mask_select", "take"})) {
    data.uniform = plinth::Array::empty(queue, {options.large}, f32);
    plinth::RandomGenerator(29).uniform(queue, *data.uniform);
  }
  if (wanted({"matmul"})) {
    data.ga = plinth::full(queue, {options.gemm, options.gemm}, 0.5, f32);
    data.gb = plinth::full(queue, {options.gemm, options.gemm}, 0.25, f32);
  }
  if (wanted({"take"})) {
    data.take_indices = plinth::Array::empty(queue, {options.large / 4}, plinth::DType::int64());
    plinth::RandomGenerator(30).integers(queue, *data.take_indices, 0, options.large);
  }
  if (wanted({"device_copy"})) {
    const std::size_t bytes = options.large * sizeof(float);
    data.copy_src = plinth::Buffer::allocate(queue.device(), bytes);
    data.copy_dst = plinth::Buffer::allocate(queue.device(), bytes);
    const plinth::ArrayMetadata metadata({options.large}, f32);
    plinth::fill(queue, plinth::Array::from_buffer(*data.copy_src, metadata), 2.0f);
    plinth::fill(queue, plinth::Array::from_buffer(*data.copy_dst, metadata), 0.0f);
  }
  if (wanted({"sort_f32", "sort_i32", "argsort_f32"})) {
    // Uniform floats in [0, 1) and every int32, from one LCG (CuPy's side draws its own).
    std::vector<float> floats(options.sort);
    std::vector<std::int32_t> ints(options.sort);
    std::uint64_t state = 0x9e3779b97f4a7c15ULL;
    for (std::size_t e = 0; e < options.sort; ++e) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      floats[e] = static_cast<float>(state >> 40) / static_cast<float>(1 << 24);
      ints[e] = static_cast<std::int32_t>(static_cast<std::uint32_t>(state >> 32));
    }
    data.sort_f32 = plinth::Array::from_host(queue, plinth::HostArray::from_values(floats));
    data.sort_i32 = plinth::Array::from_host(queue, plinth::HostArray::from_values(ints));
  }
  if (wanted({"f16_fma"})) make_float16_data(queue, options, data);
  queue.synchronize();
  return data;
}

/// "" if `sorted` (on the host) never decreases, else the first place it does.
template <class T>
std::string expect_ascending(const std::vector<T>& sorted, const std::string& what) {
  for (std::size_t k = 1; k < sorted.size(); ++k) {
    if (sorted[k] < sorted[k - 1])
      return what + " decreases at " + std::to_string(k) + ": " + number(double(sorted[k - 1])) +
             " then " + number(double(sorted[k]));
  }
  return {};
}

/// The sorting workloads (issue 29) on `sort` random keys: sort of float32 and int32 keys
/// (read and written: 8 bytes a key), argsort of the floats (4 read, 8 written: 12 bytes).
void add_sort_workloads(std::vector<Workload>& out, const std::string& name,
                        const plinth::Queue& queue, const Options& options, const Data& d) {
  const std::size_t n = options.sort;
  const int batch = options.batch_large;
  const auto& q = queue;
  if (name == "sort_f32" || name == "sort_i32") {
    const bool is_float = name == "sort_f32";
    const plinth::Array& keys = is_float ? *d.sort_f32 : *d.sort_i32;
    out.push_back({name, "sort(queue, x)", "bandwidth", n, 8 * n, batch,
                   [&q, &keys] { const auto r = plinth::sort(q, keys); },
                   [&q, &keys, is_float, n] {
                     const auto r = plinth::sort(q, keys);
                     std::string problem = expect_shape(r, {n}, keys.dtype(), "sort(x)");
                     if (!problem.empty()) return problem;
                     return is_float
                                ? expect_ascending(r.get(q).to_vector<float>(), "sort(x)")
                                : expect_ascending(r.get(q).to_vector<std::int32_t>(), "sort(x)");
                   },
                   is_float ? "float32" : "int32"});
  } else if (name == "argsort_f32") {
    const plinth::Array& keys = *d.sort_f32;
    out.push_back({name, "argsort(queue, x)", "bandwidth", n, 12 * n, batch,
                   [&q, &keys] { const auto r = plinth::argsort(q, keys); },
                   [&q, &keys, n] {
                     const auto r = plinth::argsort(q, keys);
                     std::string problem =
                         expect_shape(r, {n}, plinth::DType::int64(), "argsort(x)");
                     if (!problem.empty()) return problem;
                     const auto order = r.get(q).to_vector<std::int64_t>();
                     const auto x = keys.get(q).to_vector<float>();
                     std::vector<float> sorted(n);
                     for (std::size_t k = 0; k < n; ++k) {
                       if (order[k] < 0 || static_cast<std::size_t>(order[k]) >= n)
                         return "argsort(x)[" + std::to_string(k) + "] is out of range";
                       sorted[k] = x[static_cast<std::size_t>(order[k])];
                     }
                     return expect_ascending(sorted, "x[argsort(x)]");
                   },
                   "float32"});
  }
}

/// Issue 30's rows: arange(N) float32 (a new array), and a reshape view of x (`large` float32)
/// summed over axis 0. The calls capture `queue` and `d`, which outlive them.
void add_creation_workloads(std::vector<Workload>& out, const std::string& name,
                            const plinth::Queue& queue, const Options& options, const Data& d) {
  const std::size_t n = options.large;
  const std::size_t bytes = n * sizeof(float);
  const int batch = options.batch_large;
  const auto& q = queue;
  if (name == "arange") {
    // `large` float32 values 0, 1, 2, ... written (numpy's arange(N, dtype=float32)).
    const auto head = [&q](const plinth::Array& r, std::size_t first, std::size_t count) {
      return expect(
          part_of(q, r, first, count),
          [first](std::size_t k) { return double(static_cast<float>(first + k)); }, "arange(N)");
    };
    out.push_back({name, "arange(queue, N, float32)", "bandwidth", n, bytes, batch,
                   [&q, n] { const auto r = plinth::arange(q, n, plinth::DType::float32()); },
                   [&q, n, head] {
                     const auto r = plinth::arange(q, n, plinth::DType::float32());
                     std::string problem =
                         expect_shape(r, {n}, plinth::DType::float32(), "arange(N)");
                     const std::size_t count = std::min<std::size_t>(n, 16);
                     if (problem.empty()) problem = head(r, 0, count);
                     if (problem.empty()) problem = head(r, n - count, count);
                     return problem;
                   }});
  } else if (name == "reshape_sum") {
    // x[:rows*C] reshaped (a view) to (rows, C), C = 4096 (or N where N is smaller), summed over
    // axis 0: C column sums of `rows` ones, the column of x[peak] = 3 two more.
    const std::size_t columns = std::min<std::size_t>(4096, n), rows = n / columns;
    const auto call = [&q, &d, rows, columns] {
      const auto used = static_cast<std::ptrdiff_t>(rows * columns);
      const auto matrix = plinth::reshape(
          q, d.x->view({plinth::Slice(0, used)}),
          {static_cast<std::ptrdiff_t>(rows), static_cast<std::ptrdiff_t>(columns)});
      return plinth::sum(q, matrix, {.axis = {{0}}});
    };
    const std::size_t peak_column = d.peak < rows * columns ? d.peak % columns : columns;
    out.push_back({name, "sum(queue, reshape(queue, x, {N/4096, 4096}), axis 0)", "bandwidth",
                   rows * columns, rows * columns * sizeof(float), batch,
                   [call] { const auto r = call(); },
                   [&q, call, rows, columns, peak_column] {
                     const auto r = call();
                     std::string problem =
                         expect_shape(r, {columns}, plinth::DType::float32(), "reshape_sum");
                     if (problem.empty()) {
                       problem = expect(
                           r.get(q).to_vector<float>(),
                           [&](std::size_t k) { return double(rows) + (k == peak_column ? 2 : 0); },
                           "sum(reshape(x), axis=0)", 1e-6);
                     }
                     return problem;
                   }});
  }
}

/// The 1-D workloads on x, y, z (`large` float32) and `small` (docs/performance.md). The
/// calls capture `queue` and `d`, which outlive them.
void add_vector_workloads(std::vector<Workload>& out, const std::string& name,
                          const plinth::Queue& queue, const Options& options, const Data& d) {
  const std::size_t n = options.large;
  const std::size_t bytes = n * sizeof(float);
  const int batch = options.batch_large;
  const std::size_t heads = std::min<std::size_t>(16, d.peak);  // x[0, heads) are ones
  // sum(x) and dot(x, y): n - 1 ones and a 3, to rounding.
  const double total = static_cast<double>(n) + 2;
  auto near_total = [&queue, total](const plinth::Array& result, const char* what) {
    if (result.dtype() != plinth::DType::float32())
      return std::string(what) + " gave dtype " + result.dtype().name();
    const double got = static_cast<double>(result.get(queue).to_vector<float>()[0]);
    if (std::fabs(got - total) <= 1e-3 * total) return std::string();
    return std::string(what) + " gave " + number(got) + ", expected " + number(total);
  };
  auto constant = [](double value) { return [value](std::size_t) { return value; }; };
  const auto& q = queue;
  if (name == "axpy_new") {
    out.push_back({name, "evaluate(queue, 2.5*x + y)", "bandwidth", n, 3 * bytes, batch,
                   [&q, &d] { const auto r = plinth::evaluate(q, 2.5 * *d.x + *d.y); },
                   [&q, &d, heads, constant] {
                     const auto r = plinth::evaluate(q, 2.5 * *d.x + *d.y);
                     return expect(part_of(q, r, 0, heads), constant(3.5), "2.5*x + y");
                   }});
  } else if (name == "axpy_into") {
    out.push_back({name, "assign(queue, z, 2.5*x + y)", "bandwidth", n, 3 * bytes, batch,
                   [&q, &d] { plinth::assign(q, *d.z, 2.5 * *d.x + *d.y); },
                   [&q, &d, heads, constant] {
                     return expect(part_of(q, *d.z, 0, heads), constant(3.5), "z = 2.5*x + y");
                   }});
  } else if (name == "expr_into") {
    out.push_back(
        {name, "assign(queue, z, sin(x)*exp(y) + x*y)", "bandwidth", n, 3 * bytes, batch,
         [&q, &d] { plinth::assign(q, *d.z, plinth::sin(*d.x) * plinth::exp(*d.y) + *d.x * *d.y); },
         [&q, &d, heads, constant] {
           const double want = std::sin(1.0) * std::exp(1.0) + 1.0;
           return expect(part_of(q, *d.z, 0, heads), constant(want), "z = sin(x)*exp(y) + x*y",
                         1e-5);
         }});
  } else if (name == "small_new") {
    const std::size_t m = options.small;
    out.push_back(
        {name, "evaluate(queue, x*2 + 1)", "latency", m, 2 * m * sizeof(float), options.batch_small,
         [&q, &d] { const auto r = plinth::evaluate(q, *d.small * 2 + 1); },
         [&q, &d, m, constant] {
           const auto r = plinth::evaluate(q, *d.small * 2 + 1);
           return expect(part_of(q, r, 0, std::min<std::size_t>(m, 16)), constant(3.0), "x*2 + 1");
         }});
  } else if (name == "sum") {
    out.push_back({name, "sum(queue, x)", "bandwidth", n, bytes, batch,
                   [&q, &d] { const auto r = plinth::sum(q, *d.x); },
                   [&q, &d, near_total] { return near_total(plinth::sum(q, *d.x), "sum(x)"); }});
  } else if (name == "dot") {
    out.push_back(
        {name, "dot(queue, x, y)", "bandwidth", n, 2 * bytes, batch,
         [&q, &d] { const auto r = plinth::dot(q, *d.x, *d.y); },
         [&q, &d, near_total] { return near_total(plinth::dot(q, *d.x, *d.y), "dot(x, y)"); }});
  } else if (name == "max") {
    out.push_back({name, "max(queue, x)", "bandwidth", n, bytes, batch,
                   [&q, &d] { const auto r = plinth::max(q, *d.x); },
                   [&q, &d, constant] {
                     const auto r = plinth::max(q, *d.x);
                     std::string problem = expect_shape(r, {}, plinth::DType::float32(), "max(x)");
                     if (problem.empty())
                       problem = expect(r.get(q).to_vector<float>(), constant(3.0), "max(x)");
                     return problem;
                   }});
  } else if (name == "cumsum") {
    // int32 ones read (4 bytes each), their int64 running sums k + 1 written (8 bytes each).
    out.push_back(
        {name, "cumsum(queue, xi), xi int32 (int64 result)", "bandwidth", n,
         n * (sizeof(std::int32_t) + sizeof(std::int64_t)), batch,
         [&q, &d] { const auto r = plinth::cumsum(q, *d.ints); },
         [&q, &d, n] {
           const auto r = plinth::cumsum(q, *d.ints);
           std::string problem = expect_shape(r, {n}, plinth::DType::int64(), "cumsum(xi)");
           const std::size_t count = std::min<std::size_t>(n, 16);
           const auto ends = [&](std::size_t first) {
             const auto from = static_cast<std::ptrdiff_t>(first);
             return r.view({plinth::Slice(from, from + static_cast<std::ptrdiff_t>(count))})
                 .get(q)
                 .to_vector<std::int64_t>();
           };
           if (problem.empty())
             problem = expect(
                 ends(0), [](std::size_t k) { return double(k + 1); }, "cumsum(xi)");
           if (problem.empty())
             problem = expect(
                 ends(n - count), [&](std::size_t k) { return double(n - count + k + 1); },
                 "cumsum(xi)'s end");
           return problem;
         },
         "int32"});
  } else if (name == "device_copy") {
    out.push_back({name, "dst.set(queue, src) of two Buffers (device to device)", "bandwidth", n,
                   2 * bytes, batch, [&q, &d] { d.copy_dst->set(q, *d.copy_src); },
                   [&q, &d, n, constant] {
                     const auto copied = plinth::Array::from_buffer(
                         *d.copy_dst, plinth::ArrayMetadata({n}, plinth::DType::float32()));
                     const std::size_t count = std::min<std::size_t>(n, 16);
                     std::string problem =
                         expect(part_of(q, copied, 0, count), constant(2.0), "dst");
                     if (problem.empty())
                       problem =
                           expect(part_of(q, copied, n - count, count), constant(2.0), "dst's end");
                     return problem;
                   }});
  }
}

/// "" if rows 0 and last of the 2-D `result` (of `shape` and dtype T) hold
/// expected(row, column), else what is wrong.
template <class T, class Expected>
std::string expect_rows(const plinth::Queue& queue, const plinth::Array& result,
                        const std::vector<std::size_t>& shape, const std::string& what,
                        Expected expected) {
  std::string problem = expect_shape(result, shape, plinth::dtype_of<T>(), what);
  for (const std::size_t row : {std::size_t{0}, shape[0] - 1}) {
    if (!problem.empty()) break;
    problem = expect(
        row_of<T>(queue, result, row), [&](std::size_t column) { return expected(row, column); },
        what + " row " + std::to_string(row));
  }
  return problem;
}

/// Issue 33: a @ b of two gemm x gemm float32 matrices (0.5 and 0.25 everywhere: every
/// element of the product is gemm / 8, exact). Its "bytes" are the product's FLOPs (2 n^3),
/// so that its rate is FLOP/s.
void add_blas_workloads(std::vector<Workload>& out, const std::string& name,
                        const plinth::Queue& queue, const Options& options, const Data& d) {
  if (name != "matmul") return;
  const std::size_t n = options.gemm;
  const auto& q = queue;
  out.push_back({name, "matmul(queue, a, b), float32 (bytes = FLOPs: the rate is FLOP/s)",
                 "bandwidth", n * n, 2 * n * n * n, 1,
                 [&q, &d] { const auto r = plinth::matmul(q, *d.ga, *d.gb); },
                 [&q, &d, n] {
                   return expect_rows<float>(q, plinth::matmul(q, *d.ga, *d.gb), {n, n}, "a @ b",
                                             [n](auto, auto) { return double(n) / 8; });
                 }});
}

/// m[i, j] = i%7 + 8*(j%5), as make_data() fills it.
double m_at(std::size_t i, std::size_t j) { return double(i % 7) + 8.0 * double(j % 5); }

/// The workloads on the matrix m (`matrix` x `matrix` float32) and the cube. The calls
/// capture `queue` and `d`, which outlive them.
void add_layout_workloads(std::vector<Workload>& out, const std::string& name,
                          const plinth::Queue& queue, const Options& options, const Data& d) {
  const std::size_t side = options.matrix;
  const std::size_t elements = side * side;
  const std::size_t bytes = elements * sizeof(float);
  const int batch = options.batch_large;
  const auto& q = queue;
  const auto axes = [](std::vector<std::size_t> list) {
    return plinth::ReductionTarget{.axes = std::move(list)};
  };
  const std::vector<std::size_t> square = {side, side};
  if (name == "sum_axis1" || name == "sum_axis0") {
    // The sums of whole rows (axis 1) and columns (axis 0) of m, exact in float32.
    const std::size_t axis = name == "sum_axis1" ? 1 : 0;
    double sum_i7 = 0, sum_j5 = 0;
    for (std::size_t k = 0; k < side; ++k) {
      sum_i7 += double(k % 7);
      sum_j5 += double(k % 5);
    }
    auto expected = [=](std::size_t k) {
      return axis == 1 ? double(side) * double(k % 7) + 8 * sum_j5
                       : sum_i7 + 8.0 * double(side) * double(k % 5);
    };
    out.push_back({name, "sum(queue, m, {.axes = {" + std::to_string(axis) + "}})", "bandwidth",
                   elements, bytes, batch,
                   [&q, &d, axes, axis] { const auto r = plinth::sum(q, *d.m, axes({axis})); },
                   [&q, &d, axes, axis, side, expected] {
                     const auto r = plinth::sum(q, *d.m, axes({axis}));
                     const std::string what = "sum over axis " + std::to_string(axis);
                     std::string problem = expect_shape(r, {side}, plinth::DType::float32(), what);
                     if (problem.empty())
                       problem = expect(r.get(q).to_vector<float>(), expected, what, 1e-6);
                     return problem;
                   }});
  } else if (name == "transpose") {
    out.push_back({name, "transpose(queue, m)", "bandwidth", elements, 2 * bytes, batch,
                   [&q, &d] { const auto r = plinth::transpose(q, *d.m); },
                   [&q, &d, square] {
                     return expect_rows<float>(q, plinth::transpose(q, *d.m), square, "m.T",
                                               [](auto r, auto c) { return m_at(c, r); });
                   }});
  } else if (name == "strided_expr") {
    // v = m[:, ::2]: side x ceil(side/2) elements read and as many written.
    const std::size_t half = (side + 1) / 2;
    auto view = [&d] { return d.m->view({plinth::Slice::all(), plinth::Slice({}, {}, 2)}); };
    out.push_back({name, "evaluate(queue, 2*v + 1), v = m[:, ::2]", "bandwidth", side * half,
                   2 * side * half * sizeof(float), batch,
                   [&q, view] { const auto r = plinth::evaluate(q, 2 * view() + 1); },
                   [&q, view, side, half] {
                     return expect_rows<float>(
                         q, plinth::evaluate(q, 2 * view() + 1), {side, half}, "2*m[:, ::2] + 1",
                         [](auto r, auto c) { return 2 * m_at(r, 2 * c) + 1; });
                   }});
  } else if (name == "broadcast_add") {
    // (side, 1) + (1, side): 2*side elements read, side^2 written.
    out.push_back({name, "evaluate(queue, a + b), a (N,1), b (1,N)", "bandwidth", elements,
                   (elements + 2 * side) * sizeof(float), batch,
                   [&q, &d] { const auto r = plinth::evaluate(q, *d.rows + *d.cols); },
                   [&q, &d, square] {
                     return expect_rows<float>(q, plinth::evaluate(q, *d.rows + *d.cols), square,
                                               "a + b", m_at);
                   }});
  } else if (name == "astype_view") {
    // m.T read as float32, written as float64: 4 + 8 bytes an element.
    out.push_back({name, "astype(queue, transposed_view(m), float64)", "bandwidth", elements,
                   3 * bytes, batch,
                   [&q, &d] {
                     const auto r =
                         plinth::astype(q, plinth::transposed_view(*d.m), plinth::DType::float64());
                   },
                   [&q, &d, square] {
                     const auto r =
                         plinth::astype(q, plinth::transposed_view(*d.m), plinth::DType::float64());
                     return expect_rows<double>(q, r, square, "m.T as float64",
                                                [](auto r_, auto c) { return m_at(c, r_); });
                   }});
  } else if (name == "sum_3d_two_axes") {
    // c[a, b, k] = b%5 + k%3, summed over a and k: exact in float32.
    // Named copies, not structured bindings: clang 15 cannot capture those in lambdas.
    const std::size_t p = options.cube[0], mid = options.cube[1], s = options.cube[2];
    double sum_k3 = 0;
    for (std::size_t k = 0; k < s; ++k) sum_k3 += double(k % 3);
    const std::size_t count = p * mid * s;
    auto expected = [=](std::size_t b) { return double(p) * (double(s) * double(b % 5) + sum_k3); };
    out.push_back({name, "sum(queue, c, {.axes = {0, 2}})", "bandwidth", count,
                   count * sizeof(float), batch,
                   [&q, &d, axes] {
                     const auto r = plinth::sum(q, *d.cube, axes({0, 2}));
                   },
                   [&q, &d, axes, mid, expected] {
                     const auto r = plinth::sum(q, *d.cube, axes({0, 2}));
                     const std::string what = "sum over axes (0, 2)";
                     std::string problem = expect_shape(r, {mid}, plinth::DType::float32(), what);
                     if (problem.empty())
                       problem = expect(r.get(q).to_vector<float>(), expected, what, 1e-6);
                     return problem;
                   }});
  }
}

/// Issue 29's workloads on `uniform` (`large` float32 uniform in [0, 1)): histogram(u, 256,
/// (0, 1)), argmax(u) and u[u > 0.5] (bytes: u read, and for the selection half of it
/// written). The calls capture `queue` and `d`, which outlive them.
void add_selection_workloads(std::vector<Workload>& out, const std::string& name,
                             const plinth::Queue& queue, const Options& options, const Data& d) {
  const std::size_t n = options.large;
  const std::size_t bytes = n * sizeof(float);
  const int batch = options.batch_large;
  const auto& q = queue;
  if (name == "histogram") {
    out.push_back(
        {name, "histogram(queue, u, 256, {{0, 1}})", "bandwidth", n, bytes, batch,
         [&q, &d] {
           const auto r = plinth::histogram(q, *d.uniform, 256, {{0.0, 1.0}});
         },
         [&q, &d, n] {
           const auto r = plinth::histogram(q, *d.uniform, 256, {{0.0, 1.0}});
           std::string problem = expect_shape(r.counts, {256}, plinth::DType::int64(), "counts");
           if (!problem.empty()) return problem;
           const auto counts = r.counts.get(q).to_vector<std::int64_t>();
           std::int64_t total = 0;
           for (const auto c : counts) total += c;
           if (total != static_cast<std::int64_t>(n))
             return "the counts add up to " + std::to_string(total) + ", not " + std::to_string(n);
           return std::string();
         }});
  } else if (name == "argmax") {
    out.push_back({name, "argmax(queue, u)", "bandwidth", n, bytes, batch,
                   [&q, &d] { const auto r = plinth::argmax(q, *d.uniform); },
                   [&q, &d, n] {
                     const auto r = plinth::argmax(q, *d.uniform);
                     std::string problem = expect_shape(r, {}, plinth::DType::int64(), "argmax");
                     if (!problem.empty()) return problem;
                     const auto index = r.get(q).to_vector<std::int64_t>()[0];
                     if (index < 0 || static_cast<std::size_t>(index) >= n)
                       return "argmax gave " + std::to_string(index);
                     const auto at = part_of(q, *d.uniform, static_cast<std::size_t>(index), 1)[0];
                     const auto top = plinth::max(q, *d.uniform).get(q).to_vector<float>()[0];
                     if (at != top) return "u[argmax] is " + number(at) + ", max(u) " + number(top);
                     return std::string();
                   }});
  } else if (name == "mask_select") {
    out.push_back({name, "extract(queue, evaluate(queue, u > 0.5), u)", "bandwidth", n,
                   bytes + bytes / 2, batch,
                   [&q, &d] {
                     const auto r =
                         plinth::extract(q, plinth::evaluate(q, *d.uniform > 0.5f), *d.uniform);
                   },
                   [&q, &d] {
                     const auto mask = plinth::evaluate(q, *d.uniform > 0.5f);
                     const auto r = plinth::extract(q, mask, *d.uniform);
                     const auto count =
                         plinth::count_nonzero(q, mask).get(q).to_vector<std::int64_t>()[0];
                     if (r.size() != static_cast<std::size_t>(count))
                       return "u[u > 0.5] has " + std::to_string(r.size()) + " elements, not " +
                              std::to_string(count);
                     for (const auto v : part_of(q, r, 0, std::min<std::size_t>(16, r.size())))
                       if (!(v > 0.5f)) return "u[u > 0.5] holds " + number(v);
                     return std::string();
                   }});
  }
}

/// Issue 30's elementwise functions on x and y (`large` float32): clip(x, 0.25, 0.75) and
/// maximum(x, y), new arrays; x's ones and its 3 at `peak` give 0.75 everywhere, and 1 but 3 at
/// `peak`. The calls capture `queue` and `d`, which outlive them.
void add_ufunc_workloads(std::vector<Workload>& out, const std::string& name,
                         const plinth::Queue& queue, const Options& options, const Data& d) {
  if (name != "clip" && name != "maximum") return;
  const std::size_t n = options.large;
  const std::size_t bytes = n * sizeof(float);
  const int batch = options.batch_large;
  const std::size_t heads = std::min<std::size_t>(16, d.peak);
  auto constant = [](double value) { return [value](std::size_t) { return value; }; };
  const auto& q = queue;
  const bool clip = name == "clip";
  const auto result = [&q, &d, clip] {
    return clip ? plinth::evaluate(q, plinth::clip(*d.x, 0.25, 0.75))
                : plinth::evaluate(q, plinth::maximum(*d.x, *d.y));
  };
  out.push_back(
      {name, clip ? "evaluate(queue, clip(x, 0.25, 0.75))" : "evaluate(queue, maximum(x, y))",
       "bandwidth", n, (clip ? 2 : 3) * bytes, batch, [result] { const auto r = result(); },
       [&q, &d, heads, constant, clip, result] {
         const auto r = result();
         const std::string what = clip ? "clip(x, 0.25, 0.75)" : "maximum(x, y)";
         const auto problem = expect(part_of(q, r, 0, heads), constant(clip ? 0.75 : 1.0), what);
         return problem.empty() ? expect(part_of(q, r, d.peak, 1), constant(clip ? 0.75 : 3.0),
                                         what + " at the peak")
                                : problem;
       }});
}

/// Issue 30: take(u, idx) in wrap mode (CuPy's only mode) for `large`/4 random int64
/// indices (bytes: the indices read, the result written, and the elements read). The calls
/// capture `queue` and `d`, which outlive them.
void add_take_workload(std::vector<Workload>& out, const std::string& name,
                       const plinth::Queue& queue, const Options& options, const Data& d) {
  if (name != "take") return;
  const std::size_t k = options.large / 4;
  const auto& q = queue;
  out.push_back(
      {name, "take(queue, u, idx, std::nullopt, IndexMode::wrap)", "bandwidth", k,
       k * (sizeof(std::int64_t) + 2 * sizeof(float)), options.batch_large,
       [&q, &d] {
         const auto r =
             plinth::take(q, *d.uniform, *d.take_indices, std::nullopt, plinth::IndexMode::wrap);
       },
       [&q, &d, k] {
         const auto r =
             plinth::take(q, *d.uniform, *d.take_indices, std::nullopt, plinth::IndexMode::wrap);
         std::string problem = expect_shape(r, {k}, plinth::DType::float32(), "take");
         if (!problem.empty()) return problem;
         const std::size_t count = std::min<std::size_t>(16, k);
         for (const std::size_t first : {std::size_t{0}, k - count}) {
           const auto from = static_cast<std::ptrdiff_t>(first);
           const auto idx =
               d.take_indices
                   ->view({plinth::Slice(from, from + static_cast<std::ptrdiff_t>(count))})
                   .get(q)
                   .to_vector<std::int64_t>();
           const auto got = part_of(q, r, first, count);
           for (std::size_t j = 0; j < count; ++j) {
             const auto want = part_of(q, *d.uniform, static_cast<std::size_t>(idx[j]), 1)[0];
             if (got[j] != want)
               return "take[" + std::to_string(first + j) + "] is " + number(got[j]) + ", u[idx] " +
                      number(want);
           }
         }
         return std::string();
       }});
}

/// The float16 bits of the elements [first, first + count) of a 1-D float16 array.
std::vector<std::uint16_t> float16_part(const plinth::Queue& queue, const plinth::Array& array,
                                        std::size_t first, std::size_t count) {
  const auto from = static_cast<std::ptrdiff_t>(first);
  const auto host =
      array.view({plinth::Slice(from, from + static_cast<std::ptrdiff_t>(count))}).get(queue);
  std::vector<std::uint16_t> bits(count);
  std::memcpy(bits.data(), host.data(), count * sizeof(std::uint16_t));
  return bits;
}

void add_float16_workloads(std::vector<Workload>& out, const std::string& name,
                           const plinth::Queue& queue, const Options& options, const Data& d) {
  if (name != "f16_fma") return;
  const std::size_t n = options.large;
  const auto& q = queue;
  // Three float16 arrays read, one written: 8 bytes an element.
  out.push_back({name, "evaluate(queue, x*y + w), float16", "bandwidth", n,
                 4 * n * sizeof(std::uint16_t), options.batch_large,
                 [&q, &d] { const auto r = plinth::evaluate(q, *d.hx * *d.hy + *d.hw); },
                 [&q, &d, n] {
                   const auto r = plinth::evaluate(q, *d.hx * *d.hy + *d.hw);
                   std::string problem = expect_shape(r, {n}, plinth::DType::float16(), "x*y + w");
                   if (!problem.empty()) return problem;
                   const std::size_t count = std::min<std::size_t>(n, 16);
                   for (const std::size_t first : {std::size_t{0}, n - count}) {
                     for (const auto bits : float16_part(q, r, first, count))
                       if (bits != 0x3c02)
                         return "x*y + w gave float16 bits " + std::to_string(bits) +
                                ", expected 15362 (0x3c02: 1 + 2^-9)";
                   }
                   return std::string();
                 },
                 "float16"});
}

/// Issue 30: prod, any, mean and var of x (`large` float32 ones but x[peak] = 3), any of
/// flags = x > 2 (bool, true at the peak only).
void add_reduction_workloads(std::vector<Workload>& out, const std::string& name,
                             const plinth::Queue& queue, const Options& options, const Data& d) {
  const std::size_t n = options.large;
  const std::size_t bytes = n * sizeof(float);
  const int batch = options.batch_large;
  const auto& q = queue;
  // The only element of a shape-() float32 result, within `tolerance` (relative) of `want`.
  auto near = [&q](const plinth::Array& r, double want, double tolerance, const char* what) {
    std::string problem = expect_shape(r, {}, plinth::DType::float32(), what);
    if (!problem.empty()) return problem;
    const double got = static_cast<double>(r.get(q).to_vector<float>()[0]);
    if (std::fabs(got - want) <= tolerance * std::fabs(want)) return std::string();
    return std::string(what) + " gave " + number(got) + ", expected " + number(want);
  };
  if (name == "prod") {
    // Ones and a 3: the product is 3 exactly, finite at any size.
    out.push_back({name, "prod(queue, x)", "bandwidth", n, bytes, batch,
                   [&q, &d] { const auto r = plinth::prod(q, *d.x); },
                   [&q, &d, near] { return near(plinth::prod(q, *d.x), 3.0, 0.0, "prod(x)"); }});
  } else if (name == "any") {
    out.push_back({name, "any(queue, flags), flags = x > 2 (bool)", "bandwidth", n, n, batch,
                   [&q, &d] { const auto r = plinth::any(q, *d.flags); },
                   [&q, &d] {
                     const auto r = plinth::any(q, *d.flags);
                     std::string problem = expect_shape(r, {}, plinth::DType::boolean(), "any");
                     if (problem.empty() && !r.get(q).values<const bool>()[0])
                       problem = "any(flags) gave false";
                     return problem;
                   },
                   "bool"});
  } else if (name == "mean") {
    const double want = (static_cast<double>(n) + 2) / static_cast<double>(n);
    out.push_back(
        {name, "mean(queue, x)", "bandwidth", n, bytes, batch,
         [&q, &d] { const auto r = plinth::mean(q, *d.x); },
         [&q, &d, near, want] { return near(plinth::mean(q, *d.x), want, 1e-5, "mean(x)"); }});
  } else if (name == "var") {
    // n - 1 ones and a 3: (4 - 4/n) / n.
    const double nd = static_cast<double>(n), want = (4 - 4 / nd) / nd;
    out.push_back(
        {name, "var(queue, x)", "bandwidth", n, bytes, batch,
         [&q, &d] { const auto r = plinth::var(q, *d.x); },
         [&q, &d, near, want] { return near(plinth::var(q, *d.x), want, 1e-2, "var(x)"); }});
  }
}

std::vector<Workload> make_workloads(const plinth::Queue& queue, const Options& options,
                                     const Data& data) {
  std::vector<Workload> workloads;
  for (const auto& name : options.workloads) {
    add_vector_workloads(workloads, name, queue, options, data);
    add_ufunc_workloads(workloads, name, queue, options, data);
    add_layout_workloads(workloads, name, queue, options, data);
    add_sort_workloads(workloads, name, queue, options, data);
    add_selection_workloads(workloads, name, queue, options, data);
    add_creation_workloads(workloads, name, queue, options, data);
    add_take_workload(workloads, name, queue, options, data);
    add_float16_workloads(workloads, name, queue, options, data);
    add_reduction_workloads(workloads, name, queue, options, data);
    add_blas_workloads(workloads, name, queue, options, data);
  }
  return workloads;
}

void run(const Options& options) {
  const auto api = plinth::API::from_api_id(plinth::APIID{options.api});
  const auto context = plinth::Context::from_criteria(api);
  const plinth::Queue queue(context.devices()[0]);
  const auto& device = queue.device();
  const plinth::MemoryPool pool = plinth::MemoryPool::of(context);
  std::cout << "{\"impl\": \"plinth\", \"kind\": \"setup\", \"api\": " << quoted(api.name())
            << ", \"api_id\": " << quoted(options.api)
            << ", \"device\": " << quoted(device.device().name()) << ", \"version\": \""
            << PLINTH_VERSION_MAJOR << '.' << PLINTH_VERSION_MINOR << '.' << PLINTH_VERSION_PATCH
            << "\""
            << ", \"memory_pool\": " << (pool.enabled() ? "true" : "false") << "}" << std::endl;

  const Data data = make_data(queue, options);
  std::vector<Workload> workloads = make_workloads(queue, options, data);

  for (auto& workload : workloads) {
    // One batch: `batch` calls between two events, each new result dropped at once (as a
    // Python caller's that is not kept).
    auto batch = [&] {
      queue.synchronize();
      const auto host_start = std::chrono::steady_clock::now();
      const auto start = queue.record_event();
      for (int i = 0; i < workload.batch; ++i) workload.call();
      const auto end = queue.record_event();
      end.wait();
      const std::chrono::duration<double> host = std::chrono::steady_clock::now() - host_start;
      return std::pair{plinth::elapsed_ms(start, end) / 1e3 / workload.batch,
                       host.count() / workload.batch};
    };
    for (int i = 0; i < options.warmup; ++i) batch();
    queue.synchronize();
    if (const std::string problem = workload.check(); !problem.empty())
      throw std::runtime_error(workload.name + ": wrong result: " + problem);
    queue.synchronize();
    std::vector<double> device_seconds, host_seconds;
    const auto misses = pool.stats(device).misses;
    const auto allocations = plinth_bench::allocations();
    for (int i = 0; i < options.reps; ++i) {
      const auto [on_device, on_host] = batch();
      device_seconds.push_back(on_device);
      host_seconds.push_back(on_host);
    }
    // Heap allocations over the timed batches, the events and host timing included
    // (record_event reuses its events: none there on a warm queue).
    const double calls = static_cast<double>(options.reps) * workload.batch;
    const double allocations_per_call =
        static_cast<double>(plinth_bench::allocations() - allocations) / calls;
    // A pool turned off counts no misses, though every result is then a driver allocation.
    const std::string misses_per_call =
        pool.enabled() ? number(static_cast<double>(pool.stats(device).misses - misses) / calls)
                       : "null";
    std::cout << "{\"impl\": \"plinth\", \"kind\": \"workload\", \"workload\": "
              << quoted(workload.name) << ", \"how\": " << quoted(workload.how)
              << ", \"measure\": " << quoted(workload.measure)
              << ", \"elements\": " << workload.elements
              << ", \"dtype\": " << quoted(workload.dtype) << ", \"bytes\": " << workload.bytes
              << ", \"batch\": " << workload.batch << ", \"reps\": " << options.reps
              << ", \"seconds\": " << number(median(device_seconds)) << ", \"best_seconds\": "
              << number(*std::min_element(device_seconds.begin(), device_seconds.end()))
              << ", \"host_seconds\": " << number(median(host_seconds))
              << ", \"pool_misses_per_call\": " << misses_per_call
              << ", \"host_allocs_per_call\": " << number(allocations_per_call) << "}" << std::endl;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-peer: " << error.what() << "\n" << usage;
    return 2;
  }
  try {
    run(options);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-peer: " << error.what() << std::endl;
    return 1;
  }
  return 0;
}
