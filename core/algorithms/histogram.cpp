#include <plinth/histogram.hpp>

#include "algorithms/histogram_codegen.hpp"
#include "algorithms/kit/array_arguments.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_reductions.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace plinth {

namespace {

using detail::check_argument_device;
using detail::contiguous_array;
using detail::element_offset;
using detail::max_static_local_bytes;

constexpr std::size_t histogram_local = 256;
constexpr std::size_t histogram_groups_per_compute_unit = 4;
/// Bins a group counts in local memory at most.
constexpr std::size_t max_local_bins = 8192;
/// Elements one group counts at most, so that a 32-bit count never overflows.
constexpr std::uint64_t max_group_elements = std::uint64_t{1} << 31;
/// Bytes of partial counts at most when the bins are counted in global memory (more groups
/// would not fit; fewer count more elements each).
constexpr std::uint64_t global_rows_budget = std::uint64_t{64} << 20;

detail::RecipeId histogram_recipe_id() {
  static const detail::RecipeId id = detail::next_recipe_id();
  return id;
}

/// The C type a kernel reads `dtype` as, or nullptr.
const char* element_type(const DType& dtype) {
  if (dtype == DType::boolean() || dtype == DType::uint8()) return "unsigned char";
  if (dtype == DType::int8()) return "char";
  if (dtype == DType::int16()) return "short";
  if (dtype == DType::uint16()) return "unsigned short";
  if (dtype == DType::int32()) return "int";
  if (dtype == DType::uint32()) return "unsigned int";
  if (dtype == DType::int64()) return "long";
  if (dtype == DType::uint64()) return "unsigned long";
  if (dtype == DType::float32()) return "float";
  if (dtype == DType::float64()) return "double";
  return nullptr;
}

void check_double(const char* function, const Queue& queue, const char* why) {
  if (!queue.device().params().supports_double) {
    throw LogicError(fmt::format("{}: {} needs double precision, which the device {} lacks",
                                 function, why, queue.device().device().name()));
  }
}

/// Bins counted in local memory for `bins` on the queue's device (a power of two), or 0.
std::size_t local_bins_for(const Queue& queue, std::size_t bins) {
  const auto bytes = std::min(queue.device().params().local_mem_size, max_static_local_bytes);
  const auto capacity =
      std::min(max_local_bins, detail::power_of_two_floor(bytes > 1024 ? (bytes - 1024) / 4 : 0));
  std::size_t local = 256;
  while (local < bins) local *= 2;
  return local <= capacity ? local : 0;
}

/// The values of one launch of `_hg_count`.
struct CountCall {
  detail::BinRule rule;
  bool double_bins;
  Array edges;  ///< the bin dtype's edges (any array for BinRule::integer)
  double lo = 0, hi = 0, scale = 1;
};

/// Counts the `a`'s elements into `bins` bins by `call`'s rule: a new int64 array.
Array count_bins(const Queue& queue, const Array& a, std::size_t bins, const CountCall& call) {
  auto counts = Array::empty(queue, {bins}, DType::int64());
  const auto source = contiguous_array(queue, a);
  const std::uint64_t n = a.size();
  detail::HistogramRecipe recipe;
  recipe.rule = call.rule;
  recipe.element_type = element_type(a.dtype());
  recipe.bin_type = call.double_bins ? "double" : "float";
  recipe.local_bins = local_bins_for(queue, bins);
  recipe.local_size = histogram_local;
  const std::array<std::uint64_t, 4> words{static_cast<std::uint64_t>(call.rule),
                                           std::hash<std::string>{}(recipe.element_type),
                                           call.double_bins ? 1u : 0u, recipe.local_bins};
  const auto slot = detail::built_slot(
      histogram_recipe_id(), queue.device(), words, [&] { return histogram_source(recipe); },
      {detail::histogram_count_function, detail::histogram_merge_function}, histogram_local,
      histogram_groups_per_compute_unit);
  const auto [kernels, local_size, max_groups] = [&] {
    const std::lock_guard lock(slot->mutex);
    return std::tuple(slot->kernels, slot->local_size, slot->max_groups);
  }();
  std::uint64_t groups = n == 0 ? 0 : detail::groups_for(n, local_size, max_groups);
  if (recipe.local_bins == 0) {
    groups =
        std::min<std::uint64_t>(groups, std::max<std::uint64_t>(1, global_rows_budget / 4 / bins));
  }
  if (n != 0) groups = std::max(groups, (n + max_group_elements - 1) / max_group_elements);
  const std::uint64_t bins64 = bins;
  const auto partial =
      Array::empty(queue, {static_cast<std::size_t>(std::max<std::uint64_t>(groups, 1) * bins)},
                   DType::uint32());
  if (groups != 0) {
    const std::int64_t offset = element_offset(source);
    const float lo32 = static_cast<float>(call.lo), hi32 = static_cast<float>(call.hi),
                scale32 = static_cast<float>(call.scale);
    const std::size_t global[1] = {static_cast<std::size_t>(groups) * local_size};
    const std::size_t local[1] = {local_size};
    const auto scalar = [&](const double& wide, const float& narrow) {
      return call.double_bins ? KernelArg(wide) : KernelArg(narrow);
    };
    const std::array<KernelArg, 9> args{source.base_buffer(),
                                        offset,
                                        partial.base_buffer(),
                                        bins64,
                                        call.edges.base_buffer(),
                                        scalar(call.lo, lo32),
                                        scalar(call.hi, hi32),
                                        scalar(call.scale, scale32),
                                        n};
    // (x, x_off, n, partial, bins, edges, lo, hi, denom)
    const std::array<KernelArg, 9> ordered{args[0], args[1], args[8], args[2], args[3],
                                           args[4], args[5], args[6], args[7]};
    kernels[0].launch(queue, global, local, ordered);
  }
  const std::size_t merge_global[1] = {detail::groups_for(bins, local_size, max_groups) *
                                       local_size};
  const std::size_t merge_local[1] = {local_size};
  const std::array<KernelArg, 4> merge_args{partial.base_buffer(), groups, bins64,
                                            counts.base_buffer()};
  kernels[1].launch(queue, merge_global, merge_local, merge_args);
  return counts;
}

/// Checks histogram's `a` and returns whether its bin dtype is float64.
bool check_histogram_array(const Queue& queue, const Array& a) {
  check_argument_device("histogram", "a", queue, a);
  const auto& dtype = a.dtype();
  if (dtype == DType::boolean() || dtype.is_struct() || is_complex(dtype) ||
      dtype == DType::float16() || element_type(dtype) == nullptr) {
    throw LogicError(fmt::format(
        "histogram: argument 'a' is of dtype {} (real or integer dtypes only, not bool or "
        "float16)",
        dtype.name()));
  }
  const bool double_bins = dtype != DType::float32();
  if (double_bins)
    check_double("histogram", queue, fmt::format("a {} array", dtype.name()).c_str());
  return double_bins;
}

/// The value of a shape-() array of a real or integer dtype, as a double (float32 exactly).
double double_of(const Queue& queue, const Array& value) {
  if (value.dtype() == DType::float32()) return value.get(queue).to_vector<float>()[0];
  return astype(queue, value, DType::float64()).get(queue).to_vector<double>()[0];
}

/// numpy.linspace(start, stop, bins + 1) in float64, stored as the bin dtype.
Array even_edges(const Queue& queue, double start, double stop, std::size_t bins,
                 bool double_bins) {
  std::vector<double> y(bins + 1);
  const double div = static_cast<double>(bins);
  const double delta = stop - start;
  const double step = delta / div;
  for (std::size_t k = 0; k <= bins; ++k) {
    const double kk = static_cast<double>(k);
    y[k] = (step == 0 ? kk / div * delta : kk * step) + start;
  }
  y[bins] = stop;
  if (double_bins)
    return Array::from_host(queue, HostArray::from_values(std::span<const double>(y)));
  std::vector<float> narrow(y.begin(), y.end());
  return Array::from_host(queue, HostArray::from_values(std::span<const float>(narrow)));
}

}  // namespace

