#pragma once

// The LSD radix sort behind sorting.hpp (sort, argsort, sort_by_key, unique, partition, topk):
// rows of a contiguous array's keys sorted independently, stably, with or without the
// permutation. See the file comment of include/plinth/sorting.hpp for the algorithm.

#include <plinth/array.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <optional>
#include <string_view>

namespace plinth::detail {

/// What radix_sort returns: the sorted keys (a new C-order array of the input's shape and
/// dtype) and, if asked for, each one's index in its row before the sort (int64, same shape).
struct RadixResult {
  Array keys;
  std::optional<Array> indices;
};

/// Whether `dtype` is a key dtype radix_sort takes (every integer dtype, float32, float64).
bool is_radix_key(const DType& dtype) noexcept;

/// Sorts each run of `row` consecutive keys of the C-contiguous array `keys` (whose size is a
/// multiple of `row`; row may be 0 only for an empty array) on `queue`, ascending in numpy's
/// order (descending: the reverse, NaN first), stably. Asynchronous. `function` names the
/// public function in errors. Throws LogicError for a key dtype radix_sort does not take, an
/// array on another device, a device without the dialect's atomics; CompileError,
/// OutOfMemoryError, BackendError.
RadixResult radix_sort(const Queue& queue, const Array& keys, std::size_t row, bool indices,
                       bool descending, std::string_view function);

}  // namespace plinth::detail
