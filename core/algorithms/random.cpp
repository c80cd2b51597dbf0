// RandomGenerator (include/plinth/random.hpp): one ElementwiseKernel per operation and dtype
// (in the recipe cache), drawing words from the philox4x32_10() module and converting them
// with random_math().

#include <plinth/random.hpp>

#include "algorithms/kit/multi_parts.hpp"
#include "algorithms/kit/recipe_cache.hpp"
#include "algorithms/random_math.hpp"

#include <plinth/dtype.hpp>
#include <plinth/dtype_c.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace plinth {

namespace {

enum class Operation { uniform, normal, bits };

const char* operation_name(Operation op) {
  switch (op) {
    case Operation::uniform: return "uniform";
    case Operation::normal: return "normal";
    case Operation::bits: return "bits";
  }
  return "?";
}

// The words of element i (number first_index + i: a MultiArray's part starts there in the
// whole array), then the body that stores into y[i].
constexpr const char* draw_words =
    "const ${philox}words w = ${philox}stream(first_index + i, offset_lo, offset_hi, seed_lo, "
    "seed_hi);\n";

std::string uniform_operation(bool is_double) {
  const std::string u = is_double ? "${math}uniform(w.x0, w.x1)" : "${math}uniform(w.x0)";
  return fmt::format(
      "{{\n{}const {} v = ${{math}}scale_shift({}, width, low);\n"
      "y[i] = v < high ? v : below_high;\n}}",
      draw_words, is_double ? "double" : "float", u);
}

std::string normal_operation(bool is_double, bool is_complex) {
  const std::string pair =
      is_double ? "${math}normal_pair(w.x0, w.x1, w.x2, w.x3)" : "${math}normal_pair(w.x0, w.x1)";
  const std::string complex = is_double ? "plinth_complex128" : "plinth_complex64";
  if (!is_complex) {
    return fmt::format(
        "{{\n{}const {} z = {};\ny[i] = ${{math}}scale_shift(z.x, scale, mean_re);\n}}", draw_words,
        complex, pair);
  }
  return fmt::format(
      "{{\n{0}const {1} z = {2};\n{1} o;\no.x = ${{math}}scale_shift(z.x, scale, mean_re);\n"
      "o.y = ${{math}}scale_shift(z.y, scale, mean_im);\ny[i] = o;\n}}",
      draw_words, complex, pair);
}

std::string bits_operation(const DType& dtype) {
  if (dtype.itemsize() == 8) {
    return fmt::format(
        "{{\n{}y[i] = ({})(((${{philox}}u64)w.x1 << 32) | (${{philox}}u64)w.x0);\n}}", draw_words,
        ctype(dtype).as_string());
  }
  return fmt::format("{{\n{}y[i] = ({})w.x0;\n}}", draw_words, ctype(dtype).as_string());
}

ElementwiseKernel make_kernel(Operation op, const DType& dtype) {
  const DType u32 = DType::uint32();
  std::vector<ElementwiseArg> args{ElementwiseArg::output("y", dtype),
                                   ElementwiseArg::scalar("seed_lo", u32),
                                   ElementwiseArg::scalar("seed_hi", u32),
                                   ElementwiseArg::scalar("offset_lo", u32),
                                   ElementwiseArg::scalar("offset_hi", u32),
                                   ElementwiseArg::scalar("first_index", DType::uint64())};
  RenderGlobals globals{{"philox", philox4x32_10()}};
  std::string operation;
  const DType real = is_complex(dtype) ? real_for(dtype) : dtype;
  switch (op) {
    case Operation::uniform:
      for (const char* name : {"low", "width", "high", "below_high"}) {
        args.push_back(ElementwiseArg::scalar(name, real));
      }
      operation = uniform_operation(is_double(dtype));
      globals.emplace("math", detail::random_math(real));
      break;
    case Operation::normal:
      for (const char* name : {"scale", "mean_re", "mean_im"}) {
        args.push_back(ElementwiseArg::scalar(name, real));
      }
      operation = normal_operation(is_double(dtype), is_complex(dtype));
      globals.emplace("math", detail::random_math(real));
      break;
    case Operation::bits: operation = bits_operation(dtype); break;
  }
  return ElementwiseKernel(
      std::move(args), std::move(operation),
      {.name = fmt::format("plinth_random_{}_{}", operation_name(op), dtype.name()),
       .render_globals = std::move(globals),
       .writes_every_element = true});
}

/// The kernel of `op` for `dtype`, from the recipe cache (shared by every generator).
ElementwiseKernel kernel(Operation op, const DType& dtype) {
  return detail::recipe_cache().get<ElementwiseKernel>(
      "random", fmt::format("{}:{}", operation_name(op), dtype.name()),
      [&] { return make_kernel(op, dtype); });
}

[[noreturn]] void fail(Operation op, const std::string& problem) {
  throw LogicError(fmt::format("RandomGenerator::{}: {}", operation_name(op), problem));
}

void require_dtype(Operation op, const DType& dtype, bool accepted, const char* accepted_text) {
  if (!accepted) {
    fail(op, fmt::format("array dtype {} is not supported (use {})", dtype.name(), accepted_text));
  }
}

// Low, the width, high and the largest number below high, in T.
template <class T>
std::vector<T> uniform_bounds(double low, double high) {
  const T lo = static_cast<T>(low), hi = static_cast<T>(high);
  if (!std::isfinite(low) || !std::isfinite(high) || !std::isfinite(lo) || !std::isfinite(hi) ||
      !(lo < hi)) {
    fail(Operation::uniform,
         fmt::format("low = {} and high = {} must be finite with low < high in the array's dtype",
                     low, high));
  }
  const T width = hi - lo;
  if (!std::isfinite(width)) {
    fail(Operation::uniform, fmt::format("high - low overflows (low = {}, high = {})", low, high));
  }
  return {lo, width, hi, std::nextafter(hi, lo)};
}

}  // namespace