HistogramResult histogram(const Queue& queue, const Array& a, std::size_t bins,
                          std::optional<std::pair<double, double>> range) {
  const bool double_bins = check_histogram_array(queue, a);
  if (bins == 0) throw LogicError("histogram: argument 'bins' must be positive, got 0");
  double first = 0, last = 1;
  if (range) {
    std::tie(first, last) = *range;
    if (!std::isfinite(first) || !std::isfinite(last)) {
      throw LogicError(
          fmt::format("histogram: argument 'range' [{}, {}] is not finite", first, last));
    }
    if (first > last) {
      throw LogicError(fmt::format(
          "histogram: argument 'range' [{}, {}]: max must be larger than min", first, last));
    }
  } else if (a.size() != 0) {
    const auto lo = min(queue, a);
    const auto hi = max(queue, a);
    first = double_of(queue, lo);
    last = double_of(queue, hi);
    if (!std::isfinite(first) || !std::isfinite(last)) {
      throw LogicError(fmt::format(
          "histogram: argument 'a' gives the range [{}, {}], which is not finite (pass a range)",
          first, last));
    }
  }
  if (first == last) {
    // numpy: first - 0.5 in the edges' type (float32 for float32 data).
    first -= 0.5;
    last += 0.5;
    if (!double_bins) {
      first = static_cast<float>(first);
      last = static_cast<float>(last);
    }
  }
  auto edges = even_edges(queue, first, last, bins, double_bins);
  CountCall call{detail::BinRule::even, double_bins, edges};
  // The range as the edges hold it (numpy compares in the bin dtype).
  call.lo = double_bins ? first : static_cast<float>(first);
  call.hi = double_bins ? last : static_cast<float>(last);
  // numpy's (x - lo) / (hi - lo) * bins, as one factor in the bin dtype.
  call.scale = static_cast<double>(bins) / (last - first);
  auto counts = count_bins(queue, a, bins, call);
  return {std::move(counts), std::move(edges)};
}

