#include "sorting.hpp"

#include "common.hpp"

#include <plinth/array.hpp>
#include <plinth/sorting.hpp>

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plinth_bench {

namespace {

/// Issue 29's target: sort and argsort at 0.8 of CUB's radix sort (what cupy.sort runs).
constexpr double cub_sort_target = 0.8;

/// The keys and the outputs of the raw side, made on first use.
struct SortArrays {
  plinth::Queue queue;
  std::size_t n;
  std::optional<plinth::Array> floats, ints, iota, keys_out, values_out;

  SortArrays(plinth::Queue queue_, std::size_t n_) : queue(std::move(queue_)), n(n_) {}

  void prepare() {
    if (floats) return;
    std::vector<float> f(n);
    std::vector<std::int32_t> i(n);
    std::vector<std::int64_t> k(n);
    std::uint64_t state = 0x9e3779b97f4a7c15ULL;
    for (std::size_t e = 0; e < n; ++e) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      f[e] = static_cast<float>(state >> 40) / static_cast<float>(1 << 24);
      i[e] = static_cast<std::int32_t>(static_cast<std::uint32_t>(state >> 32));
      k[e] = static_cast<std::int64_t>(e);
    }
    floats = plinth::Array::from_host(queue, plinth::HostArray::from_values(f));
    ints = plinth::Array::from_host(queue, plinth::HostArray::from_values(i));
    iota = plinth::Array::from_host(queue, plinth::HostArray::from_values(k));
    keys_out = plinth::Array::empty(queue.device(), {n}, plinth::DType::float32());
    values_out = plinth::Array::empty(queue.device(), {n}, plinth::DType::int64());
    queue.synchronize();
  }
};

template <class PlinthOp, class RawOp>
void register_rate(const std::string& name, double target, std::size_t bytes, PlinthOp plinth_op,
                   RawOp raw_op) {
  auto pair = register_pair(
      {name, Measure::throughput, target, {}},
      [=](benchmark::State& state) mutable { time_transfers(state, bytes, plinth_op); },
      [=](benchmark::State& state) mutable { time_transfers(state, bytes, raw_op); });
  configure(pair, [](auto* b) { b->MinTime(long_min_time)->UseRealTime(); });
}

}  // namespace

void register_sorting(const plinth::Queue& queue, std::size_t n, SortReferences references) {
  auto arrays = std::make_shared<SortArrays>(queue, n);
  auto refs = std::make_shared<SortReferences>(std::move(references));
  const std::size_t bytes = n * 4;
  const std::string suffix = "_2^" + std::to_string(std::bit_width(n) - 1);
  // Without CUB: the device copy of the keys' bytes, as a scale, with no target.
  auto copy = [arrays, refs] {
    arrays->prepare();
    refs->copy(arrays->keys_out->base_buffer(), arrays->floats->base_buffer(), arrays->n * 4);
  };
  const auto sort_of = [arrays](bool is_float, bool indices) {
    return [arrays, is_float, indices] {
      arrays->prepare();
      {
        const auto& keys = is_float ? *arrays->floats : *arrays->ints;
        const auto result =
            indices ? plinth::argsort(arrays->queue, keys) : plinth::sort(arrays->queue, keys);
        benchmark::DoNotOptimize(result);
      }
      arrays->queue.synchronize();
    };
  };
  for (const bool is_float : {true, false}) {
    const std::string name =
        std::string("algorithms/sort_") + (is_float ? "float32" : "int32") + suffix;
    const auto& reference = is_float ? refs->sort_keys_float32 : refs->sort_keys_int32;
    if (reference) {
      register_rate(name, cub_sort_target, bytes, sort_of(is_float, false),
                    [arrays, refs, is_float] {
                      arrays->prepare();
                      const auto& keys = is_float ? *arrays->floats : *arrays->ints;
                      (is_float ? refs->sort_keys_float32 : refs->sort_keys_int32)(
                          keys.base_buffer(), arrays->keys_out->base_buffer(), arrays->n);
                    });
    } else {
      register_rate(name, 0, bytes, sort_of(is_float, false), copy);
    }
  }
  const std::string argsort_name = "algorithms/argsort_float32" + suffix;
  if (refs->sort_pairs_float32_int64) {
    register_rate(argsort_name, cub_sort_target, bytes, sort_of(true, true), [arrays, refs] {
      arrays->prepare();
      refs->sort_pairs_float32_int64(arrays->floats->base_buffer(), arrays->keys_out->base_buffer(),
                                     arrays->iota->base_buffer(), arrays->values_out->base_buffer(),
                                     arrays->n);
    });
  } else {
    register_rate(argsort_name, 0, bytes, sort_of(true, true), copy);
  }
}

}  // namespace plinth_bench