RandomGenerator::RandomGenerator(std::uint64_t seed, std::uint64_t offset)
    : seed_(seed), offset_(offset) {}

namespace {

/// Where a call's numbers go: an array (a MultiArray's part), its queue, and the flat index
/// of its first element in the whole array.
struct Part {
  Queue queue;
  Array array;
  std::uint64_t first = 0;
};

/// The parts of `array` on their queues. Throws LogicError if `queues` does not match the
/// array's devices or a part is not a run of consecutive elements of the whole array.
std::vector<Part> parts_of(Operation op, const MultiQueue& queues, const MultiArray& array) {
  const std::string what = fmt::format("RandomGenerator::{}", operation_name(op));
  const auto& devices = array.devices();
  const auto queue_of = detail::part_queues(what, queues, devices);
  const auto layout = detail::part_layout(what, array);
  std::vector<Part> parts;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto first = detail::flat_run_start(layout.boxes[i], array.shape());
    if (!first) {
      fail(op, fmt::format("the MultiArray's part on device {} ('{}') is not a run of "
                           "consecutive elements of the whole array in C order (split it along "
                           "its first axis, e.g. by EqualSplay)",
                           devices[i].index(), devices[i].name()));
    }
    parts.push_back({queue_of[i], array[devices[i]], *first});
  }
  return parts;
}

/// Enqueues `kernel` on every part with the seed, the offset and `extra`; with several
/// parts, every part's call is checked (and its program built) before any is enqueued.
template <class... Extra>
void launch(const ElementwiseKernel& kernel, std::span<const Part> parts, std::uint64_t seed,
            std::uint64_t offset, const Extra&... extra) {
  const auto lo = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  const auto hi = [](std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); };
  const auto values_of = [&](const Part& part) {
    return std::array<ElementwiseValue, 6 + sizeof...(Extra)>{
        ElementwiseValue(part.array), ElementwiseValue(lo(seed)),   ElementwiseValue(hi(seed)),
        ElementwiseValue(lo(offset)), ElementwiseValue(hi(offset)), ElementwiseValue(part.first),
        ElementwiseValue(extra)...};
  };
  if (parts.size() > 1) {
    for (const auto& part : parts) static_cast<void>(kernel.program(part.queue, values_of(part)));
  }
  for (const auto& part : parts) kernel.launch(part.queue, values_of(part));
}

