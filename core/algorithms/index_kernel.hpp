#pragma once

// The one launch behind take, put, gather and scatter (indexing.hpp): a contiguous array
// indexed along consecutive dimensions by index arrays of one shape.

#include "algorithms/kit/array_arguments.hpp"

#include <plinth/array.hpp>
#include <plinth/indexing.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <vector>

namespace plinth::detail {

/// A contiguous C-order array of shape S indexed along dimensions first .. first + k - 1 by
/// the k index arrays (contiguous, each of the broadcast shape B): the positions are those
/// of the shape S[:first] + B + S[first + k:] (result_shape).
struct IndexedArray {
  Array array;
  std::size_t first = 0;
  std::vector<Array> indices;
  std::vector<std::size_t> broadcast;
  /// The axis of the user's array each index array indexes (for messages).
  std::vector<std::size_t> axes;
};

/// S[:first] + B + S[first + k:].
std::vector<std::size_t> result_shape(const IndexedArray& x);

/// Gather (`scatter` false): other[o] = x.array[at(o)] for every position o, `other` a new
/// contiguous array of result_shape(x). Scatter: x.array[at(o)] = other[o] (or other[o %
/// other.size()] where other has fewer elements), `other` contiguous. With raise, waits for
/// the queue and throws LogicError naming an index out of range (`function` names the
/// caller); LogicError for an index into an empty axis. Nothing is launched without
/// positions.
void run_index(const Queue& queue, const char* function, const IndexedArray& x, const Array& other,
               bool scatter, IndexMode mode);

}  // namespace plinth::detail