HistogramResult histogram(const Queue& queue, const Array& a, std::span<const double> edges) {
  const bool double_bins = check_histogram_array(queue, a);
  if (edges.size() < 2) {
    throw LogicError(
        fmt::format("histogram: argument 'edges' has {} edges (at least 2)", edges.size()));
  }
  for (std::size_t k = 0; k < edges.size(); ++k) {
    if (std::isnan(edges[k]) || (k > 0 && edges[k] < edges[k - 1])) {
      throw LogicError(fmt::format(
          "histogram: argument 'edges' must increase monotonically (edge {} is {})", k, edges[k]));
    }
  }
  const std::size_t bins = edges.size() - 1;
  Array device_edges = [&] {
    if (double_bins) return Array::from_host(queue, HostArray::from_values(edges));
    std::vector<float> narrow(edges.begin(), edges.end());
    return Array::from_host(queue, HostArray::from_values(std::span<const float>(narrow)));
  }();
  CountCall call{detail::BinRule::edges, double_bins, device_edges};
  call.lo = double_bins ? edges.front() : static_cast<float>(edges.front());
  call.hi = double_bins ? edges.back() : static_cast<float>(edges.back());
  auto counts = count_bins(queue, a, bins, call);
  auto result_edges = double_bins ? Array::from_host(queue, HostArray::from_values(edges))
                                  : astype(queue, device_edges, DType::float64());
  return {std::move(counts), std::move(result_edges)};
}