void fill_uniform(std::span<const Part> parts, const DType& dtype, std::uint64_t seed,
                  std::uint64_t offset, double low, double high) {
  require_dtype(Operation::uniform, dtype, dtype == DType::float32() || dtype == DType::float64(),
                "float32 or float64");
  const auto k = kernel(Operation::uniform, dtype);
  if (dtype == DType::float32()) {
    const auto b = uniform_bounds<float>(low, high);
    launch(k, parts, seed, offset, b[0], b[1], b[2], b[3]);
  } else {
    const auto b = uniform_bounds<double>(low, high);
    launch(k, parts, seed, offset, b[0], b[1], b[2], b[3]);
  }
}

void fill_normal(std::span<const Part> parts, const DType& dtype, std::uint64_t seed,
                 std::uint64_t offset, std::complex<double> mean, double stddev) {
  require_dtype(Operation::normal, dtype,
                dtype == DType::float32() || dtype == DType::float64() ||
                    dtype == DType::complex64() || dtype == DType::complex128(),
                "float32, float64, complex64 or complex128");
  if (!std::isfinite(mean.real()) || !std::isfinite(mean.imag()) || !std::isfinite(stddev) ||
      stddev < 0.0) {
    fail(Operation::normal,
         fmt::format("mean = ({}, {}) and stddev = {} must be finite, stddev >= 0", mean.real(),
                     mean.imag(), stddev));
  }
  if (!is_complex(dtype) && mean.imag() != 0.0) {
    fail(Operation::normal, fmt::format("a complex mean ({}, {}) for the real array dtype {}",
                                        mean.real(), mean.imag(), dtype.name()));
  }
  const double scale = is_complex(dtype) ? stddev * std::sqrt(0.5) : stddev;
  const auto k = kernel(Operation::normal, dtype);
  if (is_double(dtype)) {
    launch(k, parts, seed, offset, scale, mean.real(), mean.imag());
  } else {
    launch(k, parts, seed, offset, static_cast<float>(scale), static_cast<float>(mean.real()),
           static_cast<float>(mean.imag()));
  }
}

void fill_bits(std::span<const Part> parts, const DType& dtype, std::uint64_t seed,
               std::uint64_t offset) {
  require_dtype(Operation::bits, dtype, is_integer(dtype) && dtype != DType::boolean(),
                "int8, uint8, int16, uint16, int32, uint32, int64 or uint64");
  launch(kernel(Operation::bits, dtype), parts, seed, offset);
}

}  // namespace

void RandomGenerator::uniform(const Queue& queue, const Array& array, double low, double high) {
  const Part part{queue, array};
  fill_uniform(std::span(&part, 1), array.dtype(), seed_, offset_, low, high);
  ++offset_;
}

void RandomGenerator::uniform(const MultiQueue& queues, const MultiArray& array, double low,
                              double high) {
  fill_uniform(parts_of(Operation::uniform, queues, array), array.dtype(), seed_, offset_, low,
               high);
  ++offset_;
}

void RandomGenerator::normal(const Queue& queue, const Array& array, double mean, double stddev) {
  normal(queue, array, std::complex<double>(mean, 0.0), stddev);
}

void RandomGenerator::normal(const Queue& queue, const Array& array, std::complex<double> mean,
                             double stddev) {
  const Part part{queue, array};
  fill_normal(std::span(&part, 1), array.dtype(), seed_, offset_, mean, stddev);
  ++offset_;
}

void RandomGenerator::normal(const MultiQueue& queues, const MultiArray& array, double mean,
                             double stddev) {
  normal(queues, array, std::complex<double>(mean, 0.0), stddev);
}

void RandomGenerator::normal(const MultiQueue& queues, const MultiArray& array,
                             std::complex<double> mean, double stddev) {
  fill_normal(parts_of(Operation::normal, queues, array), array.dtype(), seed_, offset_, mean,
              stddev);
  ++offset_;
}

void RandomGenerator::bits(const Queue& queue, const Array& array) {
  const Part part{queue, array};
  fill_bits(std::span(&part, 1), array.dtype(), seed_, offset_);
  ++offset_;
}

void RandomGenerator::bits(const MultiQueue& queues, const MultiArray& array) {
  fill_bits(parts_of(Operation::bits, queues, array), array.dtype(), seed_, offset_);
  ++offset_;
}

}  // namespace plinth