Array bincount(const Queue& queue, const Array& x, const std::optional<Array>& weights,
               std::size_t minlength) {
  check_argument_device("bincount", "x", queue, x);
  const auto& dtype = x.dtype();
  if (x.ndim() != 1) {
    throw LogicError(
        fmt::format("bincount: argument 'x' must be 1-D, got {} dimensions", x.ndim()));
  }
  if (!(dtype == DType::boolean() || dtype.kind() == DTypeKind::signed_integer ||
        (dtype.kind() == DTypeKind::unsigned_integer && dtype != DType::uint64()))) {
    throw LogicError(fmt::format(
        "bincount: argument 'x' is of dtype {} (bool or an integer dtype that int64 holds)",
        dtype.name()));
  }
  if (weights) {
    check_argument_device("bincount", "weights", queue, *weights);
    const auto& w = weights->dtype();
    if (weights->ndim() != 1 || weights->size() != x.size()) {
      throw LogicError(
          fmt::format("bincount: argument 'weights' must be 1-D of x's length {}, got {} elements",
                      x.size(), weights->size()));
    }
    if (w == DType::float16() || w.is_struct() || is_complex(w) || element_type(w) == nullptr) {
      throw LogicError(fmt::format(
          "bincount: argument 'weights' is of dtype {} (a real or integer dtype)", w.name()));
    }
    check_double("bincount", queue, "weights");
    if (!queue.device().features().double_atomics) {
      throw LogicError(
          fmt::format("bincount: weights need double atomics, which the device {} lacks",
                      queue.device().device().name()));
    }
  }
  const auto as_int64 = [&](const Array& value) {
    return astype(queue, value, DType::int64()).get(queue).to_vector<std::int64_t>()[0];
  };
  std::size_t bins = minlength;
  const Array read =
      dtype == DType::boolean()
          ? Array::from_buffer(x.base_buffer(),
                               ArrayMetadata(x.shape(), DType::uint8(), x.strides(),
                                             x.first_element_offset(), x.metadata().buffer_size()))
          : x;
  if (x.size() != 0) {
    if (dtype.kind() == DTypeKind::signed_integer) {
      const auto smallest = as_int64(min(queue, read));
      if (smallest < 0) {
        throw LogicError(
            fmt::format("bincount: argument 'x' must have no negative values, found {}", smallest));
      }
    }
    const auto largest = as_int64(max(queue, read));
    bins = std::max(bins, static_cast<std::size_t>(largest) + 1);
  }
  if (!weights) {
    if (bins == 0) return Array::empty(queue, {0}, DType::int64());
    CountCall call{detail::BinRule::integer, false, read};
    return count_bins(queue, read, bins, call);
  }
  auto out = Array::empty(queue, {bins}, DType::float64());
  if (bins == 0) return out;
  fill(queue, out, 0.0);
  if (x.size() == 0) return out;
  const auto source = contiguous_array(queue, read);
  const Array& w = *weights;
  const Array wread =
      w.dtype() == DType::boolean()
          ? Array::from_buffer(w.base_buffer(),
                               ArrayMetadata(w.shape(), DType::uint8(), w.strides(),
                                             w.first_element_offset(), w.metadata().buffer_size()))
          : w;
  const auto wsource = contiguous_array(queue, wread);
  detail::HistogramRecipe recipe;
  recipe.rule = detail::BinRule::integer;
  recipe.element_type = element_type(read.dtype());
  recipe.bin_type = "float";
  recipe.local_bins = 0;
  recipe.local_size = histogram_local;
  recipe.weight_type = element_type(wread.dtype());
  const std::array<std::uint64_t, 3> words{std::hash<std::string>{}(recipe.element_type),
                                           std::hash<std::string>{}(recipe.weight_type), 7};
  const auto slot = detail::built_slot(
      histogram_recipe_id(), queue.device(), words, [&] { return histogram_source(recipe); },
      {detail::histogram_weighted_function}, histogram_local, histogram_groups_per_compute_unit);
  const auto [kernel, local_size, max_groups] = [&] {
    const std::lock_guard lock(slot->mutex);
    return std::tuple(slot->kernels.front(), slot->local_size, slot->max_groups);
  }();
  const std::uint64_t n = x.size();
  const std::uint64_t bins64 = bins;
  const std::int64_t offset = element_offset(source), woffset = element_offset(wsource);
  const std::size_t global[1] = {detail::groups_for(n, local_size, max_groups) * local_size};
  const std::size_t local[1] = {local_size};
  const std::array<KernelArg, 7> args{source.base_buffer(),  offset, n, out.base_buffer(), bins64,
                                      wsource.base_buffer(), woffset};
  kernel.launch(queue, global, local, args);
  return out;
}

}  // namespace plinth
